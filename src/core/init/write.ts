import { constants, lstatSync, readdirSync, type Stats } from 'node:fs'
import * as fsp from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { UserError } from '../errors.js'
import type { PackFile } from './render.js'

/**
 * The file operations the writer uses, so that tests can make one fail half way
 * (an interrupted init must leave nothing behind).
 */
export interface InitFs {
  mkdtemp(prefix: string): Promise<string>
  /** mkdir -p; resolves to the first dir it created, if any. */
  mkdirp(path: string): Promise<string | undefined>
  /** Creates a new file (never replaces one). */
  writeNew(path: string, data: Buffer, mode: number): Promise<void>
  readFile(path: string): Promise<Buffer>
  readdir(path: string): Promise<string[]>
  lstat(path: string): Promise<Stats>
  rename(from: string, to: string): Promise<void>
  /** A second name for a file; fails with EEXIST when `to` exists. */
  link(from: string, to: string): Promise<void>
  /** Copies a file, failing with EEXIST when `to` exists. */
  copyNew(from: string, to: string): Promise<void>
  unlink(path: string): Promise<void>
  rmdir(path: string): Promise<void>
  /** rm -rf */
  removeAll(path: string): Promise<void>
}

export const nodeFs: InitFs = {
  mkdtemp: (prefix) => fsp.mkdtemp(prefix),
  mkdirp: (path) => fsp.mkdir(path, { recursive: true }),
  writeNew: (path, data, mode) => fsp.writeFile(path, data, { mode, flag: 'wx' }),
  readFile: (path) => fsp.readFile(path),
  readdir: (path) => fsp.readdir(path),
  lstat: (path) => fsp.lstat(path),
  rename: (from, to) => fsp.rename(from, to),
  link: (from, to) => fsp.link(from, to),
  copyNew: (from, to) => fsp.copyFile(from, to, constants.COPYFILE_EXCL),
  unlink: (path) => fsp.unlink(path),
  rmdir: (path) => fsp.rmdir(path),
  removeAll: (path) => fsp.rm(path, { recursive: true, force: true }),
}

/** A target init must not write into; nothing was written. */
export class TargetError extends UserError {}

export type TargetState = 'absent' | 'empty' | 'non-empty'

/** What is at the target path; a file (or anything but a dir) is refused. */
export function targetState(dir: string): TargetState {
  let st: Stats
  try {
    st = lstatSync(dir)
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return 'absent'
    throw e
  }
  if (!st.isDirectory()) throw new TargetError(`${dir} exists and is not a directory: nothing written`)
  return readdirSync(dir).length === 0 ? 'empty' : 'non-empty'
}

/** Why a new pack cannot go into dir without --force (for the wizard's live check), or null. */
export function targetProblem(dir: string): string | null {
  try {
    return targetState(dir) === 'non-empty' ? nonEmptyMessage(dir) : null
  } catch (e) {
    return e instanceof TargetError ? e.message : null
  }
}

function nonEmptyMessage(dir: string): string {
  return `${dir} exists and is not empty: nothing written (--force adds only the files it lacks)`
}

export interface WriteOptions {
  /** Add the files a non-empty target lacks, keeping every file it has. */
  force?: boolean
  fs?: InitFs
  /** Aborting (SIGINT) stops between two operations; everything staged is removed. */
  signal?: AbortSignal
  /** Runs in the complete staged pack before it moves into place (the template's build step). */
  beforeCommit?: (stagedDir: string) => Promise<void>
}

export interface WriteResult {
  /** Paths (relative, `/`) now in the pack that init wrote. */
  written: string[]
  /** Paths the target already had (with force), left as they were. */
  kept: string[]
  /** Build outputs not added because the target's sources differ from the template's. */
  skipped: string[]
}

/**
 * Writes a pack so that an interrupted init leaves nothing half written: every file is
 * written into a temp dir next to the target (same filesystem), then
 * - the target is absent or an empty dir: the whole staged dir is renamed into place, one step;
 * - with `force`, into a non-empty dir: each missing file is moved in with a primitive that
 *   never replaces a file (link, or an exclusive copy), and existing files are kept.
 * On any error or abort the temp dir is removed (and, with force, the files already added).
 */
