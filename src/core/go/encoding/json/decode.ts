/**
 * Go's json.Unmarshal (decode.go, Go 1.25) into a flat struct whose fields are
 * string, int, []string or json.RawMessage: the same values left in the
 * struct, the same error, plus a record of every top-level key for linting.
 *
 * Like Go, the whole input is syntax-checked first (checkValid); decoding then
 * walks the known-valid bytes directly instead of re-running the scanner, and
 * reproduces Go's type errors, their order (the first one wins, decoding goes
 * on) and their offsets (Go's d.readIndex() / d.off at the point of error).
 *
 * Go 1.19's decoder differs from 1.25's in key folding (foldName since 1.21)
 * and slice growth (Value.Grow); for ASCII tags and these field kinds the
 * results are the same (see foldName and array).
 */
import type { GoError } from '../../errors.js'
import type { GoString } from '../../gostring.js'
import { decodeRune, encodeRune, RUNE_ERROR } from '../../unicode/utf8.js'
import { decodeRune as decodeRune16, isSurrogate } from '../../unicode/utf16.js'
import { checkValid } from './scanner.js'

export type FieldKind = 'string' | 'int' | 'stringSlice' | 'rawMessage'

export interface FieldSpec {
  /** The JSON key from the field's tag, e.g. 'env_allow'. Must be ASCII. */
  tag: string
  kind: FieldKind
}

export interface StructSpec {
  /** The type as reflect prints it, e.g. 'skill.SkillManifest'. */
  goType: string
  /** The bare struct name, e.g. 'SkillManifest'. */
  structName: string
  /** In declaration order (it decides case-insensitive ties, as in Go); tags distinct. */
  fields: FieldSpec[]
}

/**
 * The spec of a Go struct whose fields are given in declaration order as [json tag, kind]: its
 * bare name is the type's after the package (none for an anonymous `struct { … }`).
 */
export function structSpec(goType: string, fields: readonly (readonly [string, FieldKind])[]): StructSpec {
  return {
    goType,
    structName: goType.startsWith('struct ') ? '' : goType.slice(goType.lastIndexOf('.') + 1),
    fields: fields.map(([tag, kind]) => ({ tag, kind })),
  }
}

/** string → GoString, int → bigint, []string → GoString[] or null (nil), json.RawMessage → GoString or null (nil). */
export type FieldValue = GoString | bigint | GoString[] | null

export interface KeyEvent {
  /** The decoded key bytes. */
  key: GoString
  /** Byte offset of the key's opening quote. */
  offset: number
  /** Byte offset of the value's first byte. */
  valueOffset: number
  /** Byte offset just past the value's last byte. */
  valueEnd: number
  /** The tag of the field the key set, or null for an unknown key. */
  field: string | null
  /** Whether the key matched the tag byte for byte rather than by case folding. */
  exact: boolean
}

/** json.UnmarshalTypeError: a JSON value not appropriate for a Go type. */
export class UnmarshalTypeError implements GoError {
  constructor(
    /** Description of the JSON value: "bool", "array", "number -5", ... */
    readonly value: string,
    /** The Go type it could not be assigned to, e.g. "[]string". */
    readonly type: string,
    /** Go's Offset: bytes read when the error occurred. */
    readonly offset: number,
    /** Name of the struct type containing the field ("" at top level). */
    readonly struct: string,
    /** The field's JSON name ("" at top level). */
    readonly field: string,
  ) {}

  error(): GoString {
    if (this.struct !== '' || this.field !== '') {
      return `json: cannot unmarshal ${this.value} into Go struct field ${this.struct}.${this.field} of type ${this.type}`
    }
    return `json: cannot unmarshal ${this.value} into Go value of type ${this.type}`
  }
}

export interface DecodeResult {
  /** Field values by tag, Go zero values where nothing was stored. */
  values: Record<string, FieldValue>
  /** A SyntaxError, the first UnmarshalTypeError, or null. */
  err: GoError | null
  /** Every top-level key in document order (none on a syntax error). */
  keys: KeyEvent[]
}

