/**
 * Go's filepath.WalkDir: the root is Lstat'ed (a symlinked root is not entered), each
 * directory is read with os.ReadDir (sorted by name, types from the listing, no symlink
 * followed), fn is called before a directory's children, and again with the error when the
 * directory cannot be read.
 */
import type { GoError } from '../../errors.js'
import type { GoString } from '../../gostring.js'
import { type FileInfo, lstat, readDirEntries } from '../../os/file.js'
import { join } from './path.js'
import { SKIP_ALL, SKIP_DIR } from './walk.js'

/** fs.WalkDirFunc; `d` is null only when Lstat of the root failed. */
export type WalkDirFunc = (path: GoString, d: FileInfo | null, err: GoError | null) => GoError | null

export function walkDir(root: GoString, fn: WalkDirFunc): GoError | null {
  const info = lstat(root)
  const err = info.ok ? walk(root, info.value, fn) : fn(root, null, info.err)
  if (err === SKIP_DIR || err === SKIP_ALL) return null
  return err
}

function walk(path: GoString, d: FileInfo, fn: WalkDirFunc): GoError | null {
  const first = fn(path, d, null)
  if (first !== null || !d.isDir()) {
    if (first === SKIP_DIR && d.isDir()) return null
    return first
  }
  const prefix = path === '/' ? '/' : `${path}/`
  const entries = readDirEntries(path, (name) => (path.endsWith('/') ? join(path, name) : prefix + name))
  if (!entries.ok) {
    const err = fn(path, d, entries.err)
    if (err !== null) return err === SKIP_DIR ? null : err
  } else {
    for (const [name, info] of entries.value) {
      const child = path.endsWith('/') && path !== '/' ? join(path, name) : prefix + name
      const err = walk(child, info, fn)
      if (err !== null) return err === SKIP_DIR ? null : err
    }
  }
  return null
}
