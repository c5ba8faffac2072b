import { ErrorString, fail, type GoError, ok, type Result, WrapError } from '../go/errors.js'
import type { GoString } from '../go/gostring.js'
import { type FileInfo, memoLstat } from '../go/os/file.js'
import { abs, clean, dir, isAbs, join, rel } from '../go/path/filepath/path.js'
import {
  evalSymlinks,
  type KnownPrefix,
  type SymlinkWalk,
  walkDirSymlinks,
} from '../go/path/filepath/symlink.js'
import type { OnDir } from '../go/path/filepath/walk.js'
import { quote } from '../go/strconv/quote.js'
import { fromSeconds, SECOND } from '../go/time/duration.js'
import type { Manifest } from './manifest.js'

export type SkillClass = 'safe' | 'mutating' | 'dangerous'

export const DEFAULT_TIMEOUT_NS = 30n * SECOND
export const DEFAULT_CATEGORY = 'external'

/** What the loader registers: the manager's SubprocessSkill. */
export interface SubprocessSkill {
  key: GoString
  description: GoString
  class: SkillClass
  category: GoString
  schema: GoString | null
  /** Absolute, symlink-free path of the executable. */
  entry: GoString
  envAllow: GoString[] | null
  timeoutNs: bigint
  manifestPath: GoString
}

/** types.go validKey: non-empty, every rune in [a-z0-9_] (any non-ASCII byte fails). */
export function validKey(s: GoString): boolean {
  if (s === '') return false
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (!((c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x5f)) return false
  }
  return true
}

/** The name check alone, with the loader's message (for editors and the init wizard). */
export function checkName(name: GoString): GoError | null {
  if (name === '') return new ErrorString('name required')
  if (!validKey(name)) return new ErrorString(`name ${quote(name)} must be lower_snake [a-z0-9_]`)
  return null
}

/**
 * pathHasPrefix: child is parent, or Rel(parent, child) succeeds and does not start
 * with "..". The prefix test is textual, so a child dir named `..hidden` counts as escaping.
 */
export function pathHasPrefix(child: GoString, parent: GoString): boolean {
  return cleanHasPrefix(clean(child), clean(parent))
}

/** pathHasPrefix of two Clean paths (EvalSymlinks results are), without Cleaning them again. */
function cleanHasPrefix(c: GoString, p: GoString): boolean {
  if (c === p) return true
  // Both Clean and absolute, c under p: Rel is what follows p's "/", no need to compute it.
  if (p.charCodeAt(0) === 0x2f && c.startsWith(p === '/' ? p : `${p}/`)) {
    return !c.startsWith('..', p === '/' ? 1 : p.length + 1)
  }
  const r = rel(p, c)
  if (!r.ok) return false
  return !r.value.startsWith('..')
}

/** Resolves the manifest's entry: Join against the manifest dir, Abs, EvalSymlinks. */
export function resolveEntry(entry: GoString, manifestPath: GoString, cache?: BuildCache): Result<GoString> {
  const d = dir(manifestPath)
  const joined = isAbs(entry) ? entry : join(d, entry)
  // Abs of an absolute path is its Clean, and what Join returns is Clean already.
  const a = !isAbs(entry) && isAbs(joined) ? ok(joined) : abs(joined)
  if (!a.ok) return fail(new WrapError('resolve entry: ', a.err))
  const resolved = evalSymlinks(a.value, cache?.lstat, cache && knownDir(cache, d))
  if (!resolved.ok) return fail(new WrapError('eval entry symlinks: ', resolved.err))
  return resolved
}

/**
 * What one loader pass may remember between manifests (the tree is assumed not to change
 * during the pass): EvalSymlinks(root) per root, and Lstat answers for EvalSymlinks.
 */
export interface BuildCache {
  roots: Map<GoString, Result<GoString>>
  /**
   * The listings of the directories a walk is in (WalkOptions.onDir, by Clean path): Lstat of
   * their entries is answered from there — most entries sit next to their skill.json.
   */
  listed: Map<GoString, readonly [GoString, FileInfo][]>
  onDir: OnDir
  lstat: (p: GoString) => Result<FileInfo>
  /**
   * Set when every manifest comes from a Walk of this root (Cleaned): the dirs between it and a
   * manifest are then real directories, never links, so EvalSymlinks of an entry can start from
   * the root's own resolution (see KnownPrefix) instead of from "/".
   */
  walkRoot?: { root: GoString; at?: Result<SymlinkWalk> }
}