/**
 * json.Unmarshal(data, &v) for a fresh (zero) v of the struct described by spec,
 * as built by default (without GOEXPERIMENT=jsonv2) on a 64-bit platform.
 */
export function unmarshal(data: GoString, spec: StructSpec): DecodeResult {
  const fields = compile(spec)
  const values: Record<string, FieldValue> = {}
  for (const f of spec.fields) values[f.tag] = zeroValue(f.kind)
  const keys: KeyEvent[] = []
  const err = checkValid(data)
  if (err !== null) return { values, err, keys }
  const d = new DecodeState(data, spec, fields, values, keys)
  d.unmarshal()
  return { values, err: d.savedError, keys }
}

function zeroValue(kind: FieldKind): FieldValue {
  switch (kind) {
    case 'string':
      return ''
    case 'int':
      return 0n
    default:
      return null
  }
}

/** reflect's name for the field's Go type. */
function goTypeName(kind: FieldKind): string {
  switch (kind) {
    case 'string':
      return 'string'
    case 'int':
      return 'int'
    case 'stringSlice':
      return '[]string'
    case 'rawMessage':
      return 'json.RawMessage'
  }
}

interface CompiledFields {
  /** fields.byExactName: tag → field index. */
  byExactName: Map<string, number>
  /** fields.byFoldedName: foldName(tag) → first field index with that fold. */
  byFoldedName: Map<string, number>
}

const compiledSpecs = new WeakMap<StructSpec, CompiledFields>()

function compile(spec: StructSpec): CompiledFields {
  let c = compiledSpecs.get(spec)
  if (c !== undefined) return c
  c = { byExactName: new Map(), byFoldedName: new Map() }
  spec.fields.forEach((f, i) => {
    if (!/^[\x00-\x7f]*$/.test(f.tag)) {
      throw new Error(`json: field tag ${JSON.stringify(f.tag)} is not ASCII`)
    }
    c.byExactName.set(f.tag, i)
    // For historical reasons, first folded match takes precedence.
    const folded = foldName(f.tag)
    if (folded !== null && !c.byFoldedName.has(folded)) c.byFoldedName.set(folded, i)
  })
  compiledSpecs.set(spec, c)
  return c
}

/**
 * Go 1.21+'s foldName (fold.go), restricted to results that can equal a folded
 * ASCII tag: ASCII letters are upper-cased; any other rune folds to the smallest
 * rune of its unicode.SimpleFold orbit, which is ASCII only for U+017F (ſ → S)
 * and U+212A (Kelvin sign → K). For a key with any other non-ASCII rune this
 * returns null (it cannot match an ASCII tag).
 */
function foldName(key: GoString): string | null {
  let out = ''
  let start = 0
  for (let i = 0; i < key.length; ) {
    const c = key.charCodeAt(i)
    if (c < 0x80) {
      if (c >= 0x61 && c <= 0x7a) {
        out += key.slice(start, i) + String.fromCharCode(c - 0x20)
        start = i + 1
      }
      i++
      continue
    }
    const [r, size] = decodeRune(key, i)
    let folded: string
    if (r === 0x17f) folded = 'S'
    else if (r === 0x212a) folded = 'K'
    else return null
    out += key.slice(start, i) + folded
    i += size
    start = i
  }
  return out + key.slice(start)
}

/** The []string's backing array, modelled because Go reuses it across repeated keys. */
interface SliceState {
  /** Last value written at each index ('' where never written). */
  backing: GoString[]
  len: number
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d
}

class DecodeState {
  savedError: UnmarshalTypeError | null = null
  /** The state of each stringSlice field (null = nil slice), by field index. */
  private readonly slices: (SliceState | null)[]
  /** No backslash anywhere: a string (valid, so free of control bytes) ends at the next `"`. */
  private readonly noEscapes: boolean

