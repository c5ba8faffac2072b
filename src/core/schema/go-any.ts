/**
 * The two encoding/json calls the manager's LLM bridge makes on a manifest's `schema`
 * (Go 1.25): json.Unmarshal into map[string]any, and json.Marshal of the result.
 *
 * Values are modelled as Go holds them after decoding into `any`: nil → null, bool → boolean,
 * float64 → number, string → byte string, []any → array, map[string]any → Map (keys are byte
 * strings; a nil map is `null` at the top level only).
 */

import { UnmarshalTypeError } from '../go/encoding/json/decode.js'
import { appendJSONString } from '../go/encoding/json/encode.js'
import { ErrorString, type GoError } from '../go/errors.js'
import type { GoString } from '../go/gostring.js'
import { type JArray, type JNode, parseTree, TooDeepError } from '../json-tree.js'

export type GoAny = null | boolean | number | GoString | GoAny[] | GoMap
export type GoMap = Map<GoString, GoAny>

export type BridgeDecode =
  | { ok: true; value: GoMap | null; tree: JNode }
  | {
      ok: false
      /** `not-object`: the schema is a string, number, array or bool; `number-range`: a number float64 cannot hold. */
      kind: 'not-object' | 'number-range'
      err: GoError
      /** File offset of the value at fault. */
      at: number
      /** The schema's tree (valid JSON, only not decodable into map[string]any); null when too deep to parse. */
      tree: JNode | null
    }

const MAP_TYPE = 'map[string]interface {}'

/**
 * json.Unmarshal(raw, &base) with `var base map[string]any`, for raw bytes that Go's scanner
 * already accepted: the manifest `file` with its `schema` value (a json.RawMessage) at
 * `start`, so tree offsets are file offsets. Any depth Go's scanner accepts (10000 levels).
 */
export function decodeBridgeSchema(file: GoString, start: number): BridgeDecode {
  // The kind of the top-level value decides first (no need to parse a deep array to refuse it).
  let at = start
  while (at < file.length && ' \t\r\n'.includes(file[at])) at++
  const c = file[at]
  if (c !== '{' && c !== 'n') {
    const kind = c === '"' ? 'string' : c === '[' ? 'array' : c === 't' || c === 'f' ? 'bool' : 'number'
    let tree: JNode | null = null
    try {
      tree = parseTree(file, at)
    } catch (e) {
      if (!(e instanceof TooDeepError)) throw e
    }
    return {
      ok: false,
      kind: 'not-object',
      // Offset is not part of the text; `at` is where the value starts.
      err: new UnmarshalTypeError(kind, MAP_TYPE, at, '', ''),
      at,
      tree,
    }
  }
  const tree = parseTree(file, start)
  switch (tree.kind) {
    case 'null':
      return { ok: true, value: null, tree }
    case 'object': {
      const bad: { raw: string; at: number }[] = []
      const value = toGo(tree, bad) as GoMap
      if (bad.length > 0) {
        return {
          ok: false,
          kind: 'number-range',
          err: new ErrorString(`json: cannot unmarshal number ${bad[0].raw} into Go value of type float64`),
          at: bad[0].at,
          tree,
        }
      }
      return { ok: true, value, tree }
    }
    default:
      throw new Error('unreachable: the first byte said object or null')
  }
}

/**
 * A node as Go's decoder leaves it in an `any`; numbers out of float64's range are collected in
 * `bad` (in document order). Iterative: any depth the tree has.
 */
function toGo(root: JNode, bad: { raw: string; at: number }[]): GoAny {
  const scalar = (n: JNode): GoAny => {
    switch (n.kind) {
      case 'string':
        return n.value
      case 'number': {
        const f = Number(n.raw)
        if (!Number.isFinite(f)) {
          bad.push({ raw: n.raw, at: n.start })
          return 0
        }
        return f
      }
      case 'true':
        return true
      case 'false':
        return false
      default:
        return null
    }
  }
  const make = (n: JNode): GoAny => (n.kind === 'object' ? new Map() : n.kind === 'array' ? [] : scalar(n))
  const top = make(root)
  // Each container with the value made for it; its children are filled in document order.
  const stack: { node: JNode; into: GoAny; next: number }[] = [{ node: root, into: top, next: 0 }]
  while (stack.length > 0) {
    const f = stack[stack.length - 1]
    const n = f.node
    const kids = n.kind === 'object' ? n.members.length : n.kind === 'array' ? n.items.length : 0
    if (f.next === kids) {
      stack.pop()
      continue
    }
    const k = f.next++
    const child = n.kind === 'object' ? n.members[k].value : (n as JArray).items[k]
    const v = make(child)
    // Duplicate keys: the last one wins (and keeps its first insertion slot, which does not matter: maps are sorted on output).
    if (n.kind === 'object') (f.into as GoMap).set(n.members[k].key, v)
    else (f.into as GoAny[]).push(v)
    if (child.kind === 'object' || child.kind === 'array') stack.push({ node: child, into: v, next: 0 })
  }
  return top
}

