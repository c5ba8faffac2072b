/**
 * Go's encoding/base64 StdEncoding decoding (base64.go, decodeQuantum): the standard alphabet,
 * `=` padding required, `\r` and `\n` skipped anywhere, non-zero trailing bits accepted (not
 * Strict), and CorruptInputError's offsets. Node's Buffer.from(s, 'base64') accepts all of the
 * inputs Go refuses, so it is never used to decode what Go would decode.
 */
import type { GoError, Result } from '../../errors.js'

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'
const DECODE = new Uint8Array(256).fill(0xff)
for (let i = 0; i < ALPHABET.length; i++) DECODE[ALPHABET.charCodeAt(i)] = i

const PAD = 0x3d
const NL = 0x0a
const CR = 0x0d

/** base64.CorruptInputError: `illegal base64 data at input byte N`. */
export class CorruptInputError implements GoError {
  constructor(readonly offset: number) {}
  error(): string {
    return `illegal base64 data at input byte ${this.offset}`
  }
}

/**
 * StdEncoding.DecodeString(s) for a byte string `s` (one char code per byte). On error, Go
 * returns the bytes decoded so far too; callers here only need the error.
 */
export function decodeString(s: string): Result<Buffer> {
  const out: number[] = []
  const n = s.length
  let si = 0
  const dbuf = [0, 0, 0, 0]
  while (si < n) {
    let dlen = 4
    let trailing: CorruptInputError | null = null
    dbuf[0] = dbuf[1] = dbuf[2] = dbuf[3] = 0
    let j = 0
    for (; j < 4; j++) {
      if (si === n) {
        if (j === 0) return { ok: true, value: Buffer.from(out) }
        // StdEncoding pads: an unfinished group is an error at its start.
        return { ok: false, err: new CorruptInputError(si - j) }
      }
      const c = s.charCodeAt(si) & 0xff
      si++
      const v = DECODE[c]
      if (v !== 0xff) {
        dbuf[j] = v
        continue
      }
      if (c === NL || c === CR) {
        j--
        continue
      }
      if (c !== PAD) return { ok: false, err: new CorruptInputError(si - 1) }
      // Padding: the end of the data.
      if (j === 0 || j === 1) return { ok: false, err: new CorruptInputError(si - 1) }
      if (j === 2) {
        while (si < n && (s.charCodeAt(si) === NL || s.charCodeAt(si) === CR)) si++
        if (si === n) return { ok: false, err: new CorruptInputError(n) }
        if (s.charCodeAt(si) !== PAD) return { ok: false, err: new CorruptInputError(si - 1) }
        si++
      }
      while (si < n && (s.charCodeAt(si) === NL || s.charCodeAt(si) === CR)) si++
      if (si < n) trailing = new CorruptInputError(si)
      dlen = j
      break
    }
    const val = (dbuf[0] << 18) | (dbuf[1] << 12) | (dbuf[2] << 6) | dbuf[3]
    const b = [(val >>> 16) & 0xff, (val >>> 8) & 0xff, val & 0xff]
    for (let k = 0; k < dlen - 1; k++) out.push(b[k])
    if (trailing) return { ok: false, err: trailing }
    if (dlen < 4) break
  }
  return { ok: true, value: Buffer.from(out) }
}
