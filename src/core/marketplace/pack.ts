/**
 * `marketplace pack`'s domain, without oclif: what is left out of an archive (the default
 * excludes and --exclude globs), the tree an archive is made of, and the comparison of what the
 * upload endpoint extracted with what was packed.
 */
import * as fsModule from 'node:fs'
import { UserError } from '../errors.js'
import { type GoString, toText } from '../go/gostring.js'
import { listPackFiles } from './signature.js'

/** Left out of every archive unless --no-default-excludes: version control data and Finder litter. */
export const DEFAULT_EXCLUDES = ['.git', '.hg', '.svn', '.bzr', '_darcs', 'CVS', '.DS_Store']

/**
 * A --exclude glob as a test on a `/`-separated path under the pack: `*` and `?` within one
 * name, `**` across names; a glob without `/` matches a name at any depth (as in .gitignore), one
 * with `/` the path from the pack root; a trailing `/` matches dirs only.
 */
export function excludeTest(glob: string): (rel: string, dir: boolean) => boolean {
  const dirOnly = glob.endsWith('/')
  let g = dirOnly ? glob.slice(0, -1) : glob
  const anchored = g.includes('/')
  if (g.startsWith('/')) g = g.slice(1)
  let re = ''
  for (let i = 0; i < g.length; i++) {
    const c = g[i]
    if (c === '*' && g[i + 1] === '*') {
      const slash = g[i + 2] === '/'
      re += slash ? '(?:.*/)?' : '.*'
      i += slash ? 2 : 1
    } else if (c === '*') re += '[^/]*'
    else if (c === '?') re += '[^/]'
    else re += c.replace(/[\\^$.|+()[\]{}]/g, '\\$&')
  }
  const whole = new RegExp(`^${re}$`)
  return (rel, dir) => {
    if (dirOnly && !dir) return false
    return anchored ? whole.test(rel) : whole.test(rel.slice(rel.lastIndexOf('/') + 1))
  }
}

/** The pack's tree for an archive, or why it cannot be packed faithfully; `skipped` lists what the excludes left out. */
export function collectEntries(
  dir: string,
  exclude: (rel: string, dir: boolean) => boolean,
  skipped: string[],
): import('./archive-write.js').PackEntry[] {
  const { readdirSync, lstatSync: lst, readFileSync: rd } = fsModule
  const out: import('./archive-write.js').PackEntry[] = []
  const problems: string[] = []
  const walkDir = (abs: Buffer, rel: GoString) => {
    for (const name of (readdirSync(abs, { encoding: 'buffer' }) as Buffer[]).sort(Buffer.compare)) {
      const r = rel === '' ? name.toString('latin1') : `${rel}/${name.toString('latin1')}`
      const p = Buffer.concat([abs, Buffer.from('/'), name])
      const shown = toText(r)
      const st = lst(p)
      if (exclude(shown, st.isDirectory())) {
        skipped.push(st.isDirectory() ? `${shown}/` : shown)
        continue
      }
      if (!Buffer.from(name.toString('utf8'), 'utf8').equals(name))
        problems.push(`${shown}: the name is not valid UTF-8`)
      if (name.includes('..'))
        problems.push(
          `${shown}: a name containing ".." (tarball-URL installs drop it, which breaks the signature)`,
        )
      if (st.isSymbolicLink())
        problems.push(
          `${shown}: a symlink (tar uploads drop it, zip uploads turn it into a file: the installed tree would differ)`,
        )
      else if (st.isDirectory()) {
        out.push({ rel: r, dir: true, mode: st.mode })
        walkDir(p, r)
      } else if (st.isFile()) out.push({ rel: r, dir: false, mode: st.mode, data: rd(p) })
      else problems.push(`${shown}: not a regular file or directory`)
    }
  }
  walkDir(Buffer.from(dir), '')
  if (problems.length > 0) {
    throw new UserError(
      `cannot pack ${dir} faithfully: ${problems.slice(0, 5).join('; ')}${problems.length > 5 ? `; and ${problems.length - 5} more` : ''}`,
    )
  }
  return out
}

/** Compares the tree the endpoint extracted with the entries packed: same files, bytes and modes. */
export function sameTree(root: GoString, entries: import('./archive-write.js').PackEntry[]): string | null {
  const { lstatSync: lst, readFileSync: rd } = fsModule
  const seen = new Set<string>()
  for (const e of entries) {
    const p = Buffer.from(`${root}/${e.rel}`, 'latin1')
    let st: fsModule.Stats
    try {
      st = lst(p)
    } catch {
      return `${toText(e.rel)} is missing after extraction`
    }
    if (e.dir !== st.isDirectory()) return `${toText(e.rel)} changed type`
    if (!e.dir) {
      if (!rd(p).equals(e.data ?? Buffer.alloc(0))) return `${toText(e.rel)} changed content`
      const want = e.mode & 0o111 ? 0o755 : 0o644
      if ((st.mode & 0o777) !== want)
        return `${toText(e.rel)} has mode ${(st.mode & 0o777).toString(8)}, not ${want.toString(8)}`
    }
    seen.add(e.rel)
  }
  const extra = listPackFiles(root).files
  for (const f of [...extra.signable, ...extra.uncovered])
    if (!seen.has(f.rel) && f.rel !== 'signature.json') return `${toText(f.rel)} appeared`
  return null
}
