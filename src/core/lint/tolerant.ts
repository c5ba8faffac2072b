import { UnmarshalTypeError } from '../go/encoding/json/decode.js'
import {
  AFTER_ARRAY_ELEMENT,
  AFTER_OBJECT_PAIR,
  SyntaxError as JsonSyntaxError,
  Scanner,
  scanError,
  stateInString,
  UNEXPECTED_END,
} from '../go/encoding/json/scanner.js'
import { WrapError } from '../go/errors.js'
import type { GoString } from '../go/gostring.js'
import { type JNode, parseTree } from '../json-tree.js'
import { decodeManifest, MANIFEST_SPEC, type Manifest, type ParsedManifest } from '../loader/manifest.js'

/**
 * The tolerant read of a skill.json the manager refuses at its parse: what its author most
 * likely meant, so that lint can report every other finding in the same run. The manager's
 * verdict stays the manager-parse finding; what is read here is never the manager's view.
 *
 * A syntax error is repaired in place, guided by Go's own scanner (the error it stops at, and
 * what it was in the middle of): a comment or a byte order mark blanked, a trailing comma
 * blanked, a missing comma written over the space before the next value, single quotes made
 * double, unclosed strings, arrays and objects closed at the end. Every repair keeps each byte
 * of the file at its offset (replacements are one byte for one; closers are appended), so a
 * finding on the repaired text points at the same place in the file. A value of the wrong type
 * in one field is read as its author wrote it where that is plain (`"name": 12` as "12",
 * `"timeout_seconds": "30"` as 30); the other fields are Go's own decode.
 */

/** One thing the tolerant read took differently from the manager: where (byte offset), and what. */
export interface Repair {
  at: number
  what: string
}

export interface TolerantRead {
  parsed: ParsedManifest
  repairs: Repair[]
}

/** More repairs than this and the file is no longer read: it is not JSON with slips. */
const MAX_REPAIRS = 32
/** Larger files are not read tolerantly (each repair scans the file again; a skill.json is a few KiB). */
export const TOLERANT_MAX_BYTES = 256 * 1024

const isSpace = (c: string | undefined) => c === ' ' || c === '\t' || c === '\n' || c === '\r'

interface Stop {
  err: JsonSyntaxError
  /** The byte the scanner stopped at (the length, at the end). */
  at: number
  /** At the end: inside a string, and what is still open (innermost last: `]` or `}`). */
  inString: boolean
  open: string[]
}

/** Where Go's scanner stops on `data`, and in what state; null when it is valid JSON. */
function scanStop(data: string): Stop | null {
  const s = new Scanner()
  for (let i = 0; i < data.length; i++) {
    s.bytes = i + 1
    if (s.step(s, data.charCodeAt(i)) === scanError && s.err)
      return { err: s.err, at: i, inString: false, open: [] }
  }
  const inString = s.step === stateInString
  // parseState: 0 object key, 1 object value, 2 array value (scanner.ts).
  const open = s.parseState.map((p) => (p === 2 ? ']' : '}'))
  if (s.eof() === scanError && s.err) return { err: s.err, at: data.length, inString, open }
  return null
}

function blank(b: string[], from: number, to: number): void {
  for (let i = from; i < to; i++) if (b[i] !== '\n' && b[i] !== '\r') b[i] = ' '
}

/** Blanks every comment from `from` (where one starts) to the end, outside strings: one repair for them all. */
function blankComments(b: string[], from: number): void {
  let inString = false
  for (let i = from; i < b.length; i++) {
    const c = b[i]
    if (inString) {
      if (c === '\\') i++
      else if (c === '"' || c === '\n') inString = false
    } else if (c === '"') inString = true
    else if (c === '/' && b[i + 1] === '/') {
      let end = i
      while (end < b.length && b[end] !== '\n') end++
      blank(b, i, end)
      i = end
    } else if (c === '/' && b[i + 1] === '*') {
      let end = i + 2
      while (end < b.length && !(b[end] === '*' && b[end + 1] === '/')) end++
      end = Math.min(end + 2, b.length)
      blank(b, i, end)
      i = end - 1
    }
  }
}

