/** Random byte strings, runes and paths for the differential tests. */
import type { GoString } from '../../src/core/go/gostring.js'
import type { Rand } from './rand.js'

/**
 * UTF-8 bytes of a code point as a byte string, without validity checks: a
 * surrogate gives its (invalid) 3-byte form, as raw bytes would carry it.
 */
export function utf8(r: number): GoString {
  if (r < 0x80) return String.fromCharCode(r)
  if (r < 0x800) return String.fromCharCode(0xc0 | (r >> 6), 0x80 | (r & 0x3f))
  if (r < 0x10000) return String.fromCharCode(0xe0 | (r >> 12), 0x80 | ((r >> 6) & 0x3f), 0x80 | (r & 0x3f))
  return String.fromCharCode(
    0xf0 | (r >> 18),
    0x80 | ((r >> 12) & 0x3f),
    0x80 | ((r >> 6) & 0x3f),
    0x80 | (r & 0x3f),
  )
}

/** Code points worth hitting often: boundaries, separators, format characters, new in Unicode 14/15. */
const RUNE_EDGES = [
  0x00, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1b, 0x1f, 0x20, 0x22, 0x26, 0x27, 0x2f, 0x3c, 0x3e, 0x5c,
  0x7e, 0x7f, 0x80, 0x85, 0x9f, 0xa0, 0xa1, 0xad, 0xff, 0x100, 0x17f, 0x34f, 0x378, 0x61c, 0x7ff, 0x800,
  0x180e, 0x1680, 0x2000, 0x200a, 0x200b, 0x200d, 0x200e, 0x2028, 0x2029, 0x202f, 0x205f, 0x2060, 0x2066,
  0x212a, 0x3000, 0xd7ff, 0xd800, 0xdbff, 0xdc00, 0xdfff, 0xe000, 0xf8ff, 0xfdd0, 0xfeff, 0xfff9, 0xfffc,
  0xfffd, 0xfffe, 0xffff, 0x10000, 0x1000c, 0x1d173, 0x1f600, 0x1f6dd, 0x1f7f0, 0x1fae0, 0x1faf0, 0x1fa7c,
  0x11f00, 0x11f50, 0x1e4d0, 0x1e030, 0x31350, 0x2b739, 0x2ebf0, 0x13440, 0x1b132, 0x1b155, 0x1d2c0, 0x1df25,
  0x10efd, 0x1123f, 0xe0001, 0xe0020, 0xe007f, 0xe0100, 0xe01ef, 0xf0000, 0xffffd, 0x100000, 0x10fffd,
  0x10ffff,
]

/** A code point: anywhere in [0, 0x10FFFF], or near an interesting edge. */
export function randomRune(rand: Rand): number {
  switch (rand.int(6)) {
    case 0:
      return rand.int(0x110000)
    case 1:
      return rand.int(0x80)
    case 2:
      return rand.int(0x800)
    case 3:
      return rand.int(0x30000)
    case 4:
      return Math.min(0x10ffff, Math.max(0, rand.pick(RUNE_EDGES) + rand.range(-2, 2)))
    default:
      return rand.pick(RUNE_EDGES)
  }
}

/** Byte sequences that are not valid UTF-8 (or are edge cases of it). */
const BAD_UTF8 = [
  '\x80',
  '\xbf',
  '\xc0\x80',
  '\xc1\xbf',
  '\xc2',
  '\xc2\x7f',
  '\xe0\x80\x80',
  '\xe0\x9f\xbf',
  '\xed\xa0\x80',
  '\xed\xbf\xbf',
  '\xef\xbf',
  '\xf0\x8f\xbf\xbf',
  '\xf4\x90\x80\x80',
  '\xf5\x80\x80\x80',
  '\xf8\x88\x80\x80\x80',
  '\xfe',
  '\xff',
  '\xf0\x9f\x98',
  '\xe2\x80',
]

const ASCII_SPECIAL = [
  '"',
  '\\',
  '/',
  '<',
  '>',
  '&',
  "'",
  '`',
  ' ',
  '\t',
  '\n',
  '\r',
  '\b',
  '\f',
  '\v',
  '\x00',
  '\x7f',
]

/** A random byte string: random bytes, random runes, ASCII controls, invalid UTF-8, or a mix. */
export function randomString(rand: Rand, maxLen = 12): GoString {
  const n = rand.int(maxLen + 1)
  let s = ''
  const mode = rand.int(6)
  for (let i = 0; i < n; i++) {
    const m = mode === 5 ? rand.int(5) : mode
    switch (m) {
      case 0:
        s += String.fromCharCode(rand.int(256))
        break
      case 1:
        s += utf8(randomRune(rand))
        break
      case 2:
        s += rand.chance(0.5) ? String.fromCharCode(rand.int(0x20)) : rand.pick(ASCII_SPECIAL)
        break
      case 3:
        s += rand.chance(0.5) ? rand.pick(BAD_UTF8) : String.fromCharCode(0x20 + rand.int(0x5f))
        break
      default:
        s += rand.chance(0.7) ? String.fromCharCode(0x20 + rand.int(0x5f)) : utf8(randomRune(rand))
    }
  }
  return s
}

/** A rune's UTF-8 encoding unless it is a surrogate (Go's string(r) would give U+FFFD). */
export function isSurrogate(r: number): boolean {
  return r >= 0xd800 && r <= 0xdfff
}

/**
 * Go's utf8.DecodeRuneInString at byte i: [rune, size]; an invalid or short
 * sequence gives [0xFFFD, 1].
 */
export function decodeRune(s: GoString, i: number): [number, number] {
  const c0 = s.charCodeAt(i)
  if (c0 < 0x80) return [c0, 1]
  const cont = (j: number, lo = 0x80, hi = 0xbf): number => {
    const c = i + j < s.length ? s.charCodeAt(i + j) : -1
    return c >= lo && c <= hi ? c & 0x3f : -1
  }
  if (c0 >= 0xc2 && c0 <= 0xdf) {
    const c1 = cont(1)
    return c1 < 0 ? [0xfffd, 1] : [((c0 & 0x1f) << 6) | c1, 2]
  }
  if (c0 >= 0xe0 && c0 <= 0xef) {
    const c1 = cont(1, c0 === 0xe0 ? 0xa0 : 0x80, c0 === 0xed ? 0x9f : 0xbf)
    const c2 = c1 < 0 ? -1 : cont(2)
    return c2 < 0 ? [0xfffd, 1] : [((c0 & 0x0f) << 12) | (c1 << 6) | c2, 3]
  }
  if (c0 >= 0xf0 && c0 <= 0xf4) {
    const c1 = cont(1, c0 === 0xf0 ? 0x90 : 0x80, c0 === 0xf4 ? 0x8f : 0xbf)
    const c2 = c1 < 0 ? -1 : cont(2)
    const c3 = c2 < 0 ? -1 : cont(3)
    return c3 < 0 ? [0xfffd, 1] : [((c0 & 0x07) << 18) | (c1 << 12) | (c2 << 6) | c3, 4]
  }
  return [0xfffd, 1]
}

/** s with every validly encoded rune for which `drop` holds replaced by `with`. */
export function replaceRunes(s: GoString, drop: (r: number) => boolean, withStr = 'a'): GoString {
  let out = ''
  for (let i = 0; i < s.length; ) {
    const [r, n] = decodeRune(s, i)
    out += n > 1 && drop(r) ? withStr : s.slice(i, i + n)
    i += n
  }
  return out
}
