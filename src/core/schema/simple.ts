/**
 * A proof of validity that needs no ajv: importing ajv costs more than starting node, so a
 * one-pack `validate` cannot afford it for the schemas almost every pack has. This accepts a
 * schema only when it uses nothing but the core keywords below, with well-formed values, and
 * when every `default` / `examples` item satisfies its subschema; then ajv (meta-schema
 * validation + strict compile + the same default checks) is known to accept it too — the
 * differential test in test/core/schema/simple.test.ts runs both on generated schemas.
 *
 * Anything else (another keyword, a `$ref`, a `format` next to a default, a failing default,
 * an odd value) answers `false`, and the caller asks ajv, whose messages are the ones shown.
 */
import type { Draft } from './compile.js'
import { isLinearPattern } from './linear-pattern.js'

const SIMPLE_TYPES = new Set(['array', 'boolean', 'integer', 'null', 'number', 'object', 'string'])

/** ajv-formats' full set: formats ajv's strict mode knows. */
export const KNOWN_FORMATS = new Set([
  'date',
  'time',
  'date-time',
  'iso-time',
  'iso-date-time',
  'duration',
  'uri',
  'uri-reference',
  'uri-template',
  'url',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'regex',
  'uuid',
  'json-pointer',
  'json-pointer-uri-fragment',
  'relative-json-pointer',
  'byte',
  'int32',
  'int64',
  'float',
  'double',
  'password',
  'binary',
])

type Obj = Record<string, unknown>

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

function nonNegInt(v: unknown): boolean {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0
}

/** ajv-formats' `regex` format (used by the meta-schemas for `pattern`) and ajv's own `u` compile. */
function goodPattern(p: unknown): boolean {
  if (typeof p !== 'string') return false
  if (/[^\\]\\Z/.test(p)) return false
  try {
    new RegExp(p)
    new RegExp(p, 'u')
    return true
  } catch {
    return false
  }
}

function allUniqueStrings(a: unknown[]): boolean {
  return a.every((x) => typeof x === 'string') && new Set(a).size === a.length
}

/** Whether the subschema at hand is one this module can vouch for (recursively). */
function simpleSchema(s: unknown, draft: Draft, depth: number): boolean {
  if (typeof s === 'boolean') return true
  if (!isObj(s) || depth > 64) return false
  for (const [k, v] of Object.entries(s)) {
    switch (k) {
      case '$schema':
        if (depth !== 0 || typeof v !== 'string') return false
        break
      case '$comment':
      case 'title':
      case 'description':
        if (typeof v !== 'string') return false
        break
      case 'default':
      case 'const':
        break
      case 'examples':
        if (!Array.isArray(v)) return false
        break
      case 'type':
        if (typeof v === 'string') {
          if (!SIMPLE_TYPES.has(v)) return false
        } else if (Array.isArray(v)) {
          if (v.length === 0 || !allUniqueStrings(v) || !v.every((t) => SIMPLE_TYPES.has(t as string)))
            return false
        } else return false
        break
      case 'enum':
        // Non-empty (ajv's compiler) and without duplicates (draft-07's meta-schema).
        if (!Array.isArray(v) || v.length === 0) return false
        for (let i = 0; i < v.length; i++) for (let j = 0; j < i; j++) if (jsonEqual(v[i], v[j])) return false
        break
      case 'properties':
        if (!isObj(v)) return false
        for (const sub of Object.values(v)) if (!simpleSchema(sub, draft, depth + 1)) return false
        break
      case 'additionalProperties':
      case 'items':
        if (!simpleSchema(v, draft, depth + 1)) return false
        break
      case 'required':
        if (!Array.isArray(v) || !allUniqueStrings(v)) return false
        break
      case 'minimum':
      case 'maximum':
      case 'exclusiveMinimum':
      case 'exclusiveMaximum':
        if (typeof v !== 'number') return false
        break
      case 'multipleOf':
        if (typeof v !== 'number' || !(v > 0)) return false
        break
      case 'minLength':
      case 'maxLength':
      case 'minItems':
      case 'maxItems':
      case 'minProperties':
      case 'maxProperties':
        if (!nonNegInt(v)) return false
        break
      case 'uniqueItems':
      case 'readOnly':
      case 'writeOnly':
        if (typeof v !== 'boolean') return false
        break
      case 'deprecated':
        if (draft !== '2020-12' || typeof v !== 'boolean') return false
        break
      case 'pattern':
        if (!goodPattern(v)) return false
        break
      case 'format':
        if (typeof v !== 'string' || !KNOWN_FORMATS.has(v)) return false
        break
      default:
        return false
    }
  }
  // Defaults and examples must satisfy this subschema.
  if (Object.hasOwn(s, 'default') && instanceValid(s, s.default) !== true) return false
  if (Array.isArray(s.examples) && !s.examples.every((x) => instanceValid(s, x) === true)) return false
  return true
}