/** One repair of the error Go's scanner stopped at, or null: no repair known for it. */
function repairOne(b: string[], stop: Stop): Repair | null {
  const i = stop.at
  const msg = stop.err.msg
  if (msg === UNEXPECTED_END) {
    if (stop.inString) {
      if (b[b.length - 1] === '\\') return null
      b.push('"')
      return { at: i, what: 'an unclosed string closed' }
    }
    const close = stop.open.at(-1)
    if (close === undefined) return null
    b.push(close)
    return { at: i, what: `an unclosed ${close === ']' ? 'array' : 'object'} closed` }
  }
  const c = b[i]
  if (i === 0 && b[0] === '\xef' && b[1] === '\xbb' && b[2] === '\xbf') {
    blank(b, 0, 3)
    return { at: 0, what: 'a byte order mark skipped' }
  }
  if (c === '/' && (b[i + 1] === '/' || b[i + 1] === '*')) {
    blankComments(b, i)
    return { at: i, what: 'comments skipped' }
  }
  if (c === '}' || c === ']') {
    let j = i - 1
    while (j >= 0 && isSpace(b[j])) j--
    if (b[j] === ',') {
      b[j] = ' '
      return { at: j, what: 'a trailing comma skipped' }
    }
    return null
  }
  if (msg.endsWith(AFTER_OBJECT_PAIR) || msg.endsWith(AFTER_ARRAY_ELEMENT)) {
    if (!/["\-0-9{[tfn]/.test(c ?? '')) return null
    // The comma goes over a space between the two values, a newline only when there is no other.
    let j = i - 1
    let at = -1
    for (; j >= 0 && isSpace(b[j]); j--) if (at < 0 || b[at] === '\n' || b[at] === '\r') at = j
    if (at < 0) return null
    b[at] = ','
    return { at, what: 'a missing comma read' }
  }
  if (c === "'" && msg.includes('looking for beginning of')) {
    let end = i + 1
    while (end < b.length && b[end] !== "'" && b[end] !== '"' && b[end] !== '\\' && b[end] !== '\n') end++
    if (b[end] !== "'") return null
    b[i] = '"'
    b[end] = '"'
    return { at: i, what: 'a single-quoted string read' }
  }
  return null
}

/** `data` with its syntax errors repaired in place (see above), or null when one has no known repair. */
export function repairJson(data: GoString): { text: GoString; repairs: Repair[] } | null {
  if (data.length > TOLERANT_MAX_BYTES) return null
  const b = data.split('')
  const repairs: Repair[] = []
  for (;;) {
    const text = b.join('')
    const stop = scanStop(text)
    if (stop === null) return { text, repairs }
    if (repairs.length >= MAX_REPAIRS) return null
    const r = repairOne(b, stop)
    if (r === null) return null
    repairs.push(r)
  }
}

const FIELD: Record<string, keyof Manifest> = {
  name: 'name',
  description: 'description',
  schema: 'schema',
  entry: 'entry',
  env_allow: 'envAllow',
  timeout_seconds: 'timeoutSeconds',
  class: 'class',
  category: 'category',
}

const INT64 = 2n ** 63n

/**
 * A field's value read tolerantly: undefined when Go decodes it as it is, null when there is no
 * plain reading of it (an object where a string goes), else the value and what was read.
 */
function fieldValue(
  kind: string,
  node: JNode,
  text: string,
): { value: Manifest[keyof Manifest]; what: string } | null | undefined {
  const src = text.slice(node.start, node.end)
  const intOf = (digits: string) => {
    if (!/^-?(0|[1-9][0-9]*)$/.test(digits)) return null
    const n = BigInt(digits)
    return n < INT64 && n >= -INT64 ? n : null
  }
  switch (kind) {
    case 'string':
      if (node.kind === 'string' || node.kind === 'null') return undefined
      if (node.kind === 'number') return { value: src, what: 'a number read as a string' }
      if (node.kind === 'true' || node.kind === 'false')
        return { value: src, what: `${src} read as a string` }
      return null
    case 'int': {
      if (node.kind === 'number' && intOf(src) !== null) return undefined
      if (node.kind === 'null') return undefined
      const n = node.kind === 'string' ? intOf(node.value) : null
      return n === null ? null : { value: n, what: 'a string of digits read as a number' }
    }
    case 'stringSlice':
      if (node.kind === 'null') return undefined
      if (node.kind === 'string') return { value: [node.value], what: 'a string read as a list of one' }
      if (node.kind === 'array' && node.items.every((x) => x.kind === 'string')) return undefined
      return null
    default:
      return undefined
  }
}

/**
 * The tolerant read of a manifest the manager refuses to decode (`parsed.err` a syntax or type
 * error), or null: the file was not read, or is not one a tolerant read can make sense of (not
 * an object, a syntax error with no known repair, a field whose value has no plain reading).
 */
export function tolerantRead(parsed: ParsedManifest): TolerantRead | null {
  if (parsed.err === null || parsed.raw === null || parsed.raw.length > TOLERANT_MAX_BYTES) return null
  const inner = parsed.err instanceof WrapError ? parsed.err.err : parsed.err
  let text = parsed.raw
  const repairs: Repair[] = []
  if (inner instanceof JsonSyntaxError) {
    const r = repairJson(parsed.raw)
    if (r === null) return null
    text = r.text
    repairs.push(...r.repairs)
  } else if (!(inner instanceof UnmarshalTypeError)) return null
  const p = decodeManifest(text)
  if (p.err !== null) {
    const e = p.err instanceof WrapError ? p.err.err : p.err
    if (!(e instanceof UnmarshalTypeError) || e.field === '') return null
    // Go reports the first type error only, and keeps decoding: each field's last value is looked at.
    let root: JNode
    try {
      root = parseTree(text)
    } catch {
      return null
    }
    if (root.kind !== 'object') return null
    const manifest = { ...p.manifest } as Record<keyof Manifest, unknown>
    for (const f of MANIFEST_SPEC.fields) {
      const key = p.keys.findLast((k) => k.field === f.tag)
      if (!key) continue
      const m = root.members.findLast((x) => x.keyStart === key.offset)
      if (!m) return null
      const v = fieldValue(f.kind, m.value, text)
      if (v === undefined) continue
      if (v === null) return null
      manifest[FIELD[f.tag]] = v.value
      repairs.push({ at: key.offset, what: `${f.tag}: ${v.what}` })
    }
    return { parsed: { ...p, manifest: manifest as unknown as Manifest, err: null }, repairs }
  }
  return { parsed: p, repairs }
}
