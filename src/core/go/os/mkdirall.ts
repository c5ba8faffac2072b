/**
 * Go's os.MkdirAll (os/path.go): Stat the path (a non-directory there is ENOTDIR), else make
 * the parent first and Mkdir, accepting a directory that appeared meanwhile. Node's recursive
 * mkdir reports a file in the way as EEXIST, on another path; this gives Go's error.
 */
import { mkdirSync } from 'node:fs'
import type { GoError } from '../errors.js'
import type { GoString } from '../gostring.js'
import { EINVAL, ENOTDIR, fromNodeError, PathError } from './errors.js'
import { lstat, nodePath, stat } from './file.js'

export function mkdirAll(path: GoString, perm: number): GoError | null {
  const st = stat(path)
  if (st.ok) return st.value.isDir() ? null : new PathError('mkdir', path, ENOTDIR)
  let i = path.length
  while (i > 0 && path.charCodeAt(i - 1) === 0x2f) i--
  let j = i
  while (j > 0 && path.charCodeAt(j - 1) !== 0x2f) j--
  if (j > 1) {
    const err = mkdirAll(path.slice(0, j - 1), perm)
    if (err !== null) return err
  }
  const np = nodePath(path)
  if (np === null) return new PathError('mkdir', path, EINVAL)
  try {
    mkdirSync(np, { mode: perm })
  } catch (e) {
    const again = lstat(path)
    if (again.ok && again.value.isDir()) return null
    return fromNodeError(e, 'mkdir', path)
  }
  return null
}
