/**
 * A zip upload extracted as the endpoint does: the directory and entries as Go's archive/zip
 * reads them (its texts for damaged archives), symlinks written as files.
 */

import { closeSync, fchmodSync, writeSync } from 'node:fs'
import {
  readDirectory,
  ZIP_FORMAT,
  type ZipDirEntry,
  type ZipEntryInfo,
  ZipError,
  zipMode,
} from '../../go/archive/zip/reader.js'
import type { GoString } from '../../go/gostring.js'
import { update as crc32 } from '../../go/hash/crc32/crc32.js'
import { quote } from '../../go/strconv/quote.js'
import { create, type Dest, dirOf, filePerm, safeJoin } from './dest.js'
import { ExtractError } from './errors.js'
import { type Budget, MAX_EXTRACTED_FILE } from './limits.js'

/**
 * An entry's content as the endpoint copies it: File.Open (the local header's signature, the
 * method: store or deflate; before the file is created), then at most 128 MiB read through Go's checksum reader. Errors are
 * Go's: `zip: not a valid zip file` (no local header, or more data than the directory says),
 * `zip: unsupported compression algorithm`, `EOF` (a local header past the end of the file),
 * `unexpected EOF` (data short of its size, a missing data descriptor), `zip: checksum error`
 * (checked only when the copy reaches the end of the data). A corrupt deflate stream gives
 * zlib's words, not flate's.
 */
function zipOpen(buf: Buffer, e: ZipEntryInfo): number {
  const at = e.headerOffset
  // A base offset can take it below 0: os.File.ReadAt's error names the manager's temp file.
  if (at < 0) throw new ExtractError('readat ongrid-upload: negative offset', false)
  if (at + 30 > buf.length) throw new ExtractError('EOF')
  if (buf.readUInt32LE(at) !== 0x04034b50) throw new ExtractError(ZIP_FORMAT)
  const body = at + 30 + buf.readUInt16LE(at + 26) + buf.readUInt16LE(at + 28)
  if (e.method !== 0 && e.method !== 8) throw new ExtractError('zip: unsupported compression algorithm')
  return body
}

/** The copy of an opened entry (its data at `body`), through the checksum reader. */
async function zipCopy(
  buf: Buffer,
  e: ZipEntryInfo,
  body: number,
  sink: (chunk: Buffer) => void,
): Promise<void> {
  const section = buf.subarray(Math.min(body, buf.length), Math.min(body + e.compressedSize, buf.length))
  let nread = 0
  let crc = 0
  let left = MAX_EXTRACTED_FILE
  /** Takes one chunk; true once the endpoint's copy has all it will read. */
  const take = (c: Buffer): boolean => {
    const part = c.length > left ? c.subarray(0, left) : c
    nread += part.length
    if (nread > e.uncompressedSize) throw new ExtractError(ZIP_FORMAT)
    crc = crc32(crc, part)
    sink(part)
    left -= part.length
    return left === 0
  }
  if (e.method === 0) {
    for (let p = 0; p < section.length; p += 1 << 20) if (take(section.subarray(p, p + (1 << 20)))) return
  } else {
    const { createInflateRaw } = await import('node:zlib')
    const z = createInflateRaw()
    const full = await new Promise<boolean>((resolve, reject) => {
      z.on('data', (c: Buffer) => {
        try {
          if (take(c)) {
            z.destroy()
            resolve(true)
          }
        } catch (err) {
          z.destroy()
          reject(err)
        }
      })
      z.on('end', () => resolve(false))
      z.on('error', (err) =>
        reject(
          /unexpected end of file/.test(err.message)
            ? new ExtractError('unexpected EOF')
            : new ExtractError(`flate: ${err.message}`, false),
        ),
      )
      z.end(section)
    })
    if (full) return
  }
  // The data's end, before the copy's limit: sizes, then the checksums.
  if (nread !== e.uncompressedSize) throw new ExtractError('unexpected EOF')
  if (e.flags & 8) {
    const d = body + e.compressedSize
    const desc = buf.subarray(Math.min(d, buf.length), Math.min(d + 16, buf.length))
    const sig = desc.length >= 4 && desc.readUInt32LE(0) === 0x08074b50
    if (desc.length < (sig ? 16 : 12)) throw new ExtractError('unexpected EOF')
    if (desc.readUInt32LE(sig ? 4 : 0) !== e.crc32 >>> 0) throw new ExtractError('zip: checksum error')
    if (crc !== e.crc32 >>> 0) throw new ExtractError('zip: checksum error')
  } else if (e.crc32 !== 0 && crc !== e.crc32 >>> 0) throw new ExtractError('zip: checksum error')
}

/** writeFile for a zip entry: O_TRUNC, chmod 0755/0644, then the copy (bytes counted). */
async function writeZipEntry(
  target: GoString,
  buf: Buffer,
  e: ZipEntryInfo,
  mode: number,
  budget: Budget,
): Promise<void> {
  const perm = filePerm(mode)
  const body = zipOpen(buf, e)
  const fd = create(target, perm)
  try {
    fchmodSync(fd, perm)
    await zipCopy(buf, e, body, (c) => {
      budget.add(c.length)
      writeSync(fd, c)
    })
  } finally {
    closeSync(fd)
  }
}

/** zip.OpenReader as the endpoint calls it: its errors wrapped `open zip: %w`. */
function zipDirectory(buf: Buffer): ZipDirEntry[] {
  try {
    return readDirectory(buf)
  } catch (e) {
    if (e instanceof ZipError) throw new ExtractError(`open zip: ${e.goText}`, e.exact)
    throw e
  }
}

export async function extractZip(buf: Buffer, dest: Dest, budget: Budget): Promise<void> {
  for (const f of zipDirectory(buf)) {
    const target = safeJoin(dest.dir, f.name)
    if (target === null) throw new ExtractError(`zip entry escapes archive root: ${quote(f.name)}`)
    budget.entry()
    const { perm, dir } = zipMode(f.creatorVersion, f.externalAttrs, f.name)
    if (dir) {
      dest.mkdirAll(target)
      continue
    }
    dest.mkdirAll(dirOf(target))
    await writeZipEntry(target, buf, f, perm, budget)
  }
}