  constructor(
    private readonly data: GoString,
    private readonly spec: StructSpec,
    private readonly fields: CompiledFields,
    private readonly values: Record<string, FieldValue>,
    private readonly keys: KeyEvent[],
  ) {
    this.slices = spec.fields.map(() => null)
    this.noEscapes = data.indexOf('\\') === -1
  }

  unmarshal(): void {
    const i = this.skipSpace(0)
    switch (this.data.charCodeAt(i)) {
      case 0x7b: // {
        this.object(i)
        break
      case 0x6e: // null into a struct: no effect
        break
      default:
        this.mismatch(i, this.spec.goType, null)
    }
    this.spec.fields.forEach((f, fi) => {
      if (f.kind !== 'stringSlice') return
      const st = this.slices[fi]
      this.values[f.tag] = st === null ? null : Array.from({ length: st.len }, (_, k) => st.backing[k] ?? '')
    })
  }

  /** saveError: keeps the first error only, with the field context when inside one. */
  private saveError(value: string, type: string, offset: number, field: string | null): void {
    if (this.savedError !== null) return
    this.savedError =
      field === null
        ? new UnmarshalTypeError(value, type, offset, '', '')
        : new UnmarshalTypeError(value, type, offset, this.spec.structName, field)
  }

  private skipSpace(i: number): number {
    const data = this.data
    while (i < data.length && isSpace(data.charCodeAt(i))) i++
    return i
  }

  /** rescanLiteral: the end of the literal (string, number, true, false, null) starting at i. */
  private literalEnd(i: number): number {
    const data = this.data
    const c = data.charCodeAt(i)
    switch (c) {
      case 0x22: // string
        if (this.noEscapes) return data.indexOf('"', i + 1) + 1
        for (let j = i + 1; ; j++) {
          const b = data.charCodeAt(j)
          if (b === 0x5c) {
            j++ // escaped char
          } else if (b === 0x22) {
            return j + 1
          }
        }
      case 0x74: // true
        return i + 4
      case 0x66: // false
        return i + 5
      case 0x6e: // null
        return i + 4
    }
    let j = i + 1
    for (; j < data.length; j++) {
      const b = data.charCodeAt(j)
      const numeric =
        (b >= 0x30 && b <= 0x39) || b === 0x2e || b === 0x65 || b === 0x45 || b === 0x2b || b === 0x2d
      if (!numeric) break
    }
    return j
  }

  /** The end of the value starting at i (d.skip for arrays and objects). */
  private valueEnd(i: number): number {
    const data = this.data
    const c = data.charCodeAt(i)
    if (c !== 0x7b && c !== 0x5b) return this.literalEnd(i)
    let depth = 0
    for (let j = i; ; j++) {
      const b = data.charCodeAt(j)
      if (b === 0x22) {
        j = this.literalEnd(j) - 1
      } else if (b === 0x7b || b === 0x5b) {
        depth++
      } else if (b === 0x7d || b === 0x5d) {
        depth--
        if (depth === 0) return j + 1
      }
    }
  }

  /**
   * A value at i that the Go type cannot hold: records the type error Go
   * records (null has no effect on a string, int or struct) and returns its end.
   * Arrays and objects report d.off (just past the bracket); literals d.readIndex()
   * (just past the literal).
   */
  private mismatch(i: number, type: string, field: string | null): number {
    const c = this.data.charCodeAt(i)
    if (c === 0x5b || c === 0x7b) {
      this.saveError(c === 0x5b ? 'array' : 'object', type, i + 1, field)
      return this.valueEnd(i)
    }
    const end = this.literalEnd(i)
    if (c === 0x22) this.saveError('string', type, end, field)
    else if (c === 0x74 || c === 0x66) this.saveError('bool', type, end, field)
    else if (c !== 0x6e) this.saveError('number', type, end, field)
    return end
  }

