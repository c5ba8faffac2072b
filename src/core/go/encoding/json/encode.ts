/**
 * Go's JSON string encoding: encoding/json's encodeState.string (Go 1.19),
 * which log/slog's JSON handler copies as appendEscapedJSONString (Go 1.25,
 * with escapeHTML false).
 *
 * Go 1.22+ encoding/json writes \b and \f as `\b` and `\f`; slog (still in
 * 1.25) and Go ≤ 1.21 encoding/json write `\u0008` and `\u000c`. The slog form
 * is the default; `marshal` gives json.Marshal's (Go 1.25).
 */
import type { GoString } from '../../gostring.js'
import { decodeRune, RUNE_ERROR } from '../../unicode/utf8.js'

const HEX = '0123456789abcdef'

// 1 for ASCII bytes that need no escaping (safeSet: ≥ 0x20, not `"` or `\`;
// 0x7f is safe); 2 for those safe only when HTML is not escaped (`<`, `>`, `&`).
const SAFE = new Uint8Array(128)
for (let b = 0x20; b < 0x80; b++) SAFE[b] = 1
SAFE[0x22] = 0
SAFE[0x5c] = 0
SAFE[0x3c] = 2
SAFE[0x3e] = 2
SAFE[0x26] = 2

/**
 * s quoted as a JSON string: `"` and `\` escaped, \n \r \t as such, other bytes
 * below 0x20 (and `<` `>` `&` when escapeHTML) as \u00XX in lower-case hex,
 * U+2028 and U+2029 as \u2028 and \u2029, each invalid UTF-8 byte as \ufffd;
 * everything else copied raw.
 */
export function appendJSONString(s: GoString, escapeHTML: boolean, marshal = false): GoString {
  let out = '"'
  let start = 0
  for (let i = 0; i < s.length; ) {
    const b = s.charCodeAt(i)
    if (b < 0x80) {
      const safe = SAFE[b]
      if (safe === 1 || (safe === 2 && !escapeHTML)) {
        i++
        continue
      }
      if (start < i) out += s.slice(start, i)
      switch (b) {
        case 0x5c:
        case 0x22:
          out += '\\' + String.fromCharCode(b)
          break
        case 0x0a:
          out += '\\n'
          break
        case 0x0d:
          out += '\\r'
          break
        case 0x09:
          out += '\\t'
          break
        case 0x08:
        case 0x0c:
          if (marshal) {
            out += b === 0x08 ? '\\b' : '\\f'
            break
          }
          out += '\\u00' + HEX[b >> 4] + HEX[b & 0xf]
          break
        default:
          // Bytes < 0x20 except \t, \n and \r; and <, >, & when escaping HTML.
          out += '\\u00' + HEX[b >> 4] + HEX[b & 0xf]
      }
      i++
      start = i
      continue
    }
    const [c, size] = decodeRune(s, i)
    if (c === RUNE_ERROR && size === 1) {
      if (start < i) out += s.slice(start, i)
      out += '\\ufffd'
      i += size
      start = i
      continue
    }
    // U+2028 LINE SEPARATOR and U+2029 PARAGRAPH SEPARATOR are valid JSON but
    // break JSONP; Go escapes them unconditionally.
    if (c === 0x2028 || c === 0x2029) {
      if (start < i) out += s.slice(start, i)
      out += '\\u202' + HEX[c & 0xf]
      i += size
      start = i
      continue
    }
    i += size
  }
  if (start < s.length) out += s.slice(start)
  return out + '"'
}
