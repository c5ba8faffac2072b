/**
 * yaml.v3's resolve (resolve.go, v3.0.1): the tag a scalar gets, which decides what it may be
 * decoded into and what type errors print (`!!str`, `!!int`, …).
 */

export const NULL_TAG = '!!null'
export const BOOL_TAG = '!!bool'
export const STR_TAG = '!!str'
export const INT_TAG = '!!int'
export const FLOAT_TAG = '!!float'
export const TIMESTAMP_TAG = '!!timestamp'
export const SEQ_TAG = '!!seq'
export const MAP_TAG = '!!map'
export const BINARY_TAG = '!!binary'
export const MERGE_TAG = '!!merge'

const LONG_PREFIX = 'tag:yaml.org,2002:'

export function shortTag(tag: string): string {
  if (tag.startsWith(LONG_PREFIX)) return '!!' + tag.slice(LONG_PREFIX.length)
  return tag
}

export type Resolved =
  | { tag: typeof NULL_TAG; kind: 'null' }
  | { tag: typeof BOOL_TAG; kind: 'bool' }
  | { tag: typeof INT_TAG; kind: 'int'; value: bigint }
  | { tag: typeof FLOAT_TAG; kind: 'float'; value: number }
  | { tag: typeof TIMESTAMP_TAG; kind: 'timestamp' }
  | { tag: typeof MERGE_TAG; kind: 'merge' }
  | { tag: string; kind: 'str' }

const MAP: Record<string, Resolved> = {}
for (const s of ['true', 'True', 'TRUE', 'false', 'False', 'FALSE']) MAP[s] = { tag: BOOL_TAG, kind: 'bool' }
for (const s of ['', '~', 'null', 'Null', 'NULL']) MAP[s] = { tag: NULL_TAG, kind: 'null' }
for (const s of ['.nan', '.NaN', '.NAN']) MAP[s] = { tag: FLOAT_TAG, kind: 'float', value: Number.NaN }
for (const s of ['.inf', '.Inf', '.INF', '+.inf', '+.Inf', '+.INF']) {
  MAP[s] = { tag: FLOAT_TAG, kind: 'float', value: Number.POSITIVE_INFINITY }
}
for (const s of ['-.inf', '-.Inf', '-.INF'])
  MAP[s] = { tag: FLOAT_TAG, kind: 'float', value: Number.NEGATIVE_INFINITY }
MAP['<<'] = { tag: MERGE_TAG, kind: 'merge' }

const INT64_MIN = -(2n ** 63n)
const INT64_MAX = 2n ** 63n - 1n
const UINT64_MAX = 2n ** 64n - 1n

/** strconv.ParseInt(s, 0, 64) (with unsigned=true: ParseUint), for text without underscores. */
function parseGoInt(s: string, unsigned: boolean): bigint | null {
  let neg = false
  let t = s
  if (!unsigned && (t.startsWith('+') || t.startsWith('-'))) {
    neg = t[0] === '-'
    t = t.slice(1)
  }
  let digits: string
  let radix: number
  if (/^0[xX]/.test(t)) {
    radix = 16
    digits = t.slice(2)
  } else if (/^0[oO]/.test(t)) {
    radix = 8
    digits = t.slice(2)
  } else if (/^0[bB]/.test(t)) {
    radix = 2
    digits = t.slice(2)
  } else if (t.length > 1 && t[0] === '0') {
    radix = 8
    digits = t.slice(1)
  } else {
    radix = 10
    digits = t
  }
  const ok = { 2: /^[01]+$/, 8: /^[0-7]+$/, 10: /^[0-9]+$/, 16: /^[0-9a-fA-F]+$/ }[radix as 2 | 8 | 10 | 16]
  if (!ok.test(digits)) return null
  let n = 0n
  const r = BigInt(radix)
  for (const ch of digits) n = n * r + BigInt(Number.parseInt(ch, 16))
  if (neg) n = -n
  if (unsigned) return n <= UINT64_MAX ? n : null
  return n >= INT64_MIN && n <= INT64_MAX ? n : null
}

