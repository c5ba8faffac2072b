/**
 * Go's strconv quoting (Quote, QuoteRune, …, Unquote) over byte strings.
 * Printability follows Go 1.25's tables, i.e. Unicode 15.0.0 (see ../unicode/tables.ts).
 */
import { ErrorString, fail, ok, type Result } from '../errors.js'
import type { GoBytes, GoString } from '../gostring.js'
import { isGraphic as unicodeIsGraphic, isPrint as unicodeIsPrint } from '../unicode/tables.js'
import { decodeRune, encodeRune, RUNE_ERROR, RUNE_SELF, validRune, validString } from '../unicode/utf8.js'

const LOWERHEX = '0123456789abcdef'

/** strconv.ErrSyntax */
export const ERR_SYNTAX = new ErrorString('invalid syntax')

/**
 * strconv.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII
 * space, per Unicode 15.0.0 (Go 1.21–1.25; Go 1.19's tables were Unicode 13).
 */
export function isPrint(r: number): boolean {
  // Go's Latin-1 fast path.
  if (r <= 0xff) {
    if (r >= 0x20 && r <= 0x7e) return true
    if (r >= 0xa1 && r <= 0xff) return r !== 0xad // soft hyphen is Cf
    return false
  }
  return unicodeIsPrint(r)
}

/** strconv.IsGraphic: IsPrint plus the Zs space separators. */
export function isGraphic(r: number): boolean {
  return unicodeIsGraphic(r)
}