export async function writePack(
  target: string,
  files: PackFile[],
  opts: WriteOptions = {},
): Promise<WriteResult> {
  const fs = opts.fs ?? nodeFs
  const check = () => opts.signal?.throwIfAborted()
  const state = targetState(target)
  if (state === 'non-empty' && !opts.force) throw new TargetError(nonEmptyMessage(target))
  const parent = dirname(target)
  const createdParent = await fs.mkdirp(parent)
  const staging = await fs.mkdtemp(join(parent, `.${basename(target)}.init-`))
  let committed = false
  try {
    // The pack is staged one level down so that it gets a plain dir's mode, not mkdtemp's 0700.
    const staged = join(staging, 'pack')
    await fs.mkdirp(staged)
    for (const f of files) {
      check()
      await fs.mkdirp(dirname(join(staged, f.path)))
      await fs.writeNew(join(staged, f.path), f.content, f.mode)
    }
    check()
    if (opts.beforeCommit) await opts.beforeCommit(staged)
    check()
    // The planned files in their order, then what the build step made.
    const order = new Map(files.map((f, i) => [f.path, i]))
    const all = (await listFiles(fs, staged, '')).sort(
      (a, b) => (order.get(a) ?? files.length) - (order.get(b) ?? files.length),
    )
    let result: WriteResult
    if (state === 'non-empty') {
      result = await addMissing(fs, staged, target, all, new Set(files.map((f) => f.path)), check)
    } else {
      await fs.rename(staged, target)
      result = { written: all, kept: [], skipped: [] }
    }
    committed = true
    return result
  } finally {
    await fs.removeAll(staging).catch(() => {})
    if (!committed && createdParent !== undefined) await fs.removeAll(createdParent).catch(() => {})
  }
}

/** --force: moves in each staged file the target lacks, never replacing one; undone on error. */
async function addMissing(
  fs: InitFs,
  staged: string,
  target: string,
  all: string[],
  planned: Set<string>,
  check: () => void,
): Promise<WriteResult> {
  const kept: string[] = []
  const missing: string[] = []
  let sourcesDiffer = false
  for (const rel of all) {
    if (!(await exists(fs, join(target, rel)))) missing.push(rel)
    else {
      kept.push(rel)
      if (planned.has(rel) && !(await sameBytes(fs, join(staged, rel), join(target, rel))))
        sourcesDiffer = true
    }
  }
  // What the build made from the template's sources does not belong with other sources.
  const skipped = sourcesDiffer ? missing.filter((rel) => !planned.has(rel)) : []
  const added: string[] = []
  const createdDirs: string[] = []
  try {
    for (const rel of missing) {
      if (skipped.includes(rel)) continue
      check()
      const made = await fs.mkdirp(dirname(join(target, rel)))
      if (made !== undefined) createdDirs.push(made)
      if (await moveNew(fs, join(staged, rel), join(target, rel))) added.push(rel)
      else kept.push(rel)
    }
  } catch (e) {
    for (const rel of added.reverse()) await fs.unlink(join(target, rel)).catch(() => {})
    for (const dir of createdDirs.reverse()) await fs.removeAll(dir).catch(() => {})
    throw e
  }
  return { written: added, kept, skipped }
}

/** Moves a file to a path that must not exist; false when it does (the file there is kept). */
async function moveNew(fs: InitFs, from: string, to: string): Promise<boolean> {
  try {
    await fs.link(from, to)
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    if (code === 'EEXIST') return false
    // Filesystems without hard links: an exclusive copy is just as safe for the target.
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'EXDEV') throw e
    try {
      await fs.copyNew(from, to)
    } catch (e2) {
      if ((e2 as NodeJS.ErrnoException).code === 'EEXIST') return false
      throw e2
    }
  }
  await fs.unlink(from)
  return true
}

async function exists(fs: InitFs, path: string): Promise<boolean> {
  try {
    await fs.lstat(path)
    return true
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    if (code === 'ENOENT') return false
    if (code === 'ENOTDIR') return true // a file sits where a dir of the path should be: keep it
    throw e
  }
}

async function sameBytes(fs: InitFs, a: string, b: string): Promise<boolean> {
  try {
    return (await fs.readFile(a)).equals(await fs.readFile(b))
  } catch {
    return false
  }
}

/** Relative paths of the files under dir, names in order. */
async function listFiles(fs: InitFs, dir: string, prefix: string): Promise<string[]> {
  const out: string[] = []
  for (const name of (await fs.readdir(dir)).sort()) {
    const rel = prefix === '' ? name : `${prefix}/${name}`
    if ((await fs.lstat(join(dir, name))).isDirectory())
      out.push(...(await listFiles(fs, join(dir, name), rel)))
    else out.push(rel)
  }
  return out
}
