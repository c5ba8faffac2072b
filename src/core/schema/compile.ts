import type { ErrorObject, ValidateFunction } from 'ajv'
import { didYouMean } from '../suggest.js'
import { SUBSCHEMA, SUBSCHEMA_LIST, SUBSCHEMA_MAP } from './keywords.js'
import { everyPattern } from './linear-pattern.js'
import { patternSafeToRun } from './redos.js'
import { simpleSubschemaValid } from './simple.js'

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

/**
 * How deep a schema (as JSON: every object and array counts) may nest for ajv to be given it.
 * ajv compiles and meta-validates by recursion on the stack (on the main thread `anyOf` overflows
 * at about 390 levels, `items` at about 400) and in time that grows with the cube of the depth
 * when subschemas hold defaults (100 levels of `items` with a `default` each: 2.6 s; 200: 20 s).
 * Deeper schemas are not given to ajv: the check says so (`AJV_TOO_DEEP`).
 */
export const AJV_MAX_DEPTH = 100

/** The nesting depth of a JSON value (a scalar is 0, `[]` and `{}` are 1), iteratively: any depth. */
export function jsonDepth(value: unknown): number {
  let max = 0
  const stack: [unknown, number][] = [[value, 0]]
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [v, d] = top
    if (v === null || typeof v !== 'object') continue
    if (d + 1 > max) max = d + 1
    for (const x of Array.isArray(v) ? v : Object.values(v)) {
      if (x !== null && typeof x === 'object') stack.push([x, d + 1])
    }
  }
  return max
}

/** Why ajv was not given a schema: its depth, past AJV_MAX_DEPTH. */
export function ajvTooDeep(depth: number): string {
  return `it nests ${depth} levels, deeper than the ${AJV_MAX_DEPTH} ajv is given`
}

/** The draft a schema asks for with `$schema`; 2020-12 when it names none. */
export function draftOf(schema: unknown): Draft {
  const id = schema && typeof schema === 'object' ? (schema as Record<string, unknown>).$schema : undefined
  if (typeof id === 'string' && /draft-0[4-7]/.test(id)) return 'draft-07'
  return '2020-12'
}

/** The meta-schema ids ajv registers for the drafts we check. */
export const META_IDS: Record<Draft, string> = {
  'draft-07': 'http://json-schema.org/draft-07/schema#',
  '2020-12': 'https://json-schema.org/draft/2020-12/schema',
}

/**
 * Which draft `$schema` selects for the strict checks: none (or a non-string, which the
 * meta-schema then rejects) → 2020-12; the draft-07 or 2020-12 meta-schema URI (http or
 * https, with or without the empty fragment) → that draft; anything else → unsupported.
 */
