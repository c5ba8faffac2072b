/**
 * Go strings are byte sequences, not UTF-16 text. Everything in `core/go`
 * handles them as *byte strings*: JS strings whose every char code is one
 * byte (0–255), i.e. Buffer's `latin1` encoding. That keeps byte-wise
 * sorting, byte offsets, byte cuts and invalid UTF-8 exactly as Go sees them.
 */
import { isUtf8 } from 'node:buffer'
import type { GoBytes, GoString } from './byte-string.js'
import { decodeRune, RUNE_ERROR } from './unicode/utf8.js'

export type { GoBytes, GoString } from './byte-string.js'

/**
 * A string whose chars are bytes already (latin1-decoded data, byte literals) as GoBytes; not
 * text, which takes fromText. A char above 0xff is not a byte: a RangeError.
 */
export function bytesOf(s: string): GoBytes {
  if (/[^\x00-\xff]/.test(s))
    throw new RangeError('bytesOf: a char above 0xff is text, not a byte (fromText)')
  return s as GoBytes
}

/** The UTF-8 bytes of a JS (UTF-16) string, as a byte string. */
export function fromText(s: string): GoBytes {
  // Fast path: pure ASCII is already a valid byte string.
  if (/^[\x00-\x7f]*$/.test(s)) return s as GoBytes
  return Buffer.from(s, 'utf8').toString('latin1') as GoBytes
}

/**
 * Decodes a byte string as UTF-8 into a JS string. Each byte that does not begin a valid
 * sequence becomes one U+FFFD, as Go's encoding/json writes it (utf8.DecodeRuneInString's
 * [RuneError, 1]) — not one per maximal invalid subpart, as TextDecoder would.
 */
export function toText(b: GoString): string {
  if (/^[\x00-\x7f]*$/.test(b)) return b
  const buf = Buffer.from(b, 'latin1')
  if (isUtf8(buf)) return buf.toString('utf8')
  let out = ''
  let from = 0
  for (let i = 0; i < b.length; ) {
    const [r, size] = b.charCodeAt(i) < 0x80 ? [0, 1] : decodeRune(b, i)
    if (r === RUNE_ERROR && size === 1) {
      out += `${buf.toString('utf8', from, i)}\ufffd`
      from = i + 1
    }
    i += size
  }
  return out + buf.toString('utf8', from)
}

export function fromBuffer(buf: Uint8Array): GoBytes {
  return Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength).toString('latin1') as GoBytes
}

export function toBuffer(b: GoString): Buffer {
  return Buffer.from(b, 'latin1')
}

/** Go's strings.TrimSpace: trims ASCII and Unicode white space (as UTF-8) at both ends. */
export function trimSpace(s: GoString): GoString {
  let start = 0
  let end = s.length
  while (start < end) {
    const n = spaceWidthAt(s, start)
    if (n === 0) break
    start += n
  }
  while (end > start) {
    const n = spaceWidthBefore(s, end)
    if (n === 0) break
    end -= n
  }
  return s.slice(start, end)
}

// unicode.IsSpace: '\t', '\n', '\v', '\f', '\r', ' ', U+0085 (NEL), U+00A0 (NBSP),
// and the White_Space runes above Latin-1: U+1680, U+2000–U+200A, U+2028, U+2029,
// U+202F, U+205F, U+3000.
function isSpaceRune(r: number): boolean {
  if (r <= 0xff) {
    return r === 0x20 || (r >= 0x09 && r <= 0x0d) || r === 0x85 || r === 0xa0
  }
  if (r >= 0x2000 && r <= 0x200a) return true
  return r === 0x1680 || r === 0x2028 || r === 0x2029 || r === 0x202f || r === 0x205f || r === 0x3000
}

function runeAt(s: GoString, i: number): [number, number] {
  const c0 = s.charCodeAt(i)
  if (c0 < 0x80) return [c0, 1]
  // Only the multi-byte space runes matter here; decode 2- and 3-byte forms strictly.
  if (c0 >= 0xc2 && c0 <= 0xdf && i + 1 < s.length) {
    const c1 = s.charCodeAt(i + 1)
    if ((c1 & 0xc0) === 0x80) return [((c0 & 0x1f) << 6) | (c1 & 0x3f), 2]
  }
  if (c0 >= 0xe0 && c0 <= 0xef && i + 2 < s.length) {
    const c1 = s.charCodeAt(i + 1)
    const c2 = s.charCodeAt(i + 2)
    if ((c1 & 0xc0) === 0x80 && (c2 & 0xc0) === 0x80) {
      const r = ((c0 & 0x0f) << 12) | ((c1 & 0x3f) << 6) | (c2 & 0x3f)
      if (r >= 0x800 && (r < 0xd800 || r > 0xdfff)) return [r, 3]
    }
  }
  return [0xfffd, 1]
}

function spaceWidthAt(s: GoString, i: number): number {
  const [r, n] = runeAt(s, i)
  return isSpaceRune(r) ? n : 0
}

function spaceWidthBefore(s: GoString, end: number): number {
  const last = s.charCodeAt(end - 1)
  if (last < 0x80) return isSpaceRune(last) ? 1 : 0
  // Like utf8.DecodeLastRune: the longest valid sequence ending here, else one invalid byte.
  for (const n of [2, 3]) {
    const i = end - n
    if (i < 0) break
    const [r, w] = runeAt(s, i)
    if (w === n) return isSpaceRune(r) ? n : 0
  }
  return 0
}
