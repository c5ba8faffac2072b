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
  createReadStream,
  fchmodSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join as nodeJoin } from 'node:path'
import type { Readable } from 'node:stream'
import { createGunzip } from 'node:zlib'
import { fromText, type GoString, toBuffer } from '../go/gostring.js'
import { fromNodeError } from '../go/os/errors.js'
import { readDirEntries } from '../go/os/file.js'
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
  try {
    mkdirSync(toBuffer(p), { recursive: true, mode: 0o755 })
  } catch (e) {
    osErr(e, 'mkdir', p)
  }
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

async function extractTar(input: Readable, dest: GoString, gz: boolean): Promise<void> {
  const { extract } = await import('tar-stream')
  const ex = extract({ filenameEncoding: 'latin1', allowUnknownFormat: true } as never)
  let source: Readable = input
  if (gz) {
    const gunzip = createGunzip()
    source = input.pipe(gunzip)
    input.on('error', (e) => gunzip.destroy(e))
  }
  source.pipe(ex)
  source.on('error', (e) => ex.destroy(e))
  try {
    for await (const entry of ex) {
      const h = entry.header
      const name = h.name
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
    const code = (e as { code?: string }).code
    const msg = (e as Error).message
    if (gz && code === 'Z_DATA_ERROR' && /incorrect header check/.test(msg)) {
      throw new ExtractError('gzip: gzip: invalid header')
    }
    if (code === 'Z_BUF_ERROR' || /unexpected end|Unexpected end/i.test(msg))
      throw new ExtractError('tar: unexpected EOF')
    if (/Invalid tar header/.test(msg)) throw new ExtractError('tar: archive/tar: invalid tar header')
    throw new ExtractError(`tar: ${msg}`, false)
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
      else await extractTar(createReadStream(file), dest, format === 'tar.gz')
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