export function selectDraft(schema: unknown): { draft: Draft } | { unsupported: string } {
  const id = schema && typeof schema === 'object' ? (schema as Record<string, unknown>).$schema : undefined
  if (typeof id !== 'string') return { draft: '2020-12' }
  if (/^https?:\/\/json-schema\.org\/draft-07\/schema#?$/.test(id)) return { draft: 'draft-07' }
  if (/^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/.test(id)) return { draft: '2020-12' }
  return { unsupported: id }
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
  const depth = jsonDepth(schema)
  if (depth > AJV_MAX_DEPTH) return { ok: false, error: ajvTooDeep(depth) }
  // logger false: ajv would write its notes (`unknown format "x" ignored …`) to the console itself.
  const options = { strict: opts.strict, allErrors: true, validateFormats: true, logger: false }
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

/**
 * ajv's errors as pointer + message lines, those on one location folded into one (foldErrors).
 * Given the schema and the value checked, a key or a string that is a slip of a known one says
 * which (`did you mean "port"?`): a property not allowed, a required one missing beside a key
 * near its name, a value off an enum.
 */
export function issues(
  errors: ErrorObject[] | null | undefined,
  schema?: unknown,
  value?: unknown,
): SchemaIssue[] {
  const lines = (errors ?? []).map((e) => {
    let pointer = e.instancePath || ''
    let message = e.message ?? 'is invalid'
    let near: string | undefined
    if (e.keyword === 'required') {
      const missing = (e.params as { missingProperty: string }).missingProperty
      pointer = `${pointer}/${missing}`
      const data = atPointer(value, e.instancePath)
      const props = Object.keys(objectAt(atPointer(schema, parentPath(e.schemaPath)), 'properties') ?? {})
      const keys = data !== null && typeof data === 'object' && !Array.isArray(data) ? Object.keys(data) : []
      // A key given that is no property, a slip of the one missing: `prt` for `port`.
      const slip = keys.find((k) => !props.includes(k) && didYouMean(k, [missing]) === missing)
      if (slip !== undefined) message += ` (args has "${slip}": did you mean "${missing}"?)`
    }
    if (e.keyword === 'additionalProperties') {
      const extra = (e.params as { additionalProperty: string }).additionalProperty
      pointer = `${pointer}/${extra}`
      message = 'is not allowed (additionalProperties: false)'
      const props = objectAt(atPointer(schema, parentPath(e.schemaPath)), 'properties')
      near = props === undefined ? undefined : didYouMean(extra, Object.keys(props))
    }
    if (e.keyword === 'enum') {
      const allowed = (e.params as { allowedValues: unknown[] }).allowedValues
      message = `${message}: ${JSON.stringify(allowed)}`
      near = enumNear(atPointer(value, e.instancePath), allowed)
    }
    return {
      error: e,
      pointer: pointer || '/',
      message: near === undefined ? message : `${message}; did you mean "${near}"?`,
    }
  })
  return foldErrors(lines)
}

/**
 * ajv's errors on one location as one: the summary of an anyOf/oneOf goes when its branches
 * said why, and a branch refused on `type` goes when another branch of the value's own type
 * said more (a `"type": "strin"` is off the enum of type names, not "must be array"), and is
 * not said at all when a branch's errors lie deeper; what is left is joined with `; `.
 */
function foldErrors<T extends { error: ErrorObject; pointer: string; message: string }>(
  lines: T[],
): { pointer: string; message: string }[] {
  const byPointer = new Map<string, T[]>()
  for (const l of lines) byPointer.set(l.pointer, [...(byPointer.get(l.pointer) ?? []), l])
  const pointers = [...byPointer.keys()]
  // An anyOf whose branch went deeper (`"type": ["string", "nul"]`: the list's item 1) is said there.
  const deeper = (p: string) => pointers.some((q) => q.startsWith(`${p}/`))
  return [...byPointer].flatMap(([pointer, group]) => {
    if (group.some((l) => l.error.keyword === 'anyOf' || l.error.keyword === 'oneOf') && deeper(pointer))
      return []
    let kept = group
    const branches = kept.filter((l) => l.error.keyword !== 'anyOf' && l.error.keyword !== 'oneOf')
    if (branches.length > 0) kept = branches
    const specific = kept.filter((l) => l.error.keyword !== 'type')
    if (specific.length > 0 && specific.length < kept.length && group.length > kept.length) kept = specific
    return [{ pointer, message: [...new Set(kept.map((l) => l.message))].join('; ') }]
  })
}

/** A string off an enum of strings, near one of them. */
function enumNear(v: unknown, allowed: unknown[]): string | undefined {
  if (typeof v !== 'string') return undefined
  return didYouMean(
    v,
    allowed.filter((a): a is string => typeof a === 'string'),
  )
}

/** The schema path of the subschema a keyword sits in (`#/properties/a/required` → `/properties/a`). */
function parentPath(schemaPath: string): string {
  const p = schemaPath.replace(/^#/, '')
  return p.slice(0, Math.max(0, p.lastIndexOf('/')))
}

function objectAt(v: unknown, key: string): Record<string, unknown> | undefined {
  if (v === null || typeof v !== 'object' || !Object.hasOwn(v, key)) return undefined
  const o = (v as Record<string, unknown>)[key]
  return o !== null && typeof o === 'object' && !Array.isArray(o) ? (o as Record<string, unknown>) : undefined
}

/** The value at a JSON pointer (ajv's: `/a/0`, `~1` and `~0` escaped), or undefined. */
function atPointer(root: unknown, pointer: string): unknown {
  if (pointer === '') return root
  let v = root
  for (const raw of pointer.split('/').slice(1)) {
    let token = raw
    try {
      token = decodeURIComponent(raw)
    } catch {}
    token = token.replace(/~1/g, '/').replace(/~0/g, '~')
    if (v === null || typeof v !== 'object' || !Object.hasOwn(v, token)) return undefined
    v = (v as Record<string, unknown>)[token]
  }
  return v
}

// ---------------------------------------------------------------------------------------------
// The strict check of a manifest schema (validate / lint).

/** One problem with a schema, at a JSON pointer into it. */
export interface SchemaProblem {
  pointer: string
  message: string
}

export interface SchemaCheck {
  draft: Draft
  /** Meta-schema violations: the schema is not a valid JSON Schema of its draft. */
  invalid: SchemaProblem[]
  /** What ajv's compiler refused in strict mode (unknown keyword, unknown format, bad $ref…). */
  compileError: string | null
  /** `default` / `examples[i]` values that fail the subschema they sit in (pointer to the value). */
  defaults: SchemaProblem[]
  /** `builtin`: proven valid without ajv (see simple.ts); `ajv`: checked by ajv. */
  via: 'builtin' | 'ajv'
  /**
   * Why ajv could not check the schema at all (nested past AJV_MAX_DEPTH, or ajv ran out of
   * stack): nothing else in this check is a verdict then. Null when it was checked.
   */
  unchecked: string | null
}

/**
 * The ajv options of the strict check: ajv's strict mode for schemas (unknown keywords,
 * ignored keywords, unknown formats are compile errors) and numbers; strictTypes,
 * strictTuples and strictRequired are left to our own lint rules (they flag legal schemas).
 */
export const STRICT_OPTIONS = {
  strict: true,
  strictSchema: true,
  strictNumbers: true,
  strictTypes: false,
  strictTuples: false,
  strictRequired: false,
  // The first error of each check is enough, and compiles faster than allErrors.
  allErrors: false,
  validateSchema: false,
  validateFormats: true,
  logger: false,
  code: { optimize: false },
} as const

// biome-ignore lint/suspicious/noExplicitAny: ajv instances of either class
type AnyAjv = any
const instances = new Map<string, AnyAjv>()
/**
 * The key a schema is added under while it is checked (removed before the next is added: no await
 * between). One key for all, never a counter: ajv's messages quote it (`… from id KEY`), and a
 * message depends on the file alone, in `lint` as in the long-running `lsp` and `mcp`.
 */
const SCHEMA_KEY = 'ongrid-skill:schema'

/**
 * One ajv instance per draft and mode, created on first use (the import is the expensive
 * part). `lenient` (strict off) checks defaults of schemas that strict mode refused.
 */
export async function strictAjv(draft: Draft, lenient = false): Promise<AnyAjv> {
  const id = `${draft}${lenient ? ':lenient' : ''}`
  const cached = instances.get(id)
  if (cached) return cached
  const [{ default: addFormats }, Cls] = await Promise.all([
    import('ajv-formats'),
    draft === 'draft-07'
      ? import('ajv').then((m) => m.default)
      : import('ajv/dist/2020.js').then((m) => m.default),
  ])
  const options = lenient
    ? { ...STRICT_OPTIONS, strict: false, strictSchema: false, strictNumbers: false }
    : STRICT_OPTIONS
  // biome-ignore lint/suspicious/noExplicitAny: CJS default exports
  const ajv: AnyAjv = new (Cls as any)(options)
  // biome-ignore lint/suspicious/noExplicitAny: ajv-formats' CJS default export
  ;(addFormats as any)(ajv)
  instances.set(id, ajv)
  return ajv
}

function escapeToken(k: string): string {
  return k.replace(/~/g, '~0').replace(/\//g, '~1')
}

/** Calls fn for every subschema (the root included) with its JSON pointer. */
export function eachSubschema(
  schema: unknown,
  fn: (s: Record<string, unknown>, pointer: string) => void,
): void {
  const visit = (s: unknown, pointer: string, depth: number) => {
    if (!s || typeof s !== 'object' || Array.isArray(s) || depth > 200) return
    const o = s as Record<string, unknown>
    fn(o, pointer)
    for (const [k, v] of Object.entries(o)) {
      const p = `${pointer}/${escapeToken(k)}`
      if (SUBSCHEMA_LIST.has(k) && Array.isArray(v))
        v.forEach((x, i) => {
          visit(x, `${p}/${i}`, depth + 1)
        })
      else if (SUBSCHEMA.has(k)) visit(v, p, depth + 1)
      else if (SUBSCHEMA_MAP.has(k) && v && typeof v === 'object' && !Array.isArray(v)) {
        for (const [name, x] of Object.entries(v as Record<string, unknown>)) {
          visit(x, `${p}/${escapeToken(name)}`, depth + 1)
        }
      }
    }
  }
  visit(schema, '', 0)
}

function fragment(pointer: string): string {
  return pointer
    .split('/')
    .map((t) => encodeURIComponent(t))
    .join('/')
}

function messageOf(errors: ErrorObject[] | null | undefined): string {
  return (errors ?? [])
    .map((e) => {
      let m = e.message ?? 'is invalid'
      if (e.keyword === 'enum')
        m += `: ${JSON.stringify((e.params as { allowedValues: unknown[] }).allowedValues)}`
      if (e.keyword === 'additionalProperties') {
        m += `: ${JSON.stringify((e.params as { additionalProperty: string }).additionalProperty)}`
      }
      return e.instancePath ? `${e.instancePath} ${m}` : m
    })
    .join('; ')
}

/**
 * ajv's verdict on a schema (a JS value, as the bridge would send it): meta-schema
 * validation against its draft, compilation in strict mode, then every `default` and
 * `examples` item against the subschema it sits in.
 */
export async function ajvCheck(schema: Record<string, unknown>, draft: Draft): Promise<SchemaCheck> {
  const depth = jsonDepth(schema)
  if (depth > AJV_MAX_DEPTH) return uncheckedCheck(draft, ajvTooDeep(depth))
  // Fleets copy schemas: the same schema gets the same verdict.
  const memoKey = `${draft}\n${JSON.stringify(schema)}`
  const memo = verdicts.get(memoKey)
  if (memo) return { ...memo, invalid: [...memo.invalid], defaults: [...memo.defaults] }
  let v: SchemaCheck
  try {
    v = await ajvCheckOnce(schema, draft)
  } catch (e) {
    // ajv recurses on the stack: a schema within AJV_MAX_DEPTH should never get here.
    if (!(e instanceof RangeError)) throw e
    v = uncheckedCheck(draft, `ajv ran out of stack on it (${e.message})`)
  }
  verdicts.set(memoKey, v)
  return v
}

function uncheckedCheck(draft: Draft, why: string): SchemaCheck {
  return { draft, invalid: [], compileError: null, defaults: [], via: 'ajv', unchecked: why }
}

const verdicts = new Map<string, SchemaCheck>()

async function ajvCheckOnce(schema: Record<string, unknown>, draft: Draft): Promise<SchemaCheck> {
  const ajv = await strictAjv(draft)
  // ajv knows each meta-schema under one URI: name it so whatever spelling selected the draft.
  // A `$schema` that is not a string (ajv's validateSchema throws on it) is checked against the
  // draft's meta-schema, which says what is wrong with it.
  const copy = typeof schema.$schema === 'string' ? { ...schema, $schema: META_IDS[draft] } : schema
  const check: SchemaCheck = {
    draft,
    invalid: [],
    compileError: null,
    defaults: [],
    via: 'ajv',
    unchecked: null,
  }
  const metaValid =
    Object.hasOwn(copy, '$schema') && typeof copy.$schema !== 'string'
      ? ajv.validate(META_IDS[draft], copy)
      : ajv.validateSchema(copy)
  if (!metaValid) {
    // One problem per location of the schema (foldErrors); a type name with a slip says which.
    check.invalid = foldErrors(
      ((ajv.errors ?? []) as ErrorObject[]).map((e) => {
        const near =
          e.keyword === 'enum'
            ? enumNear(
                atPointer(schema, e.instancePath),
                (e.params as { allowedValues: unknown[] }).allowedValues,
              )
            : undefined
        const message = messageOf([{ ...e, instancePath: '' }])
        return {
          error: e,
          pointer: e.instancePath,
          message: near === undefined ? message : `${message}; did you mean "${near}"?`,
        }
      }),
    )
    return check
  }
  const key = SCHEMA_KEY
  let checker = ajv
  // Whether addSchema took it: only then are its key and `$id` ours to remove (a refused `$id`
  // may be another schema's, the meta-schema's included).
  let added = false
  removeQuietly(ajv, key)
  try {
    ajv.addSchema(copy, key)
    added = true
    ajv.getSchema(key)
  } catch (e) {
    check.compileError = (e as Error).message
    if (added) removeQuietly(ajv, key, copy)
    // Strict mode refused it: still check the defaults, without strict mode.
    checker = await strictAjv(draft, true)
    added = false
    removeQuietly(checker, key)
    try {
      checker.addSchema(copy, key)
      added = true
      checker.getSchema(key)
    } catch {
      if (added) removeQuietly(checker, key, copy)
      return check
    }
  }
  try {
    eachSubschema(copy, (sub, pointer) => {
      const hasDefault = Object.hasOwn(sub, 'default')
      const examples = Array.isArray(sub.examples) ? (sub.examples as unknown[]) : []
      if (!hasDefault && examples.length === 0) return
      // A subschema of core keywords only: simple.ts decides its defaults as ajv would.
      if (simpleSubschemaValid(sub, draft)) return
      // A regular expression cannot be stopped on this thread: one that may backtrack for ever
      // (schema/redos-pattern reports it) is not run over the defaults and examples.
      if (!everyPattern(sub, patternSafeToRun)) return
      let v: ValidateFunction | undefined
      try {
        v = checker.getSchema(`${key}#${fragment(pointer)}`)
      } catch {
        v = undefined
      }
      if (!v) return
      if (hasDefault && !v(sub.default)) {
        check.defaults.push({ pointer: `${pointer}/default`, message: messageOf(v.errors) })
      }
      examples.forEach((x, i) => {
        if (!v(x)) check.defaults.push({ pointer: `${pointer}/examples/${i}`, message: messageOf(v.errors) })
      })
    })
  } finally {
    removeQuietly(checker, key, copy)
  }
  return check
}

/** Forgets a schema added under `key`, and under its own `$id` (else the next schema with that id collides). */
function removeQuietly(ajv: AnyAjv, key: string, schema?: unknown): void {
  try {
    ajv.removeSchema(key)
    if (schema !== undefined) ajv.removeSchema(schema)
  } catch {}
}
