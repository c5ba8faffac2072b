/**
 * Go's time.Duration: an int64 count of nanoseconds, held here as a bigint
 * that callers keep within int64 range.
 */
import { ErrorString, fail, ok, type Result } from '../errors.js'
import type { GoBytes, GoString } from '../gostring.js'

export const NANOSECOND = 1n
export const MICROSECOND = 1_000n
export const MILLISECOND = 1_000_000n
export const SECOND = 1_000_000_000n
export const MINUTE = 60n * SECOND
export const HOUR = 60n * MINUTE

const TWO_63 = 1n << 63n

/** time.Duration(n) * time.Second, wrapping around in int64 as Go does on overflow. */
export function fromSeconds(n: bigint): bigint {
  return BigInt.asIntN(64, BigInt.asIntN(64, n) * SECOND)
}

/**
 * Go's fmtFrac: formats v/10**prec's fraction (".12345", trailing zeros and
 * a bare "." omitted) and returns it with the integer part v/10**prec.
 */
function fmtFrac(v: bigint, prec: number): [frac: string, int: bigint] {
  let digits = ''
  let print = false
  for (let i = 0; i < prec; i++) {
    const digit = v % 10n
    print ||= digit !== 0n
    if (print) digits = digit.toString() + digits
    v /= 10n
  }
  return [print ? '.' + digits : '', v]
}

/**
 * time.Duration.String for d nanoseconds: "0s", "1ns", "1.5µs", "500ms",
 * "1m30s", "-2h0m0s". The result is a byte string: µ (U+00B5) appears as its
 * UTF-8 bytes "\xc2\xb5", exactly as Go returns it.
 */
export function durationString(d: bigint): GoBytes {
  d = BigInt.asIntN(64, d)
  const neg = d < 0n
  const u = neg ? -d : d // 2^63 for math.MinInt64, as Go's uint64 negation gives
  let out: string
  if (u < SECOND) {
    // Smaller units, like 1.2ms.
    if (u === 0n) return '0s' as GoBytes
    let unit: string
    let prec: number
    if (u < MICROSECOND) {
      unit = 'ns'
      prec = 0
    } else if (u < MILLISECOND) {
      unit = '\xc2\xb5s' // U+00B5 'µ' micro sign, as UTF-8
      prec = 3
    } else {
      unit = 'ms'
      prec = 6
    }
    const [frac, int] = fmtFrac(u, prec)
    out = int.toString() + frac + unit
  } else {
    const [frac, secs] = fmtFrac(u, 9)
    out = (secs % 60n).toString() + frac + 's'
    const mins = secs / 60n
    if (mins > 0n) {
      out = (mins % 60n).toString() + 'm' + out
      // Hours are the largest unit: days vary in length.
      const hours = mins / 60n
      if (hours > 0n) out = hours.toString() + 'h' + out
    }
  }
  return (neg ? '-' + out : out) as GoBytes
}

const LOWERHEX = '0123456789abcdef'

/**
 * The time package's private quote (not strconv.Quote), used in its error
 * texts: '"' and '\\' are backslashed, and every byte of a rune that is
 * non-ASCII, invalid or below ' ' is written as \xHH; DEL stays raw.
 */
export function quote(s: GoString): GoString {
  let out = '"'
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c >= 0x80 || c < 0x20) out += '\\x' + LOWERHEX[c >> 4] + LOWERHEX[c & 0xf]
    else if (c === 0x22 || c === 0x5c) out += '\\' + s[i]
    else out += s[i]
  }
  return out + '"'
}

/** Go's leadingInt: the leading [0-9]* of s as a uint64, or null on overflow. */
function leadingInt(s: GoString, i: number): [x: bigint, next: number] | null {
  let x = 0n
  for (; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c < 0x30 || c > 0x39) break
    if (x > TWO_63 / 10n) return null
    x = x * 10n + BigInt(c - 0x30)
    if (x > TWO_63) return null
  }
  return [x, i]
}

/** Go's leadingFraction: like leadingInt, but on overflow it just stops accumulating precision. */
function leadingFraction(s: GoString, i: number): [x: bigint, scale: number, next: number] {
  let x = 0n
  let scale = 1
  let overflow = false
  for (; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c < 0x30 || c > 0x39) break
    if (overflow) continue
    if (x > (TWO_63 - 1n) / 10n) {
      overflow = true
      continue
    }
    const y = x * 10n + BigInt(c - 0x30)
    if (y > TWO_63) {
      overflow = true
      continue
    }
    x = y
    scale *= 10
  }
  return [x, scale, i]
}

// Keys are byte strings: "µs" is U+00B5 (micro sign), "μs" U+03BC (Greek mu).
const UNITS: ReadonlyMap<GoString, bigint> = new Map([
  ['ns', NANOSECOND],
  ['us', MICROSECOND],
  ['\xc2\xb5s', MICROSECOND],
  ['\xce\xbcs', MICROSECOND],
  ['ms', MILLISECOND],
  ['s', SECOND],
  ['m', MINUTE],
  ['h', HOUR],
])

/**
 * time.ParseDuration over a byte string: a possibly signed sequence of
 * decimal numbers, each with an optional fraction and a unit ("300ms",
 * "-1.5h", "2h45m"). Errors carry Go's exact texts.
 */
export function parseDuration(s: GoBytes): Result<bigint> {
  const invalid = () => fail<bigint>(new ErrorString('time: invalid duration ' + quote(s)))
  let i = 0
  let neg = false
  let d = 0n // uint64

  if (s.length > 0 && (s[0] === '-' || s[0] === '+')) {
    neg = s[0] === '-'
    i = 1
  }
  // Special case: "0" alone, signed or not, needs no unit.
  if (s.length - i === 1 && s[i] === '0') return ok(0n)
  if (i === s.length) return invalid()

  while (i < s.length) {
    // The next character must be [0-9.].
    const c0 = s.charCodeAt(i)
    if (!(c0 === 0x2e || (c0 >= 0x30 && c0 <= 0x39))) return invalid()

    const lead = leadingInt(s, i)
    if (lead === null) return invalid()
    let v = lead[0]
    const pre = lead[1] !== i // digits before a period?
    i = lead[1]

    let f = 0n
    let scale = 1
    let post = false
    if (i < s.length && s[i] === '.') {
      i++
      const start = i
      ;[f, scale, i] = leadingFraction(s, i)
      post = i !== start
    }
    if (!pre && !post) return invalid() // no digits, e.g. ".s" or "-.s"

    // The unit runs to the next [0-9.].
    const unitStart = i
    for (; i < s.length; i++) {
      const c = s.charCodeAt(i)
      if (c === 0x2e || (c >= 0x30 && c <= 0x39)) break
    }
    if (i === unitStart) return fail(new ErrorString('time: missing unit in duration ' + quote(s)))
    const u = s.slice(unitStart, i)
    const unit = UNITS.get(u)
    if (unit === undefined) {
      return fail(new ErrorString('time: unknown unit ' + quote(u) + ' in duration ' + quote(s)))
    }
    if (v > TWO_63 / unit) return invalid()
    v *= unit
    if (f > 0n) {
      // float64 keeps fractions of hours nanosecond-accurate; Go truncates the product to uint64.
      v += BigInt(Math.trunc(Number(f) * (Number(unit) / scale)))
      if (v > TWO_63) return invalid()
    }
    d = BigInt.asUintN(64, d + v) // Go's uint64 addition wraps (only at exactly 2^63 + 2^63)
    if (d > TWO_63) return invalid()
  }
  if (neg) return ok(BigInt.asIntN(64, -d))
  if (d > TWO_63 - 1n) return invalid()
  return ok(d)
}
