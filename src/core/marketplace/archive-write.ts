/**
 * Deterministic pack archives: the same tree gives the same bytes. Entries sorted by path bytes
 * under one top-level folder, directories before their contents, fixed times (1980-01-01), owner
 * 0/0 without names, modes as the upload endpoint keeps them (dirs 0755, files 0755 when any x
 * bit is set, else 0644). tar.gz via tar-stream and zlib, zip via yazl (DOS timestamps only, no
 * time zone in them); both imported lazily.
 */
import { gzipSync } from 'node:zlib'
import type { GoString } from '../go/gostring.js'

export interface PackEntry {
  /** Path under the top-level folder, `/`-separated (byte string); dirs without a trailing `/`. */
  rel: GoString
  dir: boolean
  /** File content (files only). */
  data?: Buffer
  /** The source's permission bits (only its x bits matter). */
  mode: number
}

/** 1980-01-01T00:00:00Z: the earliest time zip can hold. */
export const FIXED_TIME_UTC = new Date(Date.UTC(1980, 0, 1))

function byBytes(a: PackEntry, b: PackEntry): number {
  // A dir sorts just before its contents: compare with a trailing '/' on dirs.
  const ka = a.dir ? `${a.rel}/` : a.rel
  const kb = b.dir ? `${b.rel}/` : b.rel
  return ka < kb ? -1 : ka > kb ? 1 : 0
}

function perm(e: PackEntry): number {
  return e.dir || e.mode & 0o111 ? 0o755 : 0o644
}

function text(b: GoString): string {
  return Buffer.from(b, 'latin1').toString('utf8')
}

export async function writeTarGz(top: GoString, entries: PackEntry[]): Promise<Buffer> {
  const tar = await tarBytes(top, entries)
  return gzipSync(tar, { level: 9 })
}

export async function tarBytes(top: GoString, entries: PackEntry[]): Promise<Buffer> {
  const { pack } = await import('tar-stream')
  const p = pack()
  const chunks: Buffer[] = []
  p.on('data', (c) => chunks.push(c as Buffer))
  const done = new Promise<void>((resolve, reject) => {
    p.on('end', () => resolve())
    p.on('error', reject)
  })
  const common = { mtime: FIXED_TIME_UTC, uid: 0, gid: 0, uname: '', gname: '' }
  p.entry({ ...common, name: `${text(top)}/`, type: 'directory', mode: 0o755 })
  for (const e of [...entries].sort(byBytes)) {
    const name = `${text(top)}/${text(e.rel)}`
    if (e.dir) p.entry({ ...common, name: `${name}/`, type: 'directory', mode: 0o755 })
    else
      p.entry(
        { ...common, name, type: 'file', mode: perm(e), size: e.data?.length ?? 0 },
        e.data ?? Buffer.alloc(0),
      )
  }
  p.finalize()
  await done
  return Buffer.concat(chunks)
}

export async function writeZip(top: GoString, entries: PackEntry[]): Promise<Buffer> {
  const { ZipFile } = await import('yazl')
  const z = new ZipFile()
  // DOS time fields are local time: built from local components they are the same everywhere.
  const mtime = new Date(1980, 0, 1, 0, 0, 0)
  const opts = { mtime, forceDosTimestamp: true }
  z.addEmptyDirectory(`${text(top)}/`, { ...opts, mode: 0o40755 })
  for (const e of [...entries].sort(byBytes)) {
    const name = `${text(top)}/${text(e.rel)}`
    if (e.dir) z.addEmptyDirectory(`${name}/`, { ...opts, mode: 0o40755 })
    else
      z.addBuffer(e.data ?? Buffer.alloc(0), name, { ...opts, mode: 0o100000 | perm(e), compressionLevel: 9 })
  }
  z.end()
  const chunks: Buffer[] = []
  for await (const c of z.outputStream) chunks.push(c as Buffer)
  return Buffer.concat(chunks)
}