/**
 * Where EvalSymlinks stands after the manifest dir `d`, when the cache knows: the root's
 * resolution, then the walked dirs below it as they are.
 */
function knownDir(cache: BuildCache, d: GoString): KnownPrefix | undefined {
  const w = cache.walkRoot
  if (w === undefined) return undefined
  w.at ??= walkDirSymlinks(w.root, cache.lstat)
  if (!w.at.ok) return undefined
  const at = w.at.value
  if (d === w.root) return { prefix: d, at }
  const below = w.root === '/' ? d.slice(1) : d.slice(w.root.length + 1)
  if (!d.startsWith(w.root) || (w.root !== '/' && d.charCodeAt(w.root.length) !== 0x2f)) return undefined
  const sep = at.dest.endsWith('/') ? '' : '/'
  return { prefix: d, at: { dest: at.dest + sep + below, links: at.links } }
}

export function newBuildCache(walkRoot?: GoString): BuildCache {
  const listed = new Map<GoString, readonly [GoString, FileInfo][]>()
  // A dir's listing is kept until its parent is left, not only while the walk is in it: entries
  // in a subdir (bin/run.sh) are resolved after the walk has left that subdir. `open` holds, for
  // each dir the walk is in (depth first, so a stack), the listings kept under it.
  const open: GoString[][] = []
  const memo = memoLstat()
  const cleanRoot = walkRoot === undefined ? undefined : clean(walkRoot)
  return {
    walkRoot: cleanRoot === undefined ? undefined : { root: cleanRoot },
    roots: new Map(),
    listed,
    onDir: (d, entries) => {
      // Below its root a walk joins names to a Clean dir: only the root may be given otherwise.
      const key = cleanRoot === undefined ? clean(d) : d === walkRoot ? cleanRoot : d
      if (entries !== null) {
        listed.set(key, entries)
        open.push([])
        return
      }
      // Leaving key: the listings kept under it go; its own is kept under its parent.
      for (const kid of open.pop() ?? []) listed.delete(kid)
      open[open.length - 1]?.push(key)
    },
    lstat: (p) => {
      const i = p.lastIndexOf('/')
      const entries = i < 0 ? undefined : listed.get(i === 0 ? '/' : p.slice(0, i))
      if (entries !== undefined) {
        const name = p.slice(i + 1)
        for (const [n, info] of entries) if (n === name) return { ok: true, value: info }
      }
      return memo(p)
    },
  }
}

/** buildSubprocessSkill: the checks of the loader, first failure wins. */
export function buildSubprocessSkill(
  m: Manifest,
  manifestPath: GoString,
  allowRoot: GoString,
  cache?: BuildCache,
): Result<SubprocessSkill> {
  const nameErr = checkName(m.name)
  if (nameErr) return fail(nameErr)
  if (m.description === '') return fail(new ErrorString('description required'))
  if (m.entry === '') return fail(new ErrorString('entry required'))
  const resolved = resolveEntry(m.entry, manifestPath, cache)
  if (!resolved.ok) return resolved
  let root = cache?.roots.get(allowRoot)
  if (!root) {
    root = evalSymlinks(allowRoot, cache?.lstat)
    cache?.roots.set(allowRoot, root)
  }
  if (!root.ok) return fail(new WrapError('eval allowlist root: ', root.err))
  if (!cleanHasPrefix(resolved.value, root.value)) {
    return fail(new ErrorString(`entry ${resolved.value} escapes allowlist root ${root.value}`))
  }
  if (m.class !== '' && m.class !== 'safe' && m.class !== 'mutating' && m.class !== 'dangerous') {
    return fail(new ErrorString(`class ${quote(m.class)} invalid`))
  }
  const timeout = fromSeconds(m.timeoutSeconds)
  return ok({
    key: m.name,
    description: m.description,
    class: (m.class || 'safe') as SkillClass,
    category: m.category || DEFAULT_CATEGORY,
    schema: m.schema,
    entry: resolved.value,
    envAllow: m.envAllow,
    timeoutNs: timeout <= 0n ? DEFAULT_TIMEOUT_NS : timeout,
    manifestPath,
  })
}
