/**
 * Go's filepath.Walk (Go 1.25 semantics): lexical order, Lstat on everything,
 * symlinks never followed, and every error handed to the callback.
 */
import { ErrorString, type GoError } from '../../errors.js'
import type { GoString } from '../../gostring.js'
import { type FileInfo, lstat, readDirEntries, readDirNames } from '../../os/file.js'
import { clean, join } from './path.js'

/** fs.SkipDir: skip this directory (or, returned for a file, the rest of its directory). */
export const SKIP_DIR: GoError = new ErrorString('skip this directory')
/** fs.SkipAll (Go 1.20+): stop the walk; Walk then returns null. */
export const SKIP_ALL: GoError = new ErrorString('skip everything and stop the walk')

/**
 * filepath.WalkFunc. `info` is null exactly when Lstat of `path` failed (then `err`
 * is that failure); for a directory whose names could not be read, `info` is set
 * and `err` is the read error. Return SKIP_DIR, SKIP_ALL, another error to stop, or null.
 */
export type WalkFunc = (path: GoString, info: FileInfo | null, err: GoError | null) => GoError | null

/**
 * filepath.Walk: calls fn for root and everything below it. The root is Lstat'ed
 * too, so a root that is a symlink is reported and not descended.
 */
export interface WalkOptions {
  /**
   * Take each child's type from the directory listing instead of an Lstat per child. Same
   * walk on a tree that does not change meanwhile (Go would report an entry deleted between
   * listing and Lstat as an lstat error; this reports it with its listed type); several
   * times fewer system calls.
   */
  direntTypes?: boolean
}

export function walk(root: GoString, fn: WalkFunc, opts: WalkOptions = {}): GoError | null {
  const info = lstat(root)
  const walker = opts.direntTypes ? walkPathDirent : walkPath
  const err = info.ok ? walker(root, info.value, fn) : (fn(root, null, info.err) ?? null)
  if (err === SKIP_DIR || err === SKIP_ALL) return null
  return err
}

// Go's unexported walk: fn for path; for a directory, its names are read first,
// then fn is called (with the read error, if any), then the children in order.
function walkPath(path: GoString, info: FileInfo, fn: WalkFunc): GoError | null {
  if (!info.isDir()) return fn(path, info, null) ?? null

  const names = readDirNames(path)
  const err1 = fn(path, info, names.ok ? null : names.err) ?? null
  // A read error or any result from fn (SKIP_DIR included) ends this directory;
  // the caller decides what the result means.
  if (!names.ok || err1 !== null) return err1

  // Join(path, name) is Clean(path + "/" + name); a name read from a directory is a
  // single plain element, so only path needs cleaning, and only once.
  const dir = clean(path)
  const prefix = dir === '.' ? '' : dir === '/' ? '/' : dir + '/'
  for (const name of names.value) {
    const filename = name === '.' || name === '..' || name.includes('/') ? join(path, name) : prefix + name
    const child = lstat(filename)
    if (!child.ok) {
      const err = fn(filename, null, child.err) ?? null
      if (err !== null && err !== SKIP_DIR) return err
    } else {
      const err = walkPath(filename, child.value, fn)
      if (err !== null && (!child.value.isDir() || err !== SKIP_DIR)) return err
    }
  }
  return null
}

// walkPath with the children's types from the listing (see WalkOptions.direntTypes).
function walkPathDirent(path: GoString, info: FileInfo, fn: WalkFunc): GoError | null {
  if (!info.isDir()) return fn(path, info, null) ?? null
  const dir = clean(path)
  const prefix = dir === '.' ? '' : dir === '/' ? '/' : dir + '/'
  const joinName = (name: GoString) =>
    name === '.' || name === '..' || name.includes('/') ? join(path, name) : prefix + name
  const entries = readDirEntries(path, joinName)
  const err1 = fn(path, info, entries.ok ? null : entries.err) ?? null
  if (!entries.ok || err1 !== null) return err1
  for (const [name, child] of entries.value) {
    const err = walkPathDirent(joinName(name), child, fn)
    if (err !== null && (!child.isDir() || err !== SKIP_DIR)) return err
  }
  return null
}
