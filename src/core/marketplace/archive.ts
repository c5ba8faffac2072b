/**
 * The upload endpoint's archive handling (server/marketplace/upload.go, v0.13.4): the type from
 * the file name's suffix only, safeJoin's escape rule, zip and tar entries written as the
 * endpoint writes them (dirs 0755, files 0755 when any x bit is set else 0644, zip symlinks as
 * files, tar symlinks and specials dropped, 128 MiB cut), then descendSingleDir.
 * Readers as Go's: the tar stream walked block by block as archive/tar walks it (where it stops,
 * what an early end means), zip's directory and entries as archive/zip reads them (texts for
 * damaged archives). Nothing is held whole but the upload itself (at most 64 MiB, the endpoint's
 * limit): what it expands to is streamed, counted and stopped at limits of ours (a bomb).
 * tar-stream is imported here only, lazily.
 */

import { closeSync, fchmodSync, openSync, statSync, writeSync } from 'node:fs'
import { UserError } from '../errors.js'
import { tarEnding as goTarEnding, type TarStop, TarWalk } from '../go/archive/tar/reader.js'
import {
  readDirectory,
  ZIP_FORMAT,
  type ZipDirEntry,
  type ZipEntryInfo,
  ZipError,
  zipMode,
} from '../go/archive/zip/reader.js'
import { fromText, type GoString } from '../go/gostring.js'
import { update as crc32 } from '../go/hash/crc32/crc32.js'
import { EINVAL, fromNodeError, PathError, reasonText } from '../go/os/errors.js'
import { nodePath, readDirEntries } from '../go/os/file.js'
import { mkdirAll as goMkdirAll } from '../go/os/mkdirall.js'
import { join, rel } from '../go/path/filepath/path.js'
import { quote } from '../go/strconv/quote.js'
import { NotRegularError, readFileBounded, TooLargeError } from '../read-bounded.js'
import { makeScratch, scratchPlaces } from './scratch.js'

export const MAX_EXTRACTED_FILE = 128 << 20

export type ArchiveFormat = 'zip' | 'tar.gz' | 'tar'

/** extractArchive's choice: the lowercased name's suffix, .zip first. */
export function archiveFormat(filename: string): ArchiveFormat | null {
  const n = filename.toLowerCase()
  if (n.endsWith('.zip')) return 'zip'
  if (n.endsWith('.tar.gz') || n.endsWith('.tgz')) return 'tar.gz'
  if (n.endsWith('.tar')) return 'tar'
  return null
}

/** safeJoin(base, name): Join then Rel; refused when Rel is `..` or starts with `../`. */
export function safeJoin(base: GoString, name: GoString): GoString | null {
  const target = join(base, name)
  const r = rel(base, target)
  if (!r.ok || r.value === '..' || r.value.startsWith('../')) return null
  return target
}

export interface Extracted {
  /** The temp dir everything was extracted into (byte string; remove with cleanup). */
  dest: GoString
  /** The pack root: dest, or its single top-level dir (byte string). */
  root: GoString
  /** Whether descendSingleDir went into a top-level folder. */
  descended: boolean
  cleanup: () => void
}

export type ExtractResult =
  | { ok: true; value: Extracted }
  /**
   * `error` is the handler's error after `invalid argument\n`; `exact` false when it is ours;
   * `ours` when it is no refusal of the manager's but a limit of ours (a bomb: not extracted).
   */
  | { ok: false; error: GoString; exact: boolean; ours?: boolean }

class ExtractError extends Error {
  constructor(
    readonly goText: GoString,
    readonly exact = true,
  ) {
    super(goText)
  }
}

function osErr(e: unknown, op: string, p: GoString): never {
  throw new ExtractError(fromNodeError(e, op, p).error())
}

/** Dirs made or seen during this extraction (MkdirAll of a known dir is a no-op). */
let madeDirs = new Set<GoString>()

function mkdirAll(p: GoString): void {
  if (madeDirs.has(p)) return
  const err = goMkdirAll(p, 0o755)
  if (err !== null) throw new ExtractError(err.error())
  madeDirs.add(p)
}

/**
 * os.OpenFile(target, O_RDWR|O_CREATE|O_TRUNC, perm): a name holding a NUL byte (a zip entry's
 * name may) is Go's EINVAL, where Node would throw a TypeError of its own.
 */
function create(target: GoString, perm: number): number {
  const np = nodePath(target)
  if (np === null) throw new ExtractError(new PathError('open', target, EINVAL).error())
  try {
    return openSync(np, 'w', perm)
  } catch (e) {
    osErr(e, 'open', target)
  }
}