/** json.Marshal(v) (HTML escaping on), as a byte string; iterative: values of any depth. */
export function marshal(root: GoAny): GoString {
  const parts: GoString[] = []
  const stack: { items: GoAny[] | null; map: GoMap | null; keys: GoString[]; i: number }[] = []
  const emit = (v: GoAny) => {
    if (v === null) parts.push('null')
    else if (typeof v === 'boolean') parts.push(v ? 'true' : 'false')
    else if (typeof v === 'number') parts.push(formatFloat(v))
    else if (typeof v === 'string') parts.push(marshalString(v))
    else if (Array.isArray(v)) {
      parts.push('[')
      stack.push({ items: v, map: null, keys: [], i: 0 })
    } else {
      // Maps: keys sorted byte-wise (they are byte strings, so plain comparison is byte order).
      const keys = [...v.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
      parts.push('{')
      stack.push({ items: null, map: v, keys, i: 0 })
    }
  }
  emit(root)
  while (stack.length > 0) {
    const f = stack[stack.length - 1]
    const n = f.items !== null ? f.items.length : f.keys.length
    if (f.i === n) {
      parts.push(f.items !== null ? ']' : '}')
      stack.pop()
      continue
    }
    if (f.i > 0) parts.push(',')
    const i = f.i++
    if (f.items !== null) emit(f.items[i])
    else {
      parts.push(`${marshalString(f.keys[i])}:`)
      emit(f.map?.get(f.keys[i]) as GoAny)
    }
  }
  return parts.join('')
}

/**
 * encoding/json's floatEncoder for float64: strconv 'f' format with the shortest digits when
 * 1e-6 <= |f| < 1e21 (or f is 0), else 'e' format with `e-07` cleaned to `e-7`. JavaScript's
 * Number-to-String picks the same shortest digits and the same thresholds and writes the
 * exponent the same way (`1e+21`, `1e-7`); only negative zero differs (`-0` in Go).
 */
export function formatFloat(f: number): string {
  if (Object.is(f, -0)) return '-0'
  return String(f)
}

/** encoding/json's appendString as json.Marshal writes it (Go 1.25: HTML escaped, `\b` and `\f`). */
export function marshalString(s: GoString): GoString {
  return appendJSONString(s, true, true)
}

/**
 * json.Indent(dst, src, "", indent) for compact, valid JSON: only white space changes, so
 * strings and numbers keep their exact bytes. Empty objects and arrays stay `{}` / `[]`.
 */
export function indentJSON(src: GoString, indent = '  '): GoString {
  let out = ''
  let depth = 0
  let needIndent = false
  const newline = () => '\n' + indent.repeat(depth)
  for (let i = 0; i < src.length; i++) {
    const c = src[i]
    if (c === '"') {
      let j = i + 1
      while (src[j] !== '"') j += src[j] === '\\' ? 2 : 1
      if (needIndent) {
        out += newline()
        needIndent = false
      }
      out += src.slice(i, j + 1)
      i = j
      continue
    }
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') continue
    if (needIndent && c !== ']' && c !== '}') {
      out += newline()
      needIndent = false
    }
    if (c === '{' || c === '[') {
      out += c
      depth++
      needIndent = true
    } else if (c === '}' || c === ']') {
      depth--
      if (needIndent) needIndent = false
      else out += newline()
      out += c
    } else if (c === ',') {
      out += c + newline()
    } else if (c === ':') {
      out += ': '
    } else out += c
  }
  return out
}