const YAML_STYLE_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/

/** strconv.ParseFloat(s, 64) for the decimal forms resolve hands it; null on syntax or range error. */
function parseGoFloat(s: string): number | null {
  if (!/^[-+]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][-+]?[0-9]+)?$/.test(s)) return null
  const f = Number(s)
  return Number.isFinite(f) ? f : null
}

const DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

/** yaml.v3's parseTimestamp (the layouts it tries with time.Parse), approximately: fields and ranges. */
function isTimestamp(s: string): boolean {
  const m =
    /^(\d{4})-(\d{1,2})-(\d{1,2})(?:(?:[Tt](\d{1,2}):(\d{1,2}):(\d{1,2})(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2}))|(?: (\d{1,2}):(\d{1,2}):(\d{1,2})(?:\.\d+)?))?$/.exec(
      s,
    )
  if (!m) return false
  const year = Number(m[1])
  const month = Number(m[2])
  const day = Number(m[3])
  if (month < 1 || month > 12 || day < 1) return false
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0
  if (day > (month === 2 && !leap ? 28 : DAYS[month - 1])) return false
  const h = Number(m[4] ?? m[7] ?? 0)
  const mi = Number(m[5] ?? m[8] ?? 0)
  const se = Number(m[6] ?? m[9] ?? 0)
  return h < 24 && mi < 60 && se < 60
}

export class ResolveError extends Error {}

/**
 * resolve(tag, in): `tag` is the node's explicit tag ('' when none). Throws ResolveError with
 * yaml.v3's text (`cannot decode !!str `x` as a !!int`) when an explicit tag does not fit.
 */
export function resolve(tag: string, input: string): Resolved {
  tag = shortTag(tag)
  const resolvable = ['', STR_TAG, BOOL_TAG, INT_TAG, FLOAT_TAG, NULL_TAG, TIMESTAMP_TAG].includes(tag)
  if (!resolvable) return { tag, kind: 'str' }
  const r = resolvePlain(tag, input)
  if (tag === '' || tag === r.tag || tag === STR_TAG || tag === BINARY_TAG) {
    return tag === STR_TAG ? { tag: STR_TAG, kind: 'str' } : r
  }
  if (tag === FLOAT_TAG && r.kind === 'int') return { tag: FLOAT_TAG, kind: 'float', value: Number(r.value) }
  throw new ResolveError(`cannot decode ${r.tag} \`${input}\` as a ${tag}`)
}

function resolvePlain(tag: string, input: string): Resolved {
  const c = input === '' ? '' : input[0]
  let hint = ''
  if (input === '') hint = 'N'
  else if (c === '+' || c === '-') hint = 'S'
  else if (c >= '0' && c <= '9') hint = 'D'
  else if ('yYnNtTfFoO~'.includes(c)) hint = 'M'
  else if (c === '.') hint = '.'
  if (hint === '' || tag === STR_TAG || tag === BINARY_TAG) return { tag: STR_TAG, kind: 'str' }
  const item = MAP[input]
  if (item) return item
  if (hint === '.') {
    const f = parseGoFloat(input)
    if (f !== null) return { tag: FLOAT_TAG, kind: 'float', value: f }
  } else if (hint === 'D' || hint === 'S') {
    if ((tag === '' || tag === TIMESTAMP_TAG) && isTimestamp(input))
      return { tag: TIMESTAMP_TAG, kind: 'timestamp' }
    const plain = input.replace(/_/g, '')
    const i = parseGoInt(plain, false)
    if (i !== null) return { tag: INT_TAG, kind: 'int', value: i }
    const u = parseGoInt(plain, true)
    if (u !== null) return { tag: INT_TAG, kind: 'int', value: u }
    if (YAML_STYLE_FLOAT.test(plain)) {
      const f = parseGoFloat(plain)
      if (f !== null) return { tag: FLOAT_TAG, kind: 'float', value: f }
    }
  }
  return { tag: STR_TAG, kind: 'str' }
}
