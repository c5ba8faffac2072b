import { type GoString, toText } from '../go/gostring.js'
import { ajvCheck, type SchemaCheck, selectDraft } from './compile.js'
import type { GoAny } from './go-any.js'
import { provenValid } from './simple.js'

/** A Go `any` value as the JS value ajv sees (byte strings decoded as UTF-8). Iterative: any depth. */
export function goToJs(root: GoAny): unknown {
  const make = (v: GoAny): unknown =>
    v === null || typeof v === 'boolean' || typeof v === 'number'
      ? v
      : typeof v === 'string'
        ? toText(v)
        : Array.isArray(v)
          ? []
          : Object.create(Object.prototype)
  const top = make(root)
  const stack: { from: GoAny[] | [GoString, GoAny][]; into: unknown; next: number }[] = []
  const open = (v: GoAny, into: unknown) => {
    if (v instanceof Map) stack.push({ from: [...v], into, next: 0 })
    else if (Array.isArray(v)) stack.push({ from: v, into, next: 0 })
  }
  open(root, top)
  while (stack.length > 0) {
    const f = stack[stack.length - 1]
    if (f.next === f.from.length) {
      stack.pop()
      continue
    }
    const k = f.next++
    if (Array.isArray(f.into)) {
      const x = f.from[k] as GoAny
      const v = make(x)
      f.into.push(v)
      open(x, v)
    } else {
      const [key, x] = f.from[k] as [GoString, GoAny]
      const v = make(x)
      // defineProperty makes an own property, so a key such as "__proto__" stays a key.
      Object.defineProperty(f.into, toText(key), {
        value: v,
        enumerable: true,
        writable: true,
        configurable: true,
      })
      open(x, v)
    }
  }
  return top
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
