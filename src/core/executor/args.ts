import { UserError } from '../errors.js'
import { valid } from '../go/encoding/json/scanner.js'
import { fromText, type GoString, toText, trimSpace } from '../go/gostring.js'
import { stringify } from '../json-text.js'

/** Why args could not be assembled: a usage error. */
export class ArgsError extends UserError {}

/** The JSON type(s) a schema gives one top-level property, if any. */
function propertyTypes(schema: unknown, key: string): string[] {
  if (!schema || typeof schema !== 'object') return []
  const props = (schema as { properties?: Record<string, unknown> }).properties
  // Own properties only: `constructor` or `__proto__` are param names, not Object.prototype's.
  const prop = props && typeof props === 'object' && Object.hasOwn(props, key) ? props[key] : undefined
  if (!prop || typeof prop !== 'object') return []
  const t = (prop as { type?: unknown }).type
  if (typeof t === 'string') return [t]
  if (Array.isArray(t)) return t.filter((x): x is string => typeof x === 'string')
  return []
}

/**
 * Types `key=value` by the schema: when the property's type includes integer, number,
 * boolean, null, array or object, a value that parses as JSON of that type is taken as such
 * (`n=3`, `tags=["a"]`); otherwise it stays a string when strings are allowed (or the schema
 * does not type the key), and is an error when they are not.
 */
export function typedArg(assignment: string, schema: unknown): [string, unknown] {
  const eq = assignment.indexOf('=')
  if (eq <= 0) throw new ArgsError(`--arg ${JSON.stringify(assignment)}: expected key=value`)
  const key = assignment.slice(0, eq)
  const raw = assignment.slice(eq + 1)
  const types = propertyTypes(schema, key)
  const nonString = types.filter((t) => t !== 'string')
  if (nonString.length > 0) {
    try {
      const parsed: unknown = JSON.parse(raw)
      if (nonString.some((t) => fits(parsed, t))) return [key, parsed]
    } catch {}
    if (!types.includes('string')) {
      throw new ArgsError(`--arg ${key}: ${JSON.stringify(raw)} is not a valid ${types.join(' or ')}`)
    }
  }
  return [key, raw]
}

function fits(v: unknown, t: string): boolean {
  switch (t) {
    case 'integer':
      return typeof v === 'number' && Number.isInteger(v)
    case 'number':
      return typeof v === 'number'
    case 'boolean':
      return typeof v === 'boolean'
    case 'null':
      return v === null
    case 'array':
      return Array.isArray(v)
    case 'object':
      return v !== null && typeof v === 'object' && !Array.isArray(v)
    case 'string':
      return typeof v === 'string'
    default:
      return false
  }
}

export interface ArgsInput {
  /** --args or --args-file contents, as bytes. */
  json?: GoString
  /** --arg key=value, in order. */
  assignments: string[]
  /** The skill's schema, parsed (undefined when absent or not JSON). */
  schema: unknown
}

/**
 * The params bytes to send. Without any input: '' (the manager's empty args, sent as `{}`).
 * --args/--args-file bytes are sent verbatim; --arg assignments are merged into that object
 * (or into `{}`) and the result re-serialized.
 */
export function assembleArgs(input: ArgsInput): GoString {
  if (input.assignments.length === 0) return input.json ?? ''
  let base: Record<string, unknown> = {}
  // Blank as the executor judges params (bytes.TrimSpace): then it sends {}, and --arg starts from it.
  if (input.json !== undefined && trimSpace(input.json) !== '') {
    if (!valid(input.json)) throw new ArgsError('--args is not valid JSON, so --arg cannot be merged into it')
    const v = JSON.parse(toText(input.json))
    if (v === null || typeof v !== 'object' || Array.isArray(v)) {
      throw new ArgsError('--arg needs --args to be a JSON object')
    }
    base = v
  }
  for (const a of input.assignments) {
    const [k, v] = typedArg(a, input.schema)
    // Defined, not assigned: `__proto__=x` is a key like any other (assigning it would set the
    // object's prototype and send `{}`), as it is to the manager.
    Object.defineProperty(base, k, { value: v, enumerable: true, writable: true, configurable: true })
  }
  return fromText(stringify(base))
}