/** JSON Schema's equality (what ajv's fast-deep-equal answers for JSON values). Iterative: any depth. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  const pairs: [unknown, unknown][] = [[a, b]]
  for (let top = pairs.pop(); top !== undefined; top = pairs.pop()) {
    const [x, y] = top
    if (x === y) continue
    if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null) return false
    if (Array.isArray(x) !== Array.isArray(y)) return false
    if (Array.isArray(x)) {
      const yy = y as unknown[]
      if (x.length !== yy.length) return false
      for (let i = 0; i < x.length; i++) pairs.push([x[i], yy[i]])
      continue
    }
    const kx = Object.keys(x as Obj)
    if (kx.length !== Object.keys(y as Obj).length) return false
    for (const k of kx) {
      if (!Object.hasOwn(y as Obj, k)) return false
      pairs.push([(x as Obj)[k], (y as Obj)[k]])
    }
  }
  return true
}

function typeMatches(t: string, x: unknown): boolean {
  switch (t) {
    case 'integer':
      return typeof x === 'number' && Number.isInteger(x)
    case 'number':
      return typeof x === 'number' && Number.isFinite(x)
    case 'string':
      return typeof x === 'string'
    case 'boolean':
      return typeof x === 'boolean'
    case 'null':
      return x === null
    case 'array':
      return Array.isArray(x)
    case 'object':
      return isObj(x)
  }
  return false
}

/**
 * Whether x satisfies a schema made of the keywords above: true / false, or undefined when
 * this module does not decide (multipleOf on a number, any `format`).
 */
export function instanceValid(s: unknown, x: unknown): boolean | undefined {
  if (typeof s === 'boolean') return s
  if (!isObj(s)) return undefined
  if (s.type !== undefined) {
    const types = Array.isArray(s.type) ? (s.type as string[]) : [s.type as string]
    if (!types.some((t) => typeMatches(t, x))) return false
  }
  if (Array.isArray(s.enum) && !s.enum.some((e) => jsonEqual(e, x))) return false
  if (Object.hasOwn(s, 'const') && !jsonEqual(s.const, x)) return false
  let verdict: boolean | undefined = true
  const sub = (r: boolean | undefined) => {
    if (r === false) verdict = false
    else if (r === undefined && verdict === true) verdict = undefined
  }
  // ajv-formats validates strings and (int32, int64, float, double) numbers: not decided here.
  if (s.format !== undefined) sub(undefined)
  if (typeof x === 'number') {
    if (typeof s.minimum === 'number' && !(x >= s.minimum)) return false
    if (typeof s.maximum === 'number' && !(x <= s.maximum)) return false
    if (typeof s.exclusiveMinimum === 'number' && !(x > s.exclusiveMinimum)) return false
    if (typeof s.exclusiveMaximum === 'number' && !(x < s.exclusiveMaximum)) return false
    if (s.multipleOf !== undefined) sub(undefined)
  } else if (typeof x === 'string') {
    const len = [...x].length
    if (typeof s.minLength === 'number' && len < s.minLength) return false
    if (typeof s.maxLength === 'number' && len > s.maxLength) return false
    // Only a pattern proved linear runs here: another one may backtrack for ever (ajv decides).
    if (typeof s.pattern === 'string') {
      if (!isLinearPattern(s.pattern)) sub(undefined)
      else if (!new RegExp(s.pattern, 'u').test(x)) return false
    }
  } else if (Array.isArray(x)) {
    if (typeof s.minItems === 'number' && x.length < s.minItems) return false
    if (typeof s.maxItems === 'number' && x.length > s.maxItems) return false
    if (s.uniqueItems === true) {
      for (let i = 0; i < x.length; i++) for (let j = 0; j < i; j++) if (jsonEqual(x[i], x[j])) return false
    }
    if (s.items !== undefined) for (const item of x) sub(instanceValid(s.items, item))
  } else if (isObj(x)) {
    const keys = Object.keys(x)
    if (typeof s.minProperties === 'number' && keys.length < s.minProperties) return false
    if (typeof s.maxProperties === 'number' && keys.length > s.maxProperties) return false
    if (Array.isArray(s.required) && !s.required.every((k) => Object.hasOwn(x, k as string))) return false
    const props = isObj(s.properties) ? s.properties : {}
    for (const k of keys) {
      if (Object.hasOwn(props, k)) sub(instanceValid(props[k], x[k]))
      else if (s.additionalProperties !== undefined) sub(instanceValid(s.additionalProperties, x[k]))
    }
  }
  return verdict
}

/**
 * Whether `s` is a subschema made only of the keywords above, whose default and examples (and
 * those of its own subschemas) are valid: then ajv agrees, whatever the rest of the schema is.
 */
export function simpleSubschemaValid(s: unknown, draft: Draft): boolean {
  return simpleSchema(s, draft, 1)
}

/**
 * True when ajv in strict mode is known to accept this schema for `draft`, with every default
 * and example valid; false means "ask ajv" (not "invalid").
 */
export function provenValid(schema: unknown, draft: Draft): boolean {
  return isObj(schema) && simpleSchema(schema, draft, 0)
}