  /** object: the top-level object, from its `{` at i. */
  private object(i: number): void {
    const data = this.data
    let j = this.skipSpace(i + 1)
    if (data.charCodeAt(j) === 0x7d) return
    for (;;) {
      // Read key.
      const keyStart = j
      const keyEnd = this.literalEnd(j)
      const key = unquote(data, keyStart, keyEnd)
      // Figure out field corresponding to key.
      let fi = this.fields.byExactName.get(key)
      const exact = fi !== undefined
      if (fi === undefined) {
        const folded = foldName(key)
        if (folded !== null) fi = this.fields.byFoldedName.get(folded)
      }
      // Read : before value.
      j = this.skipSpace(this.skipSpace(keyEnd) + 1)
      const valueStart = j
      const valueEnd = fi === undefined ? this.valueEnd(j) : this.field(fi, j)
      this.keys.push({
        key,
        offset: keyStart,
        valueOffset: valueStart,
        valueEnd,
        field: fi === undefined ? null : this.spec.fields[fi].tag,
        exact,
      })
      // Next token must be , or }.
      j = this.skipSpace(valueEnd)
      if (data.charCodeAt(j) !== 0x2c) return
      j = this.skipSpace(j + 1)
    }
  }

  /** Decodes the value at i into field fi; returns the value's end. */
  private field(fi: number, i: number): number {
    const data = this.data
    const f = this.spec.fields[fi]
    const c = data.charCodeAt(i)
    switch (f.kind) {
      case 'rawMessage': {
        // RawMessage.UnmarshalJSON copies the value's bytes, null included.
        const end = this.valueEnd(i)
        this.values[f.tag] = data.slice(i, end)
        return end
      }
      case 'string':
        if (c === 0x22) {
          const end = this.literalEnd(i)
          this.values[f.tag] = unquote(data, i, end)
          return end
        }
        break
      case 'int':
        if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
          const end = this.literalEnd(i)
          const lit = data.slice(i, end)
          const n = parseInt64(lit)
          if (n === null) this.saveError('number ' + lit, 'int', end, f.tag)
          else this.values[f.tag] = n
          return end
        }
        break
      case 'stringSlice':
        if (c === 0x5b) return this.array(fi, i)
        if (c === 0x6e) {
          // null sets a slice to nil.
          this.slices[fi] = null
          return i + 4
        }
        break
    }
    return this.mismatch(i, goTypeName(f.kind), f.tag)
  }

  /**
   * array: decodes the array at i into the []string field fi. As in Go, the
   * slice's elements are overwritten in place: a null element leaves what the
   * backing array held there (from an earlier key), and the length is set to the
   * element count; an empty array makes a new empty slice.
   *
   * Capacity is not modelled because it cannot be observed here: Go 1.25 grows
   * with reflect.Value.Grow (Go 1.19 with make+copy at 1.5×, min 4), but it only
   * grows when len == cap, and either way copies every element and zeroes the rest.
   */
  private array(fi: number, i: number): number {
    const data = this.data
    const tag = this.spec.fields[fi].tag
    let st = this.slices[fi]
    let n = 0
    let j = this.skipSpace(i + 1)
    if (data.charCodeAt(j) !== 0x5d) {
      for (;;) {
        // Growing a nil slice allocates a fresh (zeroed) backing array; growing a
        // non-nil one copies it, so the last value written at each index survives.
        if (st === null) {
          st = { backing: [], len: 0 }
          this.slices[fi] = st
        }
        if (n >= st.len) st.len = n + 1
        let end: number
        if (data.charCodeAt(j) === 0x22) {
          end = this.literalEnd(j)
          st.backing[n] = unquote(data, j, end)
        } else {
          end = this.mismatch(j, 'string', tag)
        }
        n++
        // Next token must be , or ].
        j = this.skipSpace(end)
        if (data.charCodeAt(j) !== 0x2c) break
        j = this.skipSpace(j + 1)
      }
    }
    if (st !== null && n < st.len) st.len = n
    if (n === 0) this.slices[fi] = { backing: [], len: 0 }
    return j + 1
  }
}

