/**
 * Files of the program's caches (`lint --cache`, ShellCheck's results): kept only in a dir of this
 * user's own (user-dirs.ts: `$XDG_CACHE_HOME/ongrid-skill/<name>/`, or a dir the user names), read
 * only when the file is a regular file of this user's that no one else may write (checked on the
 * open file, without following a link), with a size bound; written through an exclusive temp file
 * and a rename (atomic-write.ts). A cache that cannot be trusted or read is ignored, with one line
 * said through the warning sink; what it held is computed again. Nothing here throws.
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, unlinkSync } from 'node:fs'
import { isAbsolute, join, resolve } from 'node:path'
import { writeFileAtomic } from '../atomic-write.js'
import { sizeText } from '../read-bounded.js'
import { namedPrivateDir, ownedBy, userDir } from '../user-dirs.js'

/** Where a cache's one-line warnings go (the CLI sets it to stderr); none: said nowhere. */
let sink: ((line: string) => void) | null = null
const said = new Set<string>()

/** Sets where cache warnings go (null: nowhere); each is said once per process. */
export function setCacheWarnings(to: ((line: string) => void) | null): void {
  sink = to
}

function warn(line: string): void {
  if (said.has(line)) return
  said.add(line)
  sink?.(line)
}

/**
 * A cache's dir: `location` (an absolute or relative path: used as a dir of the user's own,
 * created 0700) or `$XDG_CACHE_HOME/ongrid-skill/<name>`; null, with a warning, when it is not
 * this user's own or cannot be made (and when there is no home: then silently).
 */
export function cacheDir(
  name: string,
  location?: string,
  env: NodeJS.ProcessEnv = process.env,
): string | null {
  try {
    if (location !== undefined) return namedPrivateDir(isAbsolute(location) ? location : resolve(location))
    return userDir('cache', [name], env)
  } catch (e) {
    warn(`warning: ${(e as Error).message}: the ${name} cache is not used`)
    return null
  }
}

const euid = () => (typeof process.geteuid === 'function' ? process.geteuid() : -1)

/** Why a cache file may not be trusted (null: it may): a stat of the open file, or an lstat. */
function distrust(st: import('node:fs').Stats): string | null {
  if (st.isSymbolicLink()) return 'a symbolic link'
  if (!st.isFile()) return 'not a regular file'
  if (st.uid !== euid()) return ownedBy(st.uid, euid())
  if ((st.mode & 0o022) !== 0)
    return `writable by ${st.mode & 0o002 ? 'others' : 'group'} (mode ${(st.mode & 0o7777).toString(8).padStart(4, '0')})`
  return null
}

/**
 * The bytes of `<dir>/<name>`, when it is a cache file to trust and at most `maxBytes` long; null
 * when it is missing, and (with a warning) when it is not to be trusted, too large or unreadable.
 */
export function readCacheFile(dir: string, name: string, maxBytes: number): Buffer | null {
  const path = join(dir, name)
  let fd: number
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK)
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    if (code === 'ENOENT') return null
    warn(
      `warning: cache file ${path}: ${code === 'ELOOP' ? 'a symbolic link' : (code ?? 'unreadable')}: not trusted, not read`,
    )
    return null
  }
  try {
    const st = fstatSync(fd)
    const why = distrust(st)
    if (why !== null) {
      warn(`warning: cache file ${path}: ${why}: not trusted, not read`)
      return null
    }
    if (st.size > maxBytes) {
      warn(`warning: cache file ${path}: larger than ${sizeText(maxBytes)}: not read`)
      return null
    }
    const data = Buffer.allocUnsafe(st.size)
    let got = 0
    while (got < data.length) {
      const n = readSync(fd, data, got, data.length - got, null)
      if (n === 0) break
      got += n
    }
    return data.subarray(0, got)
  } catch (e) {
    warn(
      `warning: cache file ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}: not read`,
    )
    return null
  } finally {
    closeSync(fd)
  }
}

/**
 * Writes `<dir>/<name>` (mode 0600) through a temp file and a rename. What stands there and is
 * not to be trusted (a link, another's file, one others may write) is removed first: the dir is
 * ours. A failure is a warning; the run goes on.
 */
export function writeCacheFile(dir: string, name: string, data: Buffer | string): void {
  const path = join(dir, name)
  try {
    let st: import('node:fs').Stats | undefined
    try {
      st = lstatSync(path)
    } catch {}
    if (st !== undefined && distrust(st) !== null) unlinkSync(path)
    writeFileAtomic(path, data, { mode: 0o600 })
  } catch (e) {
    warn(`warning: ${(e as Error).message} (a cache file: the run goes on)`)
  }
}