// Printable ASCII other than '"' and '\\': copied as is by quote.
const PLAIN_DOUBLE = /^[ !#-[\]-~]*$/

function hex2(b: number): string {
  return '\\x' + LOWERHEX[b >> 4] + LOWERHEX[b & 0xf]
}

function hexN(prefix: string, r: number, digits: number): string {
  let out = prefix
  for (let shift = (digits - 1) * 4; shift >= 0; shift -= 4) out += LOWERHEX[(r >>> shift) & 0xf]
  return out
}

/** Go's appendEscapedRune: the escaped form of valid rune r inside a literal quoted by `quote`. */
function escapedRune(r: number, quote: number, asciiOnly: boolean, graphicOnly: boolean): GoString {
  if (r === quote || r === 0x5c) return '\\' + String.fromCharCode(r)
  if (asciiOnly) {
    if (r < RUNE_SELF && isPrint(r)) return String.fromCharCode(r)
  } else if (isPrint(r) || (graphicOnly && isGraphic(r))) {
    return encodeRune(r)
  }
  switch (r) {
    case 0x07:
      return '\\a'
    case 0x08:
      return '\\b'
    case 0x0c:
      return '\\f'
    case 0x0a:
      return '\\n'
    case 0x0d:
      return '\\r'
    case 0x09:
      return '\\t'
    case 0x0b:
      return '\\v'
  }
  if (r < 0x20 || r === 0x7f) return hex2(r)
  if (!validRune(r)) r = RUNE_ERROR
  if (r < 0x10000) return hexN('\\u', r, 4)
  return hexN('\\U', r, 8)
}

/** Go's appendQuotedWith. */
function quoteWith(s: GoString, quote: number, asciiOnly: boolean, graphicOnly: boolean): GoString {
  const q = String.fromCharCode(quote)
  let out = q
  let plainStart = 0 // start of a pending run of bytes copied as is
  let i = 0
  while (i < s.length) {
    const c = s.charCodeAt(i)
    if (c >= 0x20 && c < 0x7f && c !== quote && c !== 0x5c) {
      i++
      continue
    }
    out += s.slice(plainStart, i)
    let r = c
    let width = 1
    if (c >= RUNE_SELF) [r, width] = decodeRune(s, i)
    out += width === 1 && r === RUNE_ERROR ? hex2(c) : escapedRune(r, quote, asciiOnly, graphicOnly)
    i += width
    plainStart = i
  }
  return out + s.slice(plainStart) + q
}

/**
 * The escapes strconv.Quote (%q) would give the runes it does not print as is, applied in place
 * with no quotes around: control characters (`ESC` → `\x1b`), C1 controls, other non-printable
 * runes and invalid UTF-8 bytes. Newline and tab are kept (lines stay lines); printable text,
 * backslash included, is unchanged. For text shown on a terminal, where an escape sequence
 * would otherwise be obeyed (OSC 52 clipboard writes, titles, screen clears).
 */
export function escapeUnprintable(s: GoString): GoString {
  let out = ''
  let plainStart = 0
  let i = 0
  while (i < s.length) {
    const c = s.charCodeAt(i)
    if ((c >= 0x20 && c < 0x7f) || c === 0x0a || c === 0x09) {
      i++
      continue
    }
    let r = c
    let width = 1
    if (c >= RUNE_SELF) [r, width] = decodeRune(s, i)
    if (!(width === 1 && r === RUNE_ERROR) && c >= RUNE_SELF && isPrint(r)) {
      i += width
      continue
    }
    out += s.slice(plainStart, i)
    out += width === 1 && r === RUNE_ERROR ? hex2(c) : escapedRune(r, -1, false, false)
    i += width
    plainStart = i
  }
  return plainStart === 0 ? s : out + s.slice(plainStart)
}

/** Go's appendQuotedRuneWith. */
function quoteRuneWith(r: number, quote: number, asciiOnly: boolean, graphicOnly: boolean): GoString {
  const q = String.fromCharCode(quote)
  return q + escapedRune(validRune(r) ? r : RUNE_ERROR, quote, asciiOnly, graphicOnly) + q
}

/**
 * strconv.Quote (what fmt's %q prints for a string): a double-quoted Go string
 * literal. Invalid UTF-8 bytes become \xHH; non-printable runes are escaped.
 */
export function quote(s: GoString): GoString {
  if (PLAIN_DOUBLE.test(s)) return '"' + s + '"'
  return quoteWith(s, 0x22, false, false)
}

/** strconv.QuoteToASCII */
export function quoteToASCII(s: GoBytes): GoString {
  return quoteWith(s, 0x22, true, false)
}

/** strconv.QuoteToGraphic */
export function quoteToGraphic(s: GoBytes): GoString {
  return quoteWith(s, 0x22, false, true)
}

/** strconv.QuoteRune (fmt's %q for a rune); invalid runes print as U+FFFD. */
export function quoteRune(r: number): GoString {
  return quoteRuneWith(r, 0x27, false, false)
}

/** strconv.QuoteRuneToASCII */
export function quoteRuneToASCII(r: number): GoString {
  return quoteRuneWith(r, 0x27, true, false)
}

/** strconv.QuoteRuneToGraphic */
export function quoteRuneToGraphic(r: number): GoString {
  return quoteRuneWith(r, 0x27, false, true)
}

function unhex(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30
  if (c >= 0x61 && c <= 0x66) return c - 0x61 + 10
  if (c >= 0x41 && c <= 0x46) return c - 0x41 + 10
  return -1
}

/** The value of strconv.UnquoteChar. */
export interface UnquotedChar {
  value: number
  multibyte: boolean
  tail: GoString
}

/**
 * strconv.UnquoteChar: decodes the first character or escape of s inside a
 * literal quoted by `quote` (a byte: '"', '\'' or 0).
 */
export function unquoteChar(s: GoString, quote: number): Result<UnquotedChar> {
  if (s.length === 0) return fail(ERR_SYNTAX)
  const c0 = s.charCodeAt(0)
  if (c0 === quote && (quote === 0x27 || quote === 0x22)) return fail(ERR_SYNTAX)
  if (c0 >= RUNE_SELF) {
    const [r, size] = decodeRune(s, 0)
    return ok({ value: r, multibyte: true, tail: s.slice(size) })
  }
  if (c0 !== 0x5c) return ok({ value: c0, multibyte: false, tail: s.slice(1) })

  // Backslash escape.
  if (s.length <= 1) return fail(ERR_SYNTAX)
  const c = s.charCodeAt(1)
  let rest = s.slice(2)
  let value: number
  let multibyte = false
  switch (c) {
    case 0x61: // a
      value = 0x07
      break
    case 0x62: // b
      value = 0x08
      break
    case 0x66: // f
      value = 0x0c
      break
    case 0x6e: // n
      value = 0x0a
      break
    case 0x72: // r
      value = 0x0d
      break
    case 0x74: // t
      value = 0x09
      break
    case 0x76: // v
      value = 0x0b
      break
    case 0x78: // x
    case 0x75: // u
    case 0x55: {
      // U
      const n = c === 0x78 ? 2 : c === 0x75 ? 4 : 8
      if (rest.length < n) return fail(ERR_SYNTAX)
      let v = 0
      for (let j = 0; j < n; j++) {
        const x = unhex(rest.charCodeAt(j))
        if (x < 0) return fail(ERR_SYNTAX)
        v = v * 16 + x
      }
      rest = rest.slice(n)
      if (c === 0x78) {
        value = v // a single byte, possibly not UTF-8
        break
      }
      if (!validRune(v)) return fail(ERR_SYNTAX)
      value = v
      multibyte = true
      break
    }
    case 0x30:
    case 0x31:
    case 0x32:
    case 0x33:
    case 0x34:
    case 0x35:
    case 0x36:
    case 0x37: {
      let v = c - 0x30
      if (rest.length < 2) return fail(ERR_SYNTAX)
      for (let j = 0; j < 2; j++) {
        const x = rest.charCodeAt(j) - 0x30
        if (x < 0 || x > 7) return fail(ERR_SYNTAX)
        v = (v << 3) | x
      }
      rest = rest.slice(2)
      if (v > 255) return fail(ERR_SYNTAX)
      value = v
      break
    }
    case 0x5c:
      value = 0x5c
      break
    case 0x27:
    case 0x22:
      if (c !== quote) return fail(ERR_SYNTAX)
      value = c
      break
    default:
      return fail(ERR_SYNTAX)
  }
  return ok({ value, multibyte, tail: rest })
}

/** Go's unquote(in, unescape=true): the unquoted prefix and the rest of the input. */
function unquotePrefix(input: GoString): Result<{ out: GoString; rem: GoString }> {
  if (input.length < 2) return fail(ERR_SYNTAX)
  const q = input.charCodeAt(0)
  const qs = input[0]
  const close = input.indexOf(qs, 1)
  if (close < 0) return fail(ERR_SYNTAX)
  const end = close + 1 // just past the first matching quote; wrong if that one is escaped

  if (q === 0x60) {
    // Raw string: carriage returns are dropped; UTF-8 is not checked.
    return ok({ out: input.slice(1, end - 1).replaceAll('\r', ''), rem: input.slice(end) })
  }
  if (q !== 0x22 && q !== 0x27) return fail(ERR_SYNTAX)

  const lit = input.slice(0, end)
  if (!lit.includes('\\') && !lit.includes('\n')) {
    const body = input.slice(1, end - 1)
    let valid: boolean
    if (q === 0x22) {
      valid = validString(body)
    } else {
      const [r, n] = decodeRune(body, 0)
      valid = 1 + n + 1 === end && (r !== RUNE_ERROR || n !== 1)
    }
    if (valid) return ok({ out: body, rem: input.slice(end) })
  }

  let out = ''
  let s = input.slice(1)
  while (s.length > 0 && s.charCodeAt(0) !== q) {
    const first = s.charCodeAt(0)
    const res = unquoteChar(s, q)
    if (first === 0x0a || !res.ok) return fail(ERR_SYNTAX)
    const { value, multibyte, tail } = res.value
    s = tail
    out += value < RUNE_SELF || !multibyte ? String.fromCharCode(value) : encodeRune(value)
    if (q === 0x27) break // a rune literal holds one character
  }
  if (!(s.length > 0 && s.charCodeAt(0) === q)) return fail(ERR_SYNTAX)
  return ok({ out, rem: s.slice(1) })
}

/** strconv.Unquote: the value of a Go string, rune or raw string literal. */
export function unquote(s: GoBytes): Result<GoString> {
  const res = unquotePrefix(s)
  if (!res.ok) return res
  if (res.value.rem.length > 0) return fail(ERR_SYNTAX)
  return ok(res.value.out)
}
