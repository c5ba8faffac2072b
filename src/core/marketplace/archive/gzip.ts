/** The gzip header as Go's compress/gzip reads it, up front, with its errors. */

import { ExtractError } from './errors.js'

/**
 * The gzip header's errors (`gzip: EOF`, `gzip: unexpected EOF`, `gzip: invalid header`); returns
 * where the deflate data starts.
 */
export function gzipHeader(buf: Buffer): number {
  if (buf.length === 0) throw new ExtractError('gzip: EOF')
  if (buf.length < 10) throw new ExtractError('gzip: unexpected EOF')
  if (buf[0] !== 0x1f || buf[1] !== 0x8b || buf[2] !== 8) throw new ExtractError('gzip: gzip: invalid header')
  const flg = buf[3]
  let p = 10
  const need = (n: number) => {
    if (p + n > buf.length) throw new ExtractError('gzip: unexpected EOF')
  }
  if (flg & 4) {
    need(2)
    const n = buf.readUInt16LE(p)
    p += 2
    need(n)
    p += n
  }
  for (const bit of [8, 16]) {
    if (flg & bit) {
      const end = buf.indexOf(0, p)
      if (end < 0) throw new ExtractError('gzip: unexpected EOF')
      p = end + 1
    }
  }
  if (flg & 2) need(2)
  return flg & 2 ? p + 2 : p
}