const INT64_MIN = -(2n ** 63n)
const INT64_MAX = 2n ** 63n - 1n

/** strconv.ParseInt(s, 10, 64) for a JSON number literal; null where Go errs. */
function parseInt64(s: string): bigint | null {
  if (!/^-?[0-9]+$/.test(s)) return null
  const n = BigInt(s)
  if (n < INT64_MIN || n > INT64_MAX) return null
  return n
}

const REPLACEMENT: GoString = '\xef\xbf\xbd'

/** getu4: the value of the \uXXXX escape at data[i:end], or -1. */
function getu4(data: GoString, i: number, end: number): number {
  if (i + 6 > end || data.charCodeAt(i) !== 0x5c || data.charCodeAt(i + 1) !== 0x75) return -1
  let r = 0
  for (let k = i + 2; k < i + 6; k++) {
    const c = data.charCodeAt(k)
    let v: number
    if (c >= 0x30 && c <= 0x39) v = c - 0x30
    else if (c >= 0x61 && c <= 0x66) v = c - 0x61 + 10
    else if (c >= 0x41 && c <= 0x46) v = c - 0x41 + 10
    else return -1
    r = r * 16 + v
  }
  return r
}

/**
 * unquoteBytes for the valid string literal data[start:end] (quotes included):
 * escapes decoded, surrogate pairs combined, an unpaired surrogate escape as
 * U+FFFD, each invalid UTF-8 byte as U+FFFD; valid UTF-8 copied as is.
 */
export function unquote(data: GoString, start: number, end: number): GoString {
  const e = end - 1
  // Check for unusual characters; if there are none, no unquoting is needed.
  let r = start + 1
  while (r < e) {
    const c = data.charCodeAt(r)
    if (c === 0x5c || c === 0x22 || c < 0x20) break
    if (c < 0x80) {
      r++
      continue
    }
    const [rr, size] = decodeRune(data, r, e)
    if (rr === RUNE_ERROR && size === 1) break
    r += size
  }
  if (r === e) return data.slice(start + 1, e)

  let out = ''
  let chunk = start + 1 // start of bytes still to copy verbatim
  while (r < e) {
    const c = data.charCodeAt(r)
    if (c === 0x5c) {
      out += data.slice(chunk, r)
      const esc = data.charCodeAt(r + 1)
      switch (esc) {
        case 0x22: // "
        case 0x5c: // \
        case 0x2f: // /
        case 0x27: // '
          out += String.fromCharCode(esc)
          r += 2
          break
        case 0x62: // b
          out += '\b'
          r += 2
          break
        case 0x66: // f
          out += '\f'
          r += 2
          break
        case 0x6e: // n
          out += '\n'
          r += 2
          break
        case 0x72: // r
          out += '\r'
          r += 2
          break
        case 0x74: // t
          out += '\t'
          r += 2
          break
        case 0x75: {
          // u
          let rr = getu4(data, r, e)
          if (rr < 0) throw new Error('JSON decoder out of sync - data changing underfoot?')
          r += 6
          if (isSurrogate(rr)) {
            const dec = decodeRune16(rr, getu4(data, r, e))
            if (dec !== RUNE_ERROR) {
              // A valid pair; consume.
              r += 6
              out += encodeRune(dec)
              break
            }
            // Invalid surrogate; fall back to replacement rune.
            rr = RUNE_ERROR
          }
          out += encodeRune(rr)
          break
        }
        default:
          throw new Error('JSON decoder out of sync - data changing underfoot?')
      }
      chunk = r
      continue
    }
    if (c < 0x80) {
      r++
      continue
    }
    // Coerce to well-formed UTF-8.
    const [rr, size] = decodeRune(data, r, e)
    if (rr === RUNE_ERROR && size === 1) {
      out += data.slice(chunk, r) + REPLACEMENT
      r++
      chunk = r
      continue
    }
    r += size
  }
  return out + data.slice(chunk, e)
}
