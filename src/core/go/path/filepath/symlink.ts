/**
 * Go's filepath.EvalSymlinks on unix (walkSymlinks in path/filepath/symlink.go).
 *
 * Go 1.25 differs from 1.19 in one place (the fix is in the 1.23+ source we
 * checked; the exact release is unknown), reproduced here: after following a
 * symlink to an absolute path, the leading "/" becomes the new volume prefix
 * (`vol = link[:1]; volLen = 1`). In 1.19 a relative input kept an empty prefix,
 * so a later ".." could strip that "/" and make the result relative again
 * (1.19: "l/../x" with l -> /abs gives "x"; 1.25 gives "/x").
 */
import { ErrorString, fail, ok, type Result } from '../../errors.js'
import type { GoString } from '../../gostring.js'
import { ENOTDIR } from '../../os/errors.js'
import { type FileInfo, lstat, readlink } from '../../os/file.js'
import { clean } from './path.js'

const SLASH = 0x2f
const MAX_LINKS = 255

/** The index of the last "/" in dest at or after volLen, else -1 (Go leaves r < volLen). */
function lastSlash(dest: GoString, volLen: number): number {
  let r = dest.length - 1
  while (r >= volLen && dest.charCodeAt(r) !== SLASH) r--
  return r
}

/**
 * filepath.EvalSymlinks: path with every symlink resolved, component by component,
 * Cleaned. A relative path stays relative unless a link is absolute. Errors are
 * Lstat's and Readlink's as they are, the bare ENOTDIR for a non-directory with
 * more path after it, and "EvalSymlinks: too many links" past 255 links.
 * `lstatFn` lets a caller that resolves many paths in an unchanging tree memoize Lstat.
 */
export function evalSymlinks(
  path: GoString,
  lstatFn: (p: GoString) => Result<FileInfo> = lstat,
  known?: KnownPrefix,
): Result<GoString> {
  const r = walkSymlinks(path, lstatFn, known)
  return r.ok ? ok(clean(r.value.dest)) : r
}

/** How far walkSymlinks has got: the path resolved so far (not yet Cleaned), and the links followed. */
export interface SymlinkWalk {
  dest: GoString
  links: number
}

/**
 * A directory whose resolution a caller knows already: `prefix` (absolute and Clean) resolves to
 * `at` when more path follows it. evalSymlinks of a path under it starts from there — for a loader
 * resolving thousands of entries under the same few directories.
 */
export interface KnownPrefix {
  prefix: GoString
  at: SymlinkWalk
}

/**
 * walkSymlinks up to the end of an absolute `dir` with more path to follow: where the resolution of
 * any path under dir stands after dir's components (see KnownPrefix).
 */
export function walkDirSymlinks(
  dir: GoString,
  lstatFn: (p: GoString) => Result<FileInfo> = lstat,
): Result<SymlinkWalk> {
  // A final component that is not a directory fails only with more path after it: give it some.
  return walkSymlinks(`${dir}/.`, lstatFn)
}

function walkSymlinks(
  path: GoString,
  lstatFn: (p: GoString) => Result<FileInfo>,
  known?: KnownPrefix,
): Result<SymlinkWalk> {
  // volLen covers the leading slash of an absolute path (there are no volumes on unix).
  let volLen = path.charCodeAt(0) === SLASH ? 1 : 0
  let vol = path.slice(0, volLen)
  let dest = vol
  let linksWalked = 0
  let from = volLen
  if (
    known !== undefined &&
    volLen === 1 &&
    path.length > known.prefix.length &&
    path.charCodeAt(known.prefix.length) === SLASH &&
    path.startsWith(known.prefix)
  ) {
    // An absolute path keeps "/" as its volume whatever links it follows.
    dest = known.at.dest
    linksWalked = known.at.links
    from = known.prefix.length
  }
  for (let start = from, end = from; start < path.length; start = end) {
    while (start < path.length && path.charCodeAt(start) === SLASH) start++
    end = start
    while (end < path.length && path.charCodeAt(end) !== SLASH) end++

    if (end === start) break // no more components
    const elem = path.slice(start, end)
    if (elem === '.') continue
    if (elem === '..') {
      // Back up to the previous component, unless there is none or it is a kept "..".
      const r = lastSlash(dest, volLen)
      if (r < volLen || dest.slice(r + 1) === '..') {
        if (dest.length > volLen) dest += '/'
        dest += '..'
      } else {
        dest = dest.slice(0, r)
      }
      continue
    }

    // An ordinary component: add it, then see whether it is a symlink.
    if (dest.length > 0 && dest.charCodeAt(dest.length - 1) !== SLASH) dest += '/'
    dest += elem

    const fi = lstatFn(dest)
    if (!fi.ok) return fail(fi.err)
    if (!fi.value.isSymlink()) {
      if (!fi.value.isDir() && end < path.length) return fail(ENOTDIR)
      continue
    }

    linksWalked++
    if (linksWalked > MAX_LINKS) return fail(new ErrorString('EvalSymlinks: too many links'))
    const link = readlink(dest)
    if (!link.ok) return fail(link.err)

    // Continue with the link's text in place of the component.
    path = link.value + path.slice(end)
    if (link.value.charCodeAt(0) === SLASH) {
      dest = '/'
      end = 1
      vol = '/' // not in Go 1.19; see the file comment
      volLen = 1
    } else {
      const r = lastSlash(dest, volLen)
      dest = r < volLen ? vol : dest.slice(0, r)
      end = 0
    }
  }
  return ok({ dest, links: linksWalked })
}
