/**
 * This user's private dirs: where the program keeps what lives outside a repository (the
 * launcher's and Node's code caches, the single executable's unpacked package, the local audit
 * store). What is kept there is run or trusted later, so a dir is used only when no other user
 * can have put anything in it:
 *
 * - the dirs of the program's own (`ongrid-skill/` and below, or a dir the user names) are real
 *   dirs, not symbolic links (checked with lstat), owned by this user (the effective uid) and not
 *   writable by group or others; missing ones are created 0700;
 * - every dir above them, on the resolved path, is owned by root or this user and writable by no
 *   one else unless sticky (`/tmp`: no one else can rename or remove what is ours there).
 *
 * Anything else is an UnsafeDirError naming the path and what is wrong with it. Node builtins and
 * errors.ts only: scripts/bundle.mjs also builds this module on its own (dist/bundle/user-dirs.cjs)
 * for bin/run.js and the single executable, which check their dirs before any other module loads.
 */
import { lstatSync, mkdirSync, realpathSync } from 'node:fs'
import { homedir, tmpdir } from 'node:os'
import { dirname, isAbsolute, join, parse, sep } from 'node:path'
import { UserError } from './errors.js'

/** A dir refused: it is not this user's own, or someone else may write in it or above it. */
export class UnsafeDirError extends UserError {}

/** The XDG base dirs the program uses, and their defaults under $HOME. */
export type DirKind = 'cache' | 'config' | 'state'

const XDG: Record<DirKind, [string, string[]]> = {
  cache: ['XDG_CACHE_HOME', ['.cache']],
  config: ['XDG_CONFIG_HOME', ['.config']],
  state: ['XDG_STATE_HOME', ['.local', 'state']],
}

/** The program's name in the XDG dirs: `$XDG_CACHE_HOME/ongrid-skill/`, … */
export const APP_DIR = 'ongrid-skill'

/**
 * $XDG_<KIND>_HOME when it is an absolute path (the spec says to ignore a relative one), else
 * its default under $HOME (or the passwd entry's home); null when there is no home at all (a uid
 * with no passwd entry and no $HOME).
 */
export function xdgBase(kind: DirKind, env: NodeJS.ProcessEnv = process.env): string | null {
  const [name, fallback] = XDG[kind]
  const set = env[name]
  if (set !== undefined && isAbsolute(set)) return set
  let home = env.HOME ?? ''
  if (home === '') {
    try {
      home = homedir()
    } catch {
      return null
    }
  }
  return isAbsolute(home) ? join(home, ...fallback) : null
}

/** `<xdgBase(kind)>/ongrid-skill/<parts…>`, created and checked (privateDir); null with no home. */
export function userDir(
  kind: DirKind,
  parts: string[] = [],
  env: NodeJS.ProcessEnv = process.env,
): string | null {
  const base = xdgBase(kind, env)
  return base === null ? null : privateDir(base, [APP_DIR, ...parts])
}

/** The effective uid; an UnsafeDirError where there is none to check against (not POSIX). */
function euid(path: string): number {
  if (typeof process.geteuid !== 'function')
    throw new UnsafeDirError(`${path}: no uid to check its owner against`)
  return process.geteuid()
}

/**
 * `<anchor>/<parts…>` as a dir of this user's own: `anchor` (created 0700 with its missing parents)
 * is resolved and every dir on its real path checked (root's or ours, writable by no one else
 * unless sticky); each of `parts` is created 0700 when missing and must then be a real dir (not a
 * link), owned by this user, not writable by group or others. Returns the real path, which later
 * opens use (no link on it is followed again). Throws UnsafeDirError.
 */
export function privateDir(anchor: string, parts: string[]): string {
  const uid = euid(anchor)
  makeDirs(anchor)
  let at: string
  try {
    at = realpathSync(anchor)
  } catch (e) {
    throw new UnsafeDirError(`${anchor}: ${code(e)}`)
  }
  checkAncestors(at, uid)
  for (const part of parts) {
    if (part === '' || part === '.' || part === '..' || part.includes(sep))
      throw new UnsafeDirError(`${join(at, part)}: not a plain name`)
    at = join(at, part)
    try {
      mkdirSync(at, { mode: 0o700 })
    } catch (e) {
      if (code(e) !== 'EEXIST') throw new UnsafeDirError(`mkdir ${at}: ${code(e)}`)
    }
    checkOwn(at, uid)
  }
  return at
}

/**
 * A dir the user named for the program's own use (NODE_COMPILE_CACHE, ONGRID_SKILL_SEA_DIR): an
 * absolute path, used as privateDir(its parent, [its name]), so the dir itself is never a link.
 */
export function namedPrivateDir(path: string): string {
  if (!isAbsolute(path)) throw new UnsafeDirError(`${path}: not an absolute path`)
  const { dir, base } = parse(path.replace(/\/+$/, '') || '/')
  if (base === '') throw new UnsafeDirError(`${path}: the root dir is no private dir`)
  return privateDir(dir, [base])
}

/**
 * An existing dir something private may be put in (`marketplace keygen`'s keys, temp dirs): its
 * real path, every dir on it root's or this user's and writable by no one else unless sticky (in
 * a sticky dir no one else can rename or remove what is ours). Nothing is created. Throws
 * UnsafeDirError (a missing dir too, with its errno code).
 */
export function checkSafeDir(dir: string): string {
  const uid = euid(dir)
  let real: string
  try {
    real = realpathSync(dir)
  } catch (e) {
    throw new UnsafeDirError(`${dir}: ${code(e)}`)
  }
  checkAncestors(real, uid)
  return real
}

