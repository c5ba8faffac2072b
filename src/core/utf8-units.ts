/**
 * Characters of bytes that may not be UTF-8, as editors decode them: the WHATWG Encoding
 * Standard's UTF-8 decoder (Unicode's "maximal subpart" practice, what `TextDecoder` does). A
 * well-formed sequence is one character; a maximal prefix of a well-formed sequence that is cut
 * short (`E2 82` then `A`), and any other bad byte (a stray continuation, `C0`, `F5`…`FF`), is one
 * U+FFFD. So `E0 80 AF` (overlong) and `ED A0 80` (a surrogate) are three, `F0 9F 98` one.
 * Lint's columns (`core/lint/position.ts`) and the editor's UTF-16 positions (`lsp/positions.ts`)
 * both count this way, so a finding's column agrees with its offset.
 */

/**
 * The character at byte `i` of `byteAt` (a byte, or undefined past the end): how many bytes it
 * takes and how many UTF-16 units it is (2 for a character past U+FFFF, else 1).
 */
export function charAt(byteAt: (i: number) => number | undefined, i: number): [bytes: number, units: number] {
  const b = byteAt(i) as number
  if (b < 0x80) return [1, 1]
  let need: number
  let lower = 0x80
  let upper = 0xbf
  if (b >= 0xc2 && b <= 0xdf) need = 1
  else if (b >= 0xe0 && b <= 0xef) {
    need = 2
    if (b === 0xe0) lower = 0xa0
    else if (b === 0xed) upper = 0x9f
  } else if (b >= 0xf0 && b <= 0xf4) {
    need = 3
    if (b === 0xf0) lower = 0x90
    else if (b === 0xf4) upper = 0x8f
  } else return [1, 1]
  for (let k = 1; k <= need; k++) {
    const c = byteAt(i + k)
    // The byte that breaks the sequence is not part of it: it starts the next character.
    if (c === undefined || c < lower || c > upper) return [k, 1]
    lower = 0x80
    upper = 0xbf
  }
  return [need + 1, need === 3 ? 2 : 1]
}
