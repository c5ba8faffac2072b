/**
 * Go's filepath.Walk (Go 1.25 semantics): lexical order, Lstat on everything,
 * symlinks never followed, and every error handed to the callback.
 */
import { accessSync, constants } from 'node:fs'
import { ErrorString, type GoError, type Result } from '../../errors.js'
import { type GoString, toBuffer } from '../../gostring.js'
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
  /**
   * With direntTypes: called with a directory's listing when the walk enters it (before fn is
   * called for it), and with null when the walk leaves it. Who resolves paths during the walk can
   * answer Lstat from the listings of the directories the walk is in.
   */
  onDir?: OnDir
}

export type OnDir = (dir: GoString, entries: readonly [GoString, FileInfo][] | null) => void

/** How a walk lists a directory (os.readDirEntries, unless a caller has the listing already). */
export type ReadDir = (dir: GoString, join: (name: GoString) => GoString) => Result<[GoString, FileInfo][]>

export function walk(root: GoString, fn: WalkFunc, opts: WalkOptions = {}): GoError | null {
  const info = lstat(root)
  const err = !info.ok
    ? (fn(root, null, info.err) ?? null)
    : opts.direntTypes
      ? walkPathDirent(root, info.value, fn, opts.onDir)
      : walkPath(root, info.value, fn)
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

/** A Walk (with direntTypes) cut at the children of its root; see splitWalk. */
export interface SplitWalk {
  /** What fn returned for the root: when not null, the walk ends there (Walk returns it). */
  first: GoError | null
  /** The root's children, in walk order. */
  names: GoString[]
  /**
   * Walks the i-th child's subtree exactly as Walk does at that point, with any fn. The error
   * to stop the walk with (fn's SKIP_DIR on a directory already handled), or null.
   */
  walkChild(i: number, fn: WalkFunc, readDir?: ReadDir): GoError | null
}

/**
 * Walk with direntTypes, cut at the root's children so that their subtrees can be walked one by
 * one — and, by another thread, the same ones again (the loader's read-ahead): fn is called for
 * root here, once. Null, before calling fn, when root is not a directory that can be listed:
 * Walk it whole then.
 */
export function splitWalk(root: GoString, fn: WalkFunc, onDir?: OnDir): SplitWalk | null {
  const info = lstat(root)
  if (!info.ok || !info.value.isDir()) return null
  const joinName = childJoiner(root)
  const entries = readDirEntries(root, joinName)
  if (!entries.ok) return null
  const list = entries.value
  onDir?.(root, list)
  const first = fn(root, info.value, null) ?? null
  const lstatChildren = first === null && !searchable(root)
  return {
    first,
    names: first === null ? list.map(([name]) => name) : [],
    walkChild(i, f, readDir) {
      const [name, child] = list[i]
      return walkEntry(joinName(name), child, f, onDir, readDir, lstatChildren)
    },
  }
}

/** Linux's PATH_MAX: a path of this many bytes or more (with its NUL, more than it) is never found. */
const PATH_MAX = 4096

const IS_ROOT = process.getuid?.() === 0

/**
 * Whether this process may search (enter) the directory `dir` it has listed: a directory that
 * can be read but not searched lists its names, and every Lstat below it fails (EACCES). Root
 * may search any directory; anyone else asks the kernel (access X_OK), once per directory.
 */
function searchable(dir: GoString): boolean {
  if (IS_ROOT) return true
  try {
    accessSync(toBuffer(dir), constants.X_OK)
    return true
  } catch {
    return false
  }
}

/**
 * A listed child, walked as Walk walks it after its Lstat; the error to stop with, or null. Go
 * Lstats every child; the listing's type stands in for that Lstat, except where Go's Lstat fails:
 * a path too long for any system call (ENAMETOOLONG) or a child of a directory this process may
 * list but not search (`lstatIt`: EACCES). That failure is what fn is told.
 */
function walkEntry(
  path: GoString,
  listed: FileInfo,
  fn: WalkFunc,
  onDir: OnDir | undefined,
  readDir: ReadDir | undefined,
  lstatIt = false,
): GoError | null {
  if (lstatIt || path.length >= PATH_MAX) {
    const info = lstat(path)
    if (!info.ok) {
      const err = fn(path, null, info.err) ?? null
      return err !== null && err !== SKIP_DIR ? err : null
    }
  }
  const err = walkPathDirent(path, listed, fn, onDir, readDir)
  return err !== null && (!listed.isDir() || err !== SKIP_DIR) ? err : null
}

/** Join(path, name) for names read from path: only path needs cleaning, and only once. */
function childJoiner(path: GoString): (name: GoString) => GoString {
  const dir = clean(path)
  const prefix = dir === '.' ? '' : dir === '/' ? '/' : dir + '/'
  return (name) => (name === '.' || name === '..' || name.includes('/') ? join(path, name) : prefix + name)
}

// walkPath with the children's types from the listing (see WalkOptions.direntTypes).
function walkPathDirent(
  path: GoString,
  info: FileInfo,
  fn: WalkFunc,
  onDir?: OnDir,
  readDir: ReadDir = readDirEntries,
): GoError | null {
  if (!info.isDir()) return fn(path, info, null) ?? null
  const joinName = childJoiner(path)
  const entries = readDir(path, joinName)
  if (!entries.ok) return fn(path, info, entries.err) ?? null
  onDir?.(path, entries.value)
  let err = fn(path, info, null) ?? null
  if (err === null) {
    const lstatChildren = entries.value.length > 0 && !searchable(path)
    for (const [name, child] of entries.value) {
      const e = walkEntry(joinName(name), child, fn, onDir, readDir, lstatChildren)
      if (e !== null) {
        err = e
        break
      }
    }
  }
  onDir?.(path, null)
  return err
}
