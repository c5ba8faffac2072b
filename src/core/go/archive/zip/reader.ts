/**
 * archive/zip's reading of an archive held in memory (Go 1.19's, as the manager's): the central
 * directory (OpenReader), and FileHeader.Mode(). Texts are archive/zip's and io's.
 */

import type { GoString } from '../../gostring.js'

/** An error of the reader: Go's text; `exact` false where the text is the nearest we can give. */
export class ZipError extends Error {
  constructor(
    readonly goText: string,
    readonly exact = true,
  ) {
    super(goText)
  }
}

/** zip FileHeader.Mode(): the unix or MS-DOS attributes by creator, ModeDir for a `/` name. */
export function zipMode(
  versionMadeBy: number,
  externalAttrs: number,
  name: GoString,
): { perm: number; dir: boolean } {
  const creator = versionMadeBy >> 8
  let perm = 0
  let dir = false
  if (creator === 3 || creator === 19) {
    const m = externalAttrs >>> 16
    perm = m & 0o777
    dir = (m & 0o170000) === 0o040000
  } else if (creator === 0 || creator === 11 || creator === 14) {
    if (externalAttrs & 0x10) {
      dir = true
      perm = 0o777
    } else perm = externalAttrs & 0x01 ? 0o444 : 0o666
  }
  if (name.endsWith('/')) dir = true
  return { perm, dir }
}

/** archive/zip's ErrFormat. */
export const ZIP_FORMAT = 'zip: not a valid zip file'

/** What archive/zip's File.Open and its checksum reader need from the central directory. */
export interface ZipEntryInfo {
  headerOffset: number
  method: number
  flags: number
  crc32: number
  compressedSize: number
  uncompressedSize: number
}

/** A central directory entry: what File.Open, the checksum reader and FileInfo need. */
export interface ZipDirEntry extends ZipEntryInfo {
  name: GoString
  creatorVersion: number
  externalAttrs: number
}

const u64 = (b: Buffer, at: number): number => Number(b.readBigUInt64LE(at))

/**
 * zip.OpenReader's reading of the archive (Go 1.19's archive/zip): the end record searched in the
 * last 1 KiB then 65 KiB, the zip64 locator and end record, the base offset, then every directory
 * header up to the first that does not read, and the count compared in 16 bits. Errors are
 * thrown as ZipError with Go's text (a caller that wraps them, `open zip: %w`, does so itself).
 */
export function readDirectory(buf: Buffer): ZipDirEntry[] {
  const size = buf.length
  const fail = (text: string, exact = true): never => {
    throw new ZipError(text, exact)
  }
  let endAt = -1
  for (const want of [1024, 65 * 1024]) {
    const len = Math.min(want, size)
    const start = size - len
    for (let i = len - 22; i >= 0; i--) {
      const q = start + i
      if (buf[q] === 0x50 && buf[q + 1] === 0x4b && buf[q + 2] === 5 && buf[q + 3] === 6) {
        if (buf.readUInt16LE(q + 20) + 22 + i <= len) {
          endAt = q
          break
        }
      }
    }
    if (endAt >= 0 || len === size) break
  }
  if (endAt < 0) fail(ZIP_FORMAT)
  let records = buf.readUInt16LE(endAt + 10)
  let dirSize = buf.readUInt32LE(endAt + 12)
  let dirOffset = buf.readUInt32LE(endAt + 16)
  if (records === 0xffff || dirSize === 0xffff || dirOffset === 0xffffffff) {
    const loc = endAt - 20
    if (loc >= 0 && buf.readUInt32LE(loc) === 0x07064b50 && buf.readUInt32LE(loc + 4) === 0) {
      const p = buf.readBigUInt64LE(loc + 8)
      if (buf.readUInt32LE(loc + 16) === 1) {
        if (p > BigInt(Number.MAX_SAFE_INTEGER)) fail('readat: negative offset', false)
        const at = Number(p)
        if (at + 56 > size) fail('EOF')
        if (buf.readUInt32LE(at) !== 0x06064b50) fail(ZIP_FORMAT)
        records = u64(buf, at + 32)
        dirSize = u64(buf, at + 40)
        dirOffset = u64(buf, at + 48)
        endAt = at
      }
    }
  }
  let base = endAt - dirSize - dirOffset
  if (base + dirOffset < 0 || base + dirOffset >= size) fail(ZIP_FORMAT)
  const files: ZipDirEntry[] = []
  let pos = base + dirOffset
  let stop: string
  for (;;) {
    // readDirectoryHeader: ErrFormat or ErrUnexpectedEOF end the directory; io.EOF is returned.
    if (pos >= size) fail('EOF')
    if (size - pos < 46) {
      stop = 'unexpected EOF'
    } else if (buf.readUInt32LE(pos) !== 0x02014b50) {
      stop = ZIP_FORMAT
    } else {
      const h = pos
      const nameLen = buf.readUInt16LE(h + 28)
      const extraLen = buf.readUInt16LE(h + 30)
      const varLen = nameLen + extraLen + buf.readUInt16LE(h + 32)
      if (varLen > 0 && h + 46 === size) fail('EOF')
      if (size - (h + 46) < varLen) stop = 'unexpected EOF'
      else {
        const e: ZipDirEntry = {
          name: buf.toString('latin1', h + 46, h + 46 + nameLen),
          creatorVersion: buf.readUInt16LE(h + 4),
          flags: buf.readUInt16LE(h + 8),
          method: buf.readUInt16LE(h + 10),
          crc32: buf.readUInt32LE(h + 16),
          compressedSize: buf.readUInt32LE(h + 20),
          uncompressedSize: buf.readUInt32LE(h + 24),
          externalAttrs: buf.readUInt32LE(h + 38),
          headerOffset: buf.readUInt32LE(h + 42),
        }
        let needU = e.uncompressedSize === 0xffffffff
        let needC = e.compressedSize === 0xffffffff
        let needO = e.headerOffset === 0xffffffff
        let bad = false
        let x = h + 46 + nameLen
        const xEnd = x + extraLen
        while (xEnd - x >= 4) {
          const tag = buf.readUInt16LE(x)
          const n = buf.readUInt16LE(x + 2)
          x += 4
          if (xEnd - x < n) break
          if (tag === 1) {
            let f = x
            for (const need of ['u', 'c', 'o'] as const) {
              const on = need === 'u' ? needU : need === 'c' ? needC : needO
              if (!on) continue
              if (x + n - f < 8) {
                bad = true
                break
              }
              const v = u64(buf, f)
              f += 8
              if (need === 'u') {
                e.uncompressedSize = v
                needU = false
              } else if (need === 'c') {
                e.compressedSize = v
                needC = false
              } else {
                e.headerOffset = v
                needO = false
              }
            }
            if (bad) break
          }
          x += n
        }
        if (bad || needC || needO) stop = ZIP_FORMAT
        else {
          pos = h + 46 + varLen
          e.headerOffset += base
          files.push(e)
          continue
        }
      }
    }
    // A first header that does not read at the base offset is tried again from the file's start.
    if (stop === ZIP_FORMAT && base !== 0 && files.length === 0) {
      base = 0
      pos = dirOffset
      continue
    }
    break
  }
  if (files.length % 65536 !== records % 65536) fail(stop)
  return files
}
