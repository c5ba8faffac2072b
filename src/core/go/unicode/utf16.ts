/**
 * Go's unicode/utf16, the parts encoding/json needs: surrogate-pair logic on
 * rune numbers.
 */

const REPLACEMENT_CHAR = 0xfffd
const MAX_RUNE = 0x10ffff

// 0xd800–0xdc00 encodes the high 10 bits of a pair, 0xdc00–0xe000 the low 10.
const surr1 = 0xd800
const surr2 = 0xdc00
const surr3 = 0xe000
const surrSelf = 0x10000

/** utf16.IsSurrogate: whether r can appear in a surrogate pair. */
export function isSurrogate(r: number): boolean {
  return surr1 <= r && r < surr3
}

/** utf16.DecodeRune: the rune of the pair r1, r2, or U+FFFD if they are not a valid pair. */
export function decodeRune(r1: number, r2: number): number {
  if (surr1 <= r1 && r1 < surr2 && surr2 <= r2 && r2 < surr3) {
    return (((r1 - surr1) << 10) | (r2 - surr2)) + surrSelf
  }
  return REPLACEMENT_CHAR
}

/** utf16.EncodeRune: the pair for r, or [U+FFFD, U+FFFD] if r needs none or is invalid. */
export function encodeRune(r: number): [r1: number, r2: number] {
  if (r < surrSelf || r > MAX_RUNE) return [REPLACEMENT_CHAR, REPLACEMENT_CHAR]
  const v = r - surrSelf
  return [surr1 + ((v >> 10) & 0x3ff), surr2 + (v & 0x3ff)]
}
