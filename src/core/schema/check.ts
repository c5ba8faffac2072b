import { toText } from '../go/gostring.js'
import { ajvCheck, type SchemaCheck, selectDraft } from './compile.js'
import type { GoAny } from './go-any.js'
import { provenValid } from './simple.js'

/** A Go `any` value as the JS value ajv sees (byte strings decoded as UTF-8). */
export function goToJs(v: GoAny): unknown {
  if (v === null || typeof v === 'boolean' || typeof v === 'number') return v
  if (typeof v === 'string') return toText(v)
  if (Array.isArray(v)) return v.map(goToJs)
  // fromEntries defines own properties, so a key such as "__proto__" stays a key.
  return Object.fromEntries([...v].map(([k, x]) => [toText(k), goToJs(x)]))
}

export type SchemaVerdict = SchemaCheck | { unsupported: string }

/**
 * The strict check of a parameters schema: a `$schema` we do not check → unsupported;
 * a schema the built-in checker proves valid → no ajv at all; else ajv decides.
 */
export async function checkSchema(schema: Record<string, unknown>): Promise<SchemaVerdict> {
  const sel = selectDraft(schema)
  if ('unsupported' in sel) return sel
  if (provenValid(schema, sel.draft)) {
    return {
      draft: sel.draft,
      invalid: [],
      compileError: null,
      defaults: [],
      via: 'builtin',
      unchecked: null,
    }
  }
  return ajvCheck(schema, sel.draft)
}
