/**
 * Go's path/filepath on unix, over byte strings: Clean, Join, Split, Base, Dir,
 * Ext, IsAbs, Abs and Rel. Lexical, except Abs, which asks for the working directory.
 */
import { ErrorString, fail, ok, type Result } from '../../errors.js'
import type { GoBytes, GoString } from '../../gostring.js'
import { getwdResult } from '../../os/file.js'

export const SEPARATOR = '/'

const SLASH = 0x2f
const DOT = 0x2e

/**
 * filepath.Clean: the shortest lexically equivalent path. Repeated slashes and "."
 * elements go, each ".." removes the element before it (at the root it is dropped),
 * a trailing slash goes unless the result is "/", and "" becomes ".".
 */
export function clean(path: GoString): GoString {
  if (path === '') return '.'
  if (isClean(path)) return path
  const n = path.length
  const rooted = path.charCodeAt(0) === SLASH
  // out is Go's output buffer; dotdot is where ".." may no longer backtrack.
  let out = rooted ? '/' : ''
  let r = rooted ? 1 : 0
  let dotdot = r
  while (r < n) {
    const c = path.charCodeAt(r)
    if (c === SLASH) {
      r++ // empty element
    } else if (c === DOT && (r + 1 === n || path.charCodeAt(r + 1) === SLASH)) {
      r++ // "." element
    } else if (
      c === DOT &&
      path.charCodeAt(r + 1) === DOT &&
      (r + 2 === n || path.charCodeAt(r + 2) === SLASH)
    ) {
      r += 2 // ".." element
      if (out.length > dotdot) {
        let w = out.length - 1
        while (w > dotdot && out.charCodeAt(w) !== SLASH) w--
        out = out.slice(0, w)
      } else if (!rooted) {
        out += out.length > 0 ? '/..' : '..'
        dotdot = out.length
      }
    } else {
      if (out.length !== (rooted ? 1 : 0)) out += '/'
      let e = r + 1
      while (e < n && path.charCodeAt(e) !== SLASH) e++
      out += path.slice(r, e)
      r = e
    }
  }
  return out === '' ? '.' : out
}

/**
 * Whether Clean would return path unchanged: no empty, "." or ".." element and no
 * trailing slash ("/" itself is clean). Most paths the loader handles are, so this scan
 * spares building a copy.
 */
function isClean(path: GoString): boolean {
  const n = path.length
  if (n > 1 && path.charCodeAt(n - 1) === SLASH) return false
  let start = path.charCodeAt(0) === SLASH ? 1 : 0
  if (start === 1 && n === 1) return true
  while (start < n) {
    let end = start
    while (end < n && path.charCodeAt(end) !== SLASH) end++
    const len = end - start
    if (len === 0) return false
    if (path.charCodeAt(start) === DOT && (len === 1 || (len === 2 && path.charCodeAt(start + 1) === DOT)))
      return false
    start = end + 1
  }
  return true
}

/** filepath.Join: the non-empty elements joined by "/" and Cleaned; "" if there are none. */
export function join(...elem: GoString[]): GoString {
  for (let i = 0; i < elem.length; i++) {
    if (elem[i] !== '') return clean(i === 0 ? elem.join('/') : elem.slice(i).join('/'))
  }
  return ''
}

/** filepath.IsAbs */
export function isAbs(path: GoString): boolean {
  return path.charCodeAt(0) === SLASH
}

/** filepath.Split: [dir, file] around the last slash, dir keeping it; dir + file === path. */
export function split(path: GoBytes): [GoString, GoString] {
  const i = path.lastIndexOf('/')
  return [path.slice(0, i + 1), path.slice(i + 1)]
}

/** filepath.Ext: the suffix from the final "." of the last element, or "". */
export function ext(path: GoString): GoString {
  for (let i = path.length - 1; i >= 0 && path.charCodeAt(i) !== SLASH; i--) {
    if (path.charCodeAt(i) === DOT) return path.slice(i)
  }
  return ''
}

/** filepath.Base: the last element, trailing slashes ignored; "." for "", "/" for all slashes. */
export function base(path: GoString): GoString {
  if (path === '') return '.'
  let end = path.length
  while (end > 0 && path.charCodeAt(end - 1) === SLASH) end--
  if (end === 0) return '/'
  return path.slice(path.lastIndexOf('/', end - 1) + 1, end)
}

/** filepath.Dir: everything before the last element, Cleaned. */
export function dir(path: GoString): GoString {
  // Go cleans path[:i+1]; without its trailing slash, the same (Clean drops it) but a path
  // that is clean already stays on Clean's fast path.
  const i = path.lastIndexOf('/')
  return i <= 0 ? (i === 0 ? '/' : '.') : clean(path.slice(0, i))
}

/** filepath.Abs: Clean(path) if absolute, else Join(os.Getwd(), path). */
export function abs(path: GoString): Result<GoString> {
  if (isAbs(path)) return ok(clean(path))
  const wd = getwdResult()
  if (!wd.ok) return wd
  return ok(join(wd.value, path))
}

/**
 * filepath.Rel: a relative path that, joined to basepath, is lexically targpath.
 * Fails when one is absolute and the other not, or when basepath would have to
 * climb out of a leading "..".
 */
export function rel(basepath: GoString, targpath: GoString): Result<GoString> {
  let base = clean(basepath)
  const targ = clean(targpath)
  if (targ === base) return ok('.')
  if (base === '.') base = ''
  const cannot = () =>
    fail<GoString>(new ErrorString("Rel: can't make " + targpath + ' relative to ' + basepath))
  if ((base.charCodeAt(0) === SLASH) !== (targ.charCodeAt(0) === SLASH)) return cannot()
  // Position base[b0:bi] and targ[t0:ti] at the first differing elements.
  const bl = base.length
  const tl = targ.length
  let b0 = 0
  let bi = 0
  let t0 = 0
  let ti = 0
  for (;;) {
    while (bi < bl && base.charCodeAt(bi) !== SLASH) bi++
    while (ti < tl && targ.charCodeAt(ti) !== SLASH) ti++
    if (targ.slice(t0, ti) !== base.slice(b0, bi)) break
    if (bi < bl) bi++
    if (ti < tl) ti++
    b0 = bi
    t0 = ti
  }
  if (base.slice(b0, bi) === '..') return cannot()
  if (b0 !== bl) {
    // Base elements left: go up before going down.
    let up = '..'
    for (let i = b0; i < bl; i++) if (base.charCodeAt(i) === SLASH) up += '/..'
    return ok(t0 !== tl ? up + '/' + targ.slice(t0) : up)
  }
  return ok(targ.slice(t0))
}