/**
 * A file the program keeps in a dir of its own (`<dir>/<name>`, dir made by privateDir: the local
 * audit store), checked before it is read, creating nothing: `dir`'s parent passes
 * checkSafeDir, `dir` is a real dir of this user's that no one else may write (checkOwn), and the
 * file a regular file (not a link) of this user's that no one else may write. A missing dir or
 * file is not an error here (false: the reader says it is missing); anything else not so is an
 * UnsafeDirError naming the path.
 */
export function checkOwnFile(dir: string, name: string): boolean {
  const uid = euid(dir)
  try {
    lstatSync(dir)
  } catch (e) {
    if (code(e) === 'ENOENT') return false
    throw new UnsafeDirError(`${dir}: ${code(e)}`)
  }
  checkSafeDir(dirname(dir))
  checkOwn(dir, uid)
  const file = join(dir, name)
  let st: ReturnType<typeof lstatSync>
  try {
    st = lstatSync(file)
  } catch (e) {
    if (code(e) === 'ENOENT') return false
    throw new UnsafeDirError(`${file}: ${code(e)}`)
  }
  if (st.isSymbolicLink()) throw new UnsafeDirError(`${file}: a symbolic link, not a file`)
  if (!st.isFile()) throw new UnsafeDirError(`${file}: not a regular file`)
  if (st.uid !== uid) throw new UnsafeDirError(`${file}: ${ownedBy(st.uid, uid)}`)
  if ((st.mode & 0o022) !== 0) throw new UnsafeDirError(`${file}: ${writable(st.mode)}`)
  return true
}

/** The private dir temp dirs go in when the OS temp dir is not safe: `<cache>/ongrid-skill/tmp`. */
export const TEMP_FALLBACK = 'tmp'

/**
 * Where the program makes its temp dirs (archive extractions, `remote push`'s archive, traces):
 * the OS temp dir (`$TMPDIR`, else `/tmp`) when checkSafeDir passes it, so that no other user can
 * rename a dir of ours there and put one of theirs in its place; else (another user may write it
 * or a dir above it, not sticky; or it is missing) `$XDG_CACHE_HOME/ongrid-skill/tmp/`, a
 * private dir (privateDir). With neither, an UnsafeDirError naming both.
 */
export function tempBase(env: NodeJS.ProcessEnv = process.env): string {
  const tmp = tmpdir()
  let why: string
  try {
    return checkSafeDir(tmp)
  } catch (e) {
    if (!(e instanceof UnsafeDirError)) throw e
    why = e.message
  }
  try {
    const own = userDir('cache', [TEMP_FALLBACK], env)
    if (own !== null) return own
  } catch (e) {
    if (!(e instanceof UnsafeDirError)) throw e
    throw new UnsafeDirError(`no safe temp dir: TMPDIR ${why}; and ${e.message}`)
  }
  throw new UnsafeDirError(`no safe temp dir: TMPDIR ${why}; and no home for a private one (set TMPDIR)`)
}

/** mkdir -p, 0700 for each dir made (EEXIST is fine: checked after). */
function makeDirs(path: string): void {
  const missing: string[] = []
  for (let at = path; ; at = dirname(at)) {
    try {
      lstatSync(at)
      break
    } catch (e) {
      if (code(e) !== 'ENOENT' || dirname(at) === at) throw new UnsafeDirError(`${at}: ${code(e)}`)
      missing.push(at)
    }
  }
  for (const d of missing.reverse()) {
    try {
      mkdirSync(d, { mode: 0o700 })
    } catch (e) {
      if (code(e) !== 'EEXIST') throw new UnsafeDirError(`mkdir ${d}: ${code(e)}`)
    }
  }
}

/** Every dir from `real` (a resolved path) up to `/`: root's or ours, no one else may write. */
function checkAncestors(real: string, uid: number): void {
  for (let at = real; ; at = dirname(at)) {
    const st = lstatOf(at)
    if (!st.isDirectory()) throw new UnsafeDirError(`${at}: not a directory`)
    if (st.uid !== 0 && st.uid !== uid) throw new UnsafeDirError(`${at}: ${ownedBy(st.uid, uid)}`)
    if ((st.mode & 0o022) !== 0 && (st.mode & 0o1000) === 0)
      throw new UnsafeDirError(`${at}: ${writable(st.mode)}`)
    if (dirname(at) === at) return
  }
}

/** A dir of the program's own: a real dir, ours, not writable by group or others (else throws). */
export function checkOwn(at: string, uid: number = euid(at)): void {
  const st = lstatOf(at)
  if (st.isSymbolicLink()) throw new UnsafeDirError(`${at}: a symbolic link, not a directory`)
  if (!st.isDirectory()) throw new UnsafeDirError(`${at}: not a directory`)
  if (st.uid !== uid) throw new UnsafeDirError(`${at}: ${ownedBy(st.uid, uid)}`)
  if ((st.mode & 0o022) !== 0) throw new UnsafeDirError(`${at}: ${writable(st.mode)}`)
}

function lstatOf(at: string) {
  try {
    return lstatSync(at)
  } catch (e) {
    throw new UnsafeDirError(`${at}: ${code(e)}`)
  }
}

export const ownedBy = (owner: number, uid: number) => `owned by uid ${owner}, not by this user (uid ${uid})`
const writable = (mode: number) =>
  `writable by ${mode & 0o020 ? 'group' : ''}${(mode & 0o022) === 0o022 ? ' and ' : ''}${mode & 0o002 ? 'others' : ''} (mode ${(mode & 0o7777).toString(8).padStart(4, '0')})`
const code = (e: unknown) => (e as NodeJS.ErrnoException).code ?? (e as Error).message
