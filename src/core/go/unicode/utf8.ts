/**
 * Go's unicode/utf8 over byte strings (see ../gostring.ts): offsets and sizes
 * are byte counts, runes are code point numbers.
 */
import type { GoBytes, GoString } from '../byte-string.js'

/** utf8.RuneError: U+FFFD, returned for invalid input. */
export const RUNE_ERROR = 0xfffd
/** utf8.RuneSelf: bytes below this are single-byte runes. */
export const RUNE_SELF = 0x80
/** utf8.MaxRune */
export const MAX_RUNE = 0x10ffff
/** utf8.UTFMax */
export const UTF_MAX = 4

const RUNE_ERROR_BYTES: GoString = '\xef\xbf\xbd'

/**
 * The sequence length announced by a leading byte (0 for bytes that cannot
 * start a rune: continuation bytes, C0, C1 and F5–FF), and the range its
 * second byte must lie in (Go's acceptRanges).
 */
function seqLen(c0: number): number {
  if (c0 < 0x80) return 1
  if (c0 < 0xc2) return 0
  if (c0 < 0xe0) return 2
  if (c0 < 0xf0) return 3
  if (c0 < 0xf5) return 4
  return 0
}

function secondLo(c0: number): number {
  if (c0 === 0xe0) return 0xa0 // no overlong 3-byte forms
  if (c0 === 0xf0) return 0x90 // no overlong 4-byte forms
  return 0x80
}

function secondHi(c0: number): number {
  if (c0 === 0xed) return 0x9f // no surrogates
  if (c0 === 0xf4) return 0x8f // nothing above U+10FFFF
  return 0xbf
}

/**
 * utf8.DecodeRuneInString(s[i:end]): the rune at byte offset i and its width.
 * Invalid or truncated input gives [RUNE_ERROR, 1]; an empty input [RUNE_ERROR, 0].
 */
export function decodeRune(s: GoString, i: number, end: number = s.length): [rune: number, size: number] {
  if (i >= end) return [RUNE_ERROR, 0]
  const c0 = s.charCodeAt(i)
  if (c0 < 0x80) return [c0, 1]
  const n = seqLen(c0)
  if (n === 0 || i + n > end) return [RUNE_ERROR, 1]
  const c1 = s.charCodeAt(i + 1)
  if (c1 < secondLo(c0) || c1 > secondHi(c0)) return [RUNE_ERROR, 1]
  if (n === 2) return [((c0 & 0x1f) << 6) | (c1 & 0x3f), 2]
  const c2 = s.charCodeAt(i + 2)
  if ((c2 & 0xc0) !== 0x80) return [RUNE_ERROR, 1]
  if (n === 3) return [((c0 & 0x0f) << 12) | ((c1 & 0x3f) << 6) | (c2 & 0x3f), 3]
  const c3 = s.charCodeAt(i + 3)
  if ((c3 & 0xc0) !== 0x80) return [RUNE_ERROR, 1]
  return [((c0 & 0x07) << 18) | ((c1 & 0x3f) << 12) | ((c2 & 0x3f) << 6) | (c3 & 0x3f), 4]
}

/** utf8.RuneStart: whether byte b can begin a rune (it is not a continuation byte). */
export function runeStart(b: number): boolean {
  return (b & 0xc0) !== 0x80
}

/**
 * utf8.DecodeLastRuneInString(s[start:end]): the last rune before byte offset
 * end and its width. Invalid input gives [RUNE_ERROR, 1]; empty [RUNE_ERROR, 0].
 */
export function decodeLastRune(s: GoBytes, end: number = s.length, start = 0): [rune: number, size: number] {
  if (end <= start) return [RUNE_ERROR, 0]
  let i = end - 1
  const last = s.charCodeAt(i)
  if (last < 0x80) return [last, 1]
  // Look back at most UTFMax bytes, as Go does, to stay linear on junk.
  const lim = Math.max(start, end - UTF_MAX)
  for (i--; i >= lim; i--) {
    if (runeStart(s.charCodeAt(i))) break
  }
  if (i < start) i = start
  const [r, size] = decodeRune(s, i, end)
  if (i + size !== end) return [RUNE_ERROR, 1]
  return [r, size]
}

/** utf8.FullRuneInString(s[i:end]): whether the bytes from i begin with a full (or invalid) rune. */
export function fullRune(s: GoString, i = 0, end: number = s.length): boolean {
  const n = end - i
  if (n <= 0) return false
  const c0 = s.charCodeAt(i)
  const want = seqLen(c0) || 1 // invalid leading bytes count as one-byte runes
  if (n >= want) return true
  // Short: still "full" if what is there is already invalid.
  if (n > 1) {
    const c1 = s.charCodeAt(i + 1)
    if (c1 < secondLo(c0) || c1 > secondHi(c0)) return true
  }
  if (n > 2 && (s.charCodeAt(i + 2) & 0xc0) !== 0x80) return true
  return false
}

/** utf8.ValidRune: a Unicode scalar value (not a surrogate, at most U+10FFFF). */
export function validRune(r: number): boolean {
  return (r >= 0 && r < 0xd800) || (r > 0xdfff && r <= MAX_RUNE)
}

/** utf8.RuneLen: the UTF-8 width of r, or -1 if r is not a valid rune. */
export function runeLen(r: number): number {
  if (r < 0) return -1
  if (r < 0x80) return 1
  if (r < 0x800) return 2
  if (r >= 0xd800 && r <= 0xdfff) return -1
  if (r < 0x10000) return 3
  if (r <= MAX_RUNE) return 4
  return -1
}

/** utf8.EncodeRune / string(rune): the UTF-8 bytes of r; invalid runes encode as U+FFFD. */
export function encodeRune(r: number): GoString {
  if (r >= 0 && r < 0x80) return String.fromCharCode(r)
  if (r >= 0x80 && r < 0x800) return String.fromCharCode(0xc0 | (r >> 6), 0x80 | (r & 0x3f))
  if (!validRune(r)) return RUNE_ERROR_BYTES
  if (r < 0x10000) {
    return String.fromCharCode(0xe0 | (r >> 12), 0x80 | ((r >> 6) & 0x3f), 0x80 | (r & 0x3f))
  }
  return String.fromCharCode(
    0xf0 | (r >> 18),
    0x80 | ((r >> 12) & 0x3f),
    0x80 | ((r >> 6) & 0x3f),
    0x80 | (r & 0x3f),
  )
}

/** utf8.ValidString */
export function validString(s: GoString): boolean {
  for (let i = 0; i < s.length; ) {
    if (s.charCodeAt(i) < 0x80) {
      i++
      continue
    }
    const [r, size] = decodeRune(s, i)
    if (r === RUNE_ERROR && size === 1) return false
    i += size
  }
  return true
}

/** utf8.RuneCountInString: each invalid byte counts as one rune. */
export function runeCount(s: GoBytes): number {
  let n = 0
  for (let i = 0; i < s.length; n++) {
    i += s.charCodeAt(i) < 0x80 ? 1 : decodeRune(s, i)[1]
  }
  return n
}
