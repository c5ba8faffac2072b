import type { ErrorObject, ValidateFunction } from 'ajv'

export type Draft = 'draft-07' | '2020-12'

export interface CompiledSchema {
  draft: Draft
  validate: ValidateFunction
}

export interface SchemaIssue {
  /** JSON pointer into the instance (validation) or the schema (compilation). */
  pointer: string
  message: string
}

/** The draft a schema asks for with `$schema`; 2020-12 when it names none. */
export function draftOf(schema: unknown): Draft {
  const id = schema && typeof schema === 'object' ? (schema as Record<string, unknown>).$schema : undefined
  if (typeof id === 'string' && /draft-0[4-7]/.test(id)) return 'draft-07'
  return '2020-12'
}

/**
 * Compiles a JSON Schema with ajv for its draft (ajv and its formats are imported on
 * first use only: they are heavy). `strict` turns unknown keywords and ambiguous
 * constructs into compile errors.
 */
export async function compileSchema(
  schema: unknown,
  opts: { strict: boolean },
): Promise<{ ok: true; schema: CompiledSchema } | { ok: false; error: string }> {
  const draft = draftOf(schema)
  const [{ default: Ajv }, { default: Ajv2020 }, { default: addFormats }] = await Promise.all([
    import('ajv'),
    import('ajv/dist/2020.js'),
    import('ajv-formats'),
  ])
  const options = { strict: opts.strict, allErrors: true, validateFormats: true }
  // biome-ignore lint/suspicious/noExplicitAny: the two ajv classes share this surface
  const ajv: any = draft === 'draft-07' ? new (Ajv as any)(options) : new (Ajv2020 as any)(options)
  // biome-ignore lint/suspicious/noExplicitAny: ajv-formats' CJS default export
  ;(addFormats as any)(ajv)
  try {
    return { ok: true, schema: { draft, validate: ajv.compile(schema) } }
  } catch (e) {
    return { ok: false, error: (e as Error).message }
  }
}

/** ajv's errors as pointer + message lines. */
export function issues(errors: ErrorObject[] | null | undefined): SchemaIssue[] {
  return (errors ?? []).map((e) => {
    let pointer = e.instancePath || ''
    let message = e.message ?? 'is invalid'
    if (e.keyword === 'required')
      pointer = `${pointer}/${(e.params as { missingProperty: string }).missingProperty}`
    if (e.keyword === 'additionalProperties') {
      pointer = `${pointer}/${(e.params as { additionalProperty: string }).additionalProperty}`
      message = 'is not allowed (additionalProperties: false)'
    }
    if (e.keyword === 'enum')
      message = `${message}: ${JSON.stringify((e.params as { allowedValues: unknown[] }).allowedValues)}`
    return { pointer: pointer || '/', message }
  })
}