/** writeFile: O_TRUNC, chmod 0755/0644, at most 128 MiB copied. */
async function writeFile(target: GoString, data: AsyncIterable<Buffer>, mode: number): Promise<void> {
  const perm = mode & 0o111 ? 0o755 : 0o644
  const fd = create(target, perm)
  try {
    fchmodSync(fd, perm)
    let left = MAX_EXTRACTED_FILE
    for await (const chunk of data) {
      if (left <= 0) continue
      const part = chunk.length > left ? chunk.subarray(0, left) : chunk
      writeSync(fd, part)
      left -= part.length
    }
  } finally {
    closeSync(fd)
  }
}

function dirOf(p: GoString): GoString {
  return p.slice(0, p.lastIndexOf('/')) || '/'
}

/**
 * The gzip header as Go's compress/gzip reads it, up front: its errors (`gzip: EOF`,
 * `gzip: unexpected EOF`, `gzip: invalid header`); returns where the deflate data starts.
 */
function gzipHeader(buf: Buffer): number {
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

/** The endpoint's text for where the tar reader stopped: Next's errors wrapped `tar: %w`, the copy's bare. */
function tarText(stop: TarStop | null): string | null {
  if (stop === null) return null
  return stop.during === 'next' ? `tar: ${stop.error}` : stop.error
}

/** The endpoint's text for a whole tar stream ending as `d` does (null: a clean end). */
export function tarEnding(d: Buffer, eofIsError: boolean): string | null {
  return tarText(goTarEnding(d, eofIsError, MAX_EXTRACTED_FILE))
}

/** Stops an extraction that grows past what we are willing to write (limits of ours, not the manager's). */
class TooBig extends ExtractError {
  constructor(what: string) {
    super(`${what}; not extracted further${OURS_LIMIT}`, false)
  }
}

const OURS_LIMIT =
  " (a limit of ongrid-skill's, not the manager's: the upload endpoint has no total limit and writes it all, each file cut at 128 MiB)"

/** How much an archive may expand to, and how many entries it may hold, before we stop. */
export const EXTRACT_LIMITS = { bytes: 1 << 30, entries: 100_000 }

function sizeText(n: number): string {
  return n >= 1 << 30 && n % (1 << 30) === 0 ? `${n / (1 << 30)} GiB` : `${Math.round(n / (1 << 20))} MiB`
}

class Budget {
  bytes = 0
  entries = 0
  add(n: number): void {
    this.bytes += n
    if (this.bytes > EXTRACT_LIMITS.bytes)
      throw new TooBig(`the archive expands past ${sizeText(EXTRACT_LIMITS.bytes)}`)
  }
  entry(): void {
    if (++this.entries > EXTRACT_LIMITS.entries)
      throw new TooBig(`the archive holds more than ${EXTRACT_LIMITS.entries} entries`)
  }
}

async function extractTar(buf: Buffer, dest: GoString, gz: boolean, budget: Budget): Promise<void> {
  const { extract } = await import('tar-stream')
  const bodyAt = gz ? gzipHeader(buf) : 0
  const walk = new TarWalk(MAX_EXTRACTED_FILE)
  const ex = extract({ filenameEncoding: 'latin1', allowUnknownFormat: true } as never)
  const exEnd = () => (ex as unknown as { end: () => void }).end()
  let sourceError = null as ExtractError | null
  let cut = false
  let stopFeed = () => {}
  // The walk sees every byte in order as it comes (events, not an iterator: data before an error
  // is never dropped); the parser gets what Go's reader would read, paused while it is behind.
  // A sound gzip of at most 16 MiB (nearly every pack) is decoded at once; anything else, as a stream.
  let whole: Buffer | null = gz ? null : buf
  if (gz) {
    const { gunzipSync } = await import('node:zlib')
    try {
      whole = gunzipSync(buf, { maxOutputLength: Math.min(16 << 20, EXTRACT_LIMITS.bytes) })
    } catch {}
  }
  const fed = new Promise<void>((resolve) => {
    if (whole !== null) {
      for (const part of walk.push(whole)) ex.write(part)
      exEnd()
      resolve()
      return
    }
    import('node:zlib').then(({ createGunzip, createInflateRaw }) => {
      const g = createGunzip()
      let done = false
      const finish = (destroy: boolean) => {
        if (done) return
        done = true
        if (destroy) g.destroy()
        again?.destroy()
        if (sourceError instanceof TooBig) ex.destroy(sourceError)
        else exEnd()
        resolve()
      }
      stopFeed = () => finish(true)
      let seen = 0
      let again: import('node:stream').Transform | null = null
      const take = (chunk: Buffer, from: import('node:stream').Transform): boolean => {
        if (done) return false
        try {
          budget.add(chunk.length)
        } catch (e) {
          sourceError = e as ExtractError
          finish(true)
          return false
        }
        seen += chunk.length
        let full = false
        for (const part of walk.push(chunk)) full = !ex.write(part) || full
        if (walk.stopped !== null) {
          finish(true)
          return false
        }
        if (full) {
          from.pause()
          ex.once('drain', () => from.resume())
        }
        return true
      }
      g.on('data', (chunk: Buffer) => take(chunk, g))
      g.on('end', () => finish(false))
      g.on('error', (e) => {
        if (done) return
        // A cut stream: Go's tar reader sees io.ErrUnexpectedEOF wherever it reads next.
        if (/unexpected end of file/.test(e.message)) {
          cut = true
          return finish(false)
        }
        const failed = new ExtractError(`gzip: ${e.message}`, false)
        // zlib drops the output of the call that fails. Go hands every byte over first, and its
        // tar reader may stop before it reaches the damage (in padding, a bad trailer): the rest
        // again, in small pieces, without the trailer's checks. The parser gets it only if the
        // reader stops within it; else the error stands (Go's tar reader reads on into the damage).
        const a = createInflateRaw({ chunkSize: 64 })
        again = a
        let skip = seen
        const held: Buffer[] = []
        a.on('data', (c: Buffer) => {
          if (done) return
          const rest = skip >= c.length ? null : c.subarray(skip)
          skip = Math.max(0, skip - c.length)
          if (rest === null) return
          try {
            budget.add(rest.length)
          } catch (err) {
            sourceError = err as ExtractError
            return finish(true)
          }
          held.push(...walk.push(rest))
          if (walk.stopped !== null) {
            for (const part of held) ex.write(part)
            finish(true)
          }
        })
        a.on('error', () => {})
        a.on('close', () => {
          if (done) return
          sourceError = failed
          finish(false)
        })
        a.end(buf.subarray(bodyAt))
      })
      g.end(buf)
    })
  })
  try {
    for await (const entry of ex) {
      budget.entry()
      const h = entry.header
      // Names from ustar/GNU headers come as bytes (latin1); a PAX path record is decoded as UTF-8.
      const name = (h as { pax?: { path?: string } }).pax?.path !== undefined ? fromText(h.name) : h.name
      const target = safeJoin(dest, name)
      if (target === null) throw new ExtractError(`tar entry escapes archive root: ${quote(name)}`)
      if (h.type === 'directory') {
        mkdirAll(target)
        entry.resume()
      } else if (h.type === 'file') {
        mkdirAll(dirOf(target))
        await writeFile(target, entry as AsyncIterable<Buffer>, h.mode ?? 0)
      } else {
        entry.resume()
      }
    }
  } catch (e) {
    stopFeed()
    if (e instanceof ExtractError) throw e
    await fed
    if (sourceError !== null) throw sourceError
    const msg = (e as Error).message
    if (/Unexpected end of data/.test(msg)) {
      const ending = tarText(walk.ending(cut))
      if (ending === null) return
      throw new ExtractError(ending)
    }
    if (/Invalid tar header/.test(msg)) throw new ExtractError('tar: archive/tar: invalid tar header')
    throw new ExtractError(`tar: ${msg}`, false)
  } finally {
    stopFeed()
    ex.destroy()
  }
  await fed
  if (sourceError !== null) throw sourceError
  // Where the reader stopped (the end marker, or a bad block after a zero one), or where the
  // stream ended before that; a cut gzip is an error wherever it ends.
  const ending = tarText(walk.ending(cut))
  if (ending !== null) throw new ExtractError(ending)
}

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
  const perm = mode & 0o111 ? 0o755 : 0o644
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

async function extractZip(buf: Buffer, dest: GoString, budget: Budget): Promise<void> {
  for (const f of zipDirectory(buf)) {
    const target = safeJoin(dest, f.name)
    if (target === null) throw new ExtractError(`zip entry escapes archive root: ${quote(f.name)}`)
    budget.entry()
    const { perm, dir } = zipMode(f.creatorVersion, f.externalAttrs, f.name)
    if (dir) {
      mkdirAll(target)
      continue
    }
    mkdirAll(dirOf(target))
    await writeZipEntry(target, buf, f, perm, budget)
  }
}

/** The upload's size limit (a MaxBytesReader over the whole multipart request), and its error. */
export const MAX_UPLOAD = 64 << 20
export const UPLOAD_TOO_LARGE = 'parse upload: http: request body too large'

/**
 * A multipart request that carries a file as the field `file` named `filename`: the boundary
 * (one byte unless given), one header written as tersely as Go's parser takes it, the closing
 * boundary with no line end. What goes before and after the file's bytes.
 */
export function uploadFraming(filename: string, boundary = 'B'): { head: string; tail: string } {
  return {
    head: `--${boundary}\r\nContent-Disposition:form-data;name=file;filename=${minParam(filename)}\r\n\r\n`,
    tail: `\r\n--${boundary}--`,
  }
}

/** The size of that request for a file of `size` bytes: past 64 MiB, no client can upload it. */
export function minUploadRequest(size: number, filename: string, boundary = 'B'): number {
  const { head, tail } = uploadFraming(filename, boundary)
  return Buffer.byteLength(head) + size + Buffer.byteLength(tail)
}

/** A media-type parameter value: a bare token when it is one, else quoted with `"` and `\` escaped. */
function minParam(v: string): string {
  return /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(v) ? v : `"${v.replace(/["\\]/g, '\\$&')}"`
}

/**
 * Extracts `file` into a fresh `ongrid-pack-*` dir as the upload endpoint does, and descends.
 * `file` is a Buffer when its name is not UTF-8; `filename` is then its name as text.
 */
export async function extractUpload(file: string | Buffer, filename = String(file)): Promise<ExtractResult> {
  const format = archiveFormat(filename.slice(filename.lastIndexOf('/') + 1))
  const base = filename.slice(filename.lastIndexOf('/') + 1)
  if (format === null) {
    return {
      ok: false,
      error: `unsupported archive ${quote(base)} (need .zip / .tar.gz / .tgz / .tar)`,
      exact: true,
    }
  }
  let size: number
  try {
    size = statSync(file).size
  } catch (e) {
    throw new ExtractError(fromNodeError(e, 'stat', fromText(filename)).error())
  }
  if (minUploadRequest(size, base) > MAX_UPLOAD) {
    // ParseMultipartForm under the 64 MiB MaxBytesReader: no client can send it.
    return { ok: false, error: UPLOAD_TOO_LARGE, exact: true }
  }
  // At most 64 MiB: read whole; what it expands to is streamed and counted. A FIFO or a device
  // (its size says nothing) is not read: it would block, or never end.
  let buf: Buffer
  try {
    buf = readFileBounded(file, MAX_UPLOAD, { regularOnly: true })
  } catch (e) {
    if (e instanceof TooLargeError) return { ok: false, error: UPLOAD_TOO_LARGE, exact: true }
    // Ours to say, not the endpoint's (no client sends a FIFO): one line, exit 2.
    if (e instanceof NotRegularError)
      throw new UserError(`${filename}: not a regular file (a FIFO or device; give a pack dir or an archive)`)
    throw new UserError(`${filename}: ${reasonText(e)}`)
  }
  const places = scratchPlaces()
  for (let i = 0; i < places.length; i++) {
    const { dir: destText, remove: cleanup } = makeScratch(places[i])
    const dest = fromText(destText)
    madeDirs = new Set([dest])
    try {
      const budget = new Budget()
      if (format === 'zip') await extractZip(buf, dest, budget)
      else await extractTar(buf, dest, format === 'tar.gz', budget)
    } catch (e) {
      cleanup()
      // A full memory file system: try the next place.
      if (e instanceof ExtractError && / no space left on device$/.test(e.goText) && i + 1 < places.length)
        continue
      if (e instanceof TooBig) return { ok: false, error: e.goText, exact: false, ours: true }
      if (e instanceof ExtractError) return { ok: false, error: e.goText, exact: e.exact }
      throw e
    }
    const root = descendSingleDir(dest)
    return { ok: true, value: { dest, root, descended: root !== dest, cleanup } }
  }
  throw new Error('unreachable')
}

/** descendSingleDir: the single entry when it is a real directory (byte strings). */
export function descendSingleDir(dir: GoString): GoString {
  const ents = readDirEntries(dir, (n) => join(dir, n))
  if (!ents.ok || ents.value.length !== 1 || !ents.value[0][1].isDir()) return dir
  return join(dir, ents.value[0][0])
}
