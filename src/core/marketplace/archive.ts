/**
 * The upload endpoint's archive handling (server/marketplace/upload.go, v0.13.4): the type from
 * the file name's suffix only, safeJoin's escape rule, zip and tar entries written as the
 * endpoint writes them (dirs 0755, files 0755 when any x bit is set else 0644, zip symlinks as
 * files, tar symlinks and specials dropped, 128 MiB cut), then descendSingleDir.
 * Archive libraries (tar-stream, yauzl) are imported here only, lazily.
 */
import {
  accessSync,
  closeSync,
  constants,
  fchmodSync,
  mkdtempSync,
  openSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join as nodeJoin } from 'node:path'
import { fromText, type GoString, toBuffer } from '../go/gostring.js'
import { fromNodeError } from '../go/os/errors.js'
import { readDirEntries } from '../go/os/file.js'
import { mkdirAll as goMkdirAll } from '../go/os/mkdirall.js'
import { join, rel } from '../go/path/filepath/path.js'
import { quote } from '../go/strconv/quote.js'

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
  /** `error` is the handler's error after `invalid argument\n`; `exact` false when it is ours. */
  | { ok: false; error: GoString; exact: boolean }

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

/** writeFile: O_TRUNC, chmod 0755/0644, at most 128 MiB copied. */
async function writeFile(target: GoString, data: AsyncIterable<Buffer>, mode: number): Promise<void> {
  const perm = mode & 0o111 ? 0o755 : 0o644
  let fd: number
  try {
    fd = openSync(toBuffer(target), 'w', perm)
  } catch (e) {
    osErr(e, 'open', target)
  }
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
 * The gzip layer as Go's compress/gzip reads it, on the whole file: the header's errors
 * (`gzip: EOF`, `gzip: unexpected EOF`, `gzip: invalid header`), then the data, and whether the
 * compressed stream ended early (Go's tar reader then sees io.ErrUnexpectedEOF where it reads).
 */
async function gunzipAsGo(file: string): Promise<{ tar: Buffer; truncated: boolean }> {
  const { readFileSync } = await import('node:fs')
  const { gunzipSync, constants: z } = await import('node:zlib')
  const buf = readFileSync(file)
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
  try {
    return { tar: gunzipSync(buf), truncated: false }
  } catch (e) {
    if (!/unexpected end of file/.test((e as Error).message)) {
      throw new ExtractError(`gzip: ${(e as Error).message}`, false)
    }
    return { tar: gunzipSync(buf, { finishFlush: z.Z_SYNC_FLUSH }), truncated: true }
  }
}

/** A tar header's size field: octal, or base-256 when the high bit is set. */
function tarSize(b: Buffer, off: number): number {
  if (b[off] & 0x80) {
    let n = b[off] & 0x7f
    for (let i = 1; i < 12; i++) n = n * 256 + b[off + i]
    return n
  }
  const t = b
    .toString('latin1', off, off + 12)
    .replace(/[\0 ]+$/g, '')
    .trim()
  return t === '' ? 0 : Number.parseInt(t, 8) || 0
}

/**
 * Where Go's tar reader stops on a stream that ends early: null for a clean end (at a header
 * boundary, or inside padding), else its error (`tar: unexpected EOF` inside a header or an
 * entry it skips; a bare `unexpected EOF` inside a regular file's data, copied by the endpoint).
 * `eofIsError`: the stream below ended early too (a cut gzip), so Go never sees a clean EOF.
 */
export function tarEnding(d: Buffer, eofIsError: boolean): string | null {
  const clean = eofIsError ? 'tar: unexpected EOF' : null
  let p = 0
  for (;;) {
    if (p === d.length) return clean
    if (d.length - p < 512) return 'tar: unexpected EOF'
    let zero = true
    for (let i = p; i < p + 512; i++) {
      if (d[i] !== 0) {
        zero = false
        break
      }
    }
    if (zero) {
      // The end marker: Go reads one more block, and an early end there is fine.
      const rest = d.length - (p + 512)
      if (rest === 0) return clean
      return rest < 512 ? 'tar: unexpected EOF' : null
    }
    const size = tarSize(d, p + 124)
    const type = d[p + 156]
    const dataEnd = p + 512 + size
    const regular = type === 0x30 || type === 0
    if (d.length < dataEnd) {
      // A regular file's data is copied by the endpoint (a bare io.ErrUnexpectedEOF); others are skipped by Next.
      return regular ? 'unexpected EOF' : 'tar: unexpected EOF'
    }
    // A cut gzip whose data ends exactly with a regular file's: flate hands over its last bytes
    // together with io.ErrUnexpectedEOF, so the endpoint's copy of that file fails, not Next.
    if (eofIsError && regular && size > 0 && d.length === dataEnd) return 'unexpected EOF'
    const padEnd = dataEnd + ((512 - (size % 512)) % 512)
    if (d.length < padEnd) return clean
    p = padEnd
  }
}

async function extractTar(file: string, dest: GoString, gz: boolean): Promise<void> {
  const { extract } = await import('tar-stream')
  let data: Buffer
  let truncated = false
  if (gz) ({ tar: data, truncated } = await gunzipAsGo(file))
  else data = (await import('node:fs')).readFileSync(file)
  const ex = extract({ filenameEncoding: 'latin1', allowUnknownFormat: true } as never)
  ex.end(data)
  try {
    for await (const entry of ex) {
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
    if (e instanceof ExtractError) throw e
    const msg = (e as Error).message
    if (/Unexpected end of data/.test(msg)) {
      const ending = tarEnding(data, truncated)
      if (ending === null) return
      throw new ExtractError(ending)
    }
    if (/Invalid tar header/.test(msg)) throw new ExtractError('tar: archive/tar: invalid tar header')
    throw new ExtractError(`tar: ${msg}`, false)
  }
  if (truncated) {
    // tar-stream read to the end of what the cut gzip gave; Go would have stopped at its end marker.
    const ending = tarEnding(data, true)
    if (ending !== null) throw new ExtractError(ending)
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

async function extractZip(file: string, dest: GoString): Promise<void> {
  const yauzl = await import('yauzl')
  const zip = await new Promise<import('yauzl').ZipFile>((resolve, reject) =>
    yauzl.open(
      file,
      { lazyEntries: true, decodeStrings: false, autoClose: true, validateEntrySizes: false },
      (err, z) =>
        err
          ? reject(
              /end of central directory record signature not found/i.test(err.message)
                ? new ExtractError('open zip: zip: not a valid zip file')
                : new ExtractError(`open zip: ${err.message}`, false),
            )
          : resolve(z),
    ),
  )
  await new Promise<void>((resolve, reject) => {
    zip.on('error', (e) =>
      reject(e instanceof ExtractError ? e : new ExtractError(`zip: ${e.message}`, false)),
    )
    zip.on('end', () => resolve())
    zip.on('entry', (entry: import('yauzl').Entry) => {
      const name = (entry.fileName as unknown as Buffer).toString('latin1')
      const target = safeJoin(dest, name)
      if (target === null) {
        reject(new ExtractError(`zip entry escapes archive root: ${quote(name)}`))
        zip.close()
        return
      }
      const { perm, dir } = zipMode(entry.versionMadeBy, entry.externalFileAttributes, name)
      try {
        if (dir) {
          mkdirAll(target)
          zip.readEntry()
          return
        }
        mkdirAll(dirOf(target))
      } catch (e) {
        reject(e)
        return
      }
      zip.openReadStream(entry, (err, stream) => {
        if (err) return reject(new ExtractError(`zip: ${err.message}`, false))
        writeFile(target, stream, perm).then(
          () => zip.readEntry(),
          (e) => reject(e),
        )
      })
    })
    zip.readEntry()
  })
}

/**
 * Where extractions go: a memory file system when there is one (creating a thousand small files
 * there costs a fraction of a disk's), else the temp dir. Where the tree lies changes nothing the
 * checks see; the paths shown are the archive's.
 */
function scratchDirs(): string[] {
  const dirs = [tmpdir()]
  try {
    if (statSync('/dev/shm').isDirectory()) {
      accessSync('/dev/shm', constants.W_OK)
      dirs.unshift('/dev/shm')
    }
  } catch {}
  return dirs
}

/** Extracts `file` into a fresh `ongrid-pack-*` dir as the upload endpoint does, and descends. */
export async function extractUpload(file: string, filename = file): Promise<ExtractResult> {
  const format = archiveFormat(filename.slice(filename.lastIndexOf('/') + 1))
  const base = filename.slice(filename.lastIndexOf('/') + 1)
  if (format === null) {
    return {
      ok: false,
      error: `unsupported archive ${quote(base)} (need .zip / .tar.gz / .tgz / .tar)`,
      exact: true,
    }
  }
  const places = scratchDirs()
  for (let i = 0; i < places.length; i++) {
    const destText = mkdtempSync(nodeJoin(places[i], 'ongrid-pack-'))
    const dest = fromText(destText)
    const cleanup = () => rmSync(destText, { recursive: true, force: true })
    madeDirs = new Set([dest])
    try {
      if (format === 'zip') await extractZip(file, dest)
      else await extractTar(file, dest, format === 'tar.gz')
    } catch (e) {
      cleanup()
      // A full memory file system: try the next place.
      if (e instanceof ExtractError && / no space left on device$/.test(e.goText) && i + 1 < places.length)
        continue
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
