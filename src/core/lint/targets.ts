import type { GoError } from '../go/errors.js'
import { type GoBytes, type GoString, toText } from '../go/gostring.js'
import { isNotExist } from '../go/os/errors.js'
import { type FileInfo, lstat, readDirNames, stat } from '../go/os/file.js'
import { abs, base, dir, join } from '../go/path/filepath/path.js'
import { SKIP_ALL, SKIP_DIR, walk } from '../go/path/filepath/walk.js'
import type { Overlay } from '../overlay.js'
import { PathError } from './errors.js'
import type { FileTarget } from './types.js'

export { PathError }

export interface WalkProblem {
  path: GoString
  root: GoString
  /** null: a symlink to a dir holding packs (linksToPacks), which the walk does not follow. */
  err: GoError | null
}

/**
 * Whether `link` (a symlink met by the walk) leads to a dir with a skill.json or SKILL.md in it
 * or one level below: packs the manager's walk never reaches (filepath.Walk does not follow
 * symlinks), where a symlinked dir of anything else (a venv's lib64) is not worth a word.
 */
function linksToPacks(link: GoString): boolean {
  const s = stat(link)
  if (!s.ok || !s.value.isDir()) return false
  const holds = (d: GoString) =>
    ['skill.json', 'SKILL.md'].some((n) => {
      const f = lstat(join(d, n))
      return f.ok && !f.value.isDir()
    })
  if (holds(link)) return true
  const names = readDirNames(link)
  return names.ok && names.value.some((n) => holds(join(link, n)))
}

/**
 * Dirs the walk leaves out by default, at any depth below a PATH: installed dependencies (this
 * tool's own example packs among them) and VCS metadata, never the user's packs. A PATH itself is
 * always walked, whatever its name or where it lies: naming a dir asks for it to be judged.
 */
export const DEFAULT_IGNORED_DIRS: readonly string[] = ['node_modules', '.git', '.hg', '.svn']

/** The allow-list root a target was checked against. */
export interface RootUsed {
  path: GoString
  /** Not given (--root): taken from the PATH (see collectTargets). */
  assumed: boolean
}

/** A dir the walk listed: every name in it, and each one's type as listed (the rest of its Lstat read when asked). */
export interface Listing {
  names: Set<GoString>
  entries: readonly [GoString, FileInfo][]
}

/**
 * Whether `name` was not in dir `d` when the walk listed it (false when the walk did not list
 * `d`): lookups of files the walk would have seen (configs, a pack's tests/) ask this before a
 * stat, which then answers only for names that were there, as it did before.
 */
export function notListed(
  listings: ReadonlyMap<GoString, Listing> | undefined,
  d: GoString,
  name: GoString,
): boolean {
  return listings?.get(d)?.names.has(name) === false
}

export interface Targets {
  files: FileTarget[]
  walkErrors: WalkProblem[]
  /** Dirs left out by DEFAULT_IGNORED_DIRS: how many of each name, in the order first met. */
  leftOut: Map<string, number>
  /** Every distinct root used, in the order first used. */
  roots: RootUsed[]
  /**
   * The dirs the walks listed (by Clean path), with their names: every dir a walk read below
   * each PATH, the PATH included (a symlink, a dir not read or whose listing failed is not).
   */
  listings: Map<GoString, Listing>
}

/** Whether a skill.json or SKILL.md lies below `d`'s own files (the dirs left out not walked). */
function holdsNestedPacks(d: GoString, defaultIgnore: boolean): boolean {
  let nested = false
  walk(d, (f, fi) => {
    if (f === d || fi === null) return null
    const name = base(f)
    if (fi.isDir()) return defaultIgnore && DEFAULT_IGNORED_DIRS.includes(toText(name)) ? SKIP_DIR : null
    if ((name === 'skill.json' || name === 'SKILL.md') && dir(f) !== d) {
      nested = true
      return SKIP_ALL
    }
    return null
  })
  return nested
}

/** The summary line of what the walk left out: `left out: node_modules (2 dirs) (--no-default-ignore walks them)`. */
export function leftOutLine(leftOut: ReadonlyMap<string, number>): string {
  return `left out: ${leftOutText(leftOut)} (--no-default-ignore walks them)`
}

/** The summary line of a root not given (--root): `root: /etc/ongrid/skills (assumed; --root to set it)`. */
export function assumedRootText(path: GoString): string {
  return `root: ${toText(path)} (assumed; --root to set it)`
}

/** `node_modules (2 dirs), .git (1 dir)`: what the walk left out, for summaries and errors. */
export function leftOutText(leftOut: ReadonlyMap<string, number>): string {
  return [...leftOut].map(([name, n]) => `${name} (${n} ${n === 1 ? 'dir' : 'dirs'})`).join(', ')
}

export interface TargetOptions {
  /** Leave out DEFAULT_IGNORED_DIRS below each PATH (default true; --no-default-ignore). */
  defaultIgnore?: boolean
  /** Editors' buffers (lint --stdin's text): a file given that has one need not exist on the disk. */
  overlay?: Overlay
}

function isNative(path: GoString): boolean {
  return base(path) === 'SKILL.md' || /\.md$/i.test(path)
}

function absolute(p: GoBytes): GoString {
  const a = abs(p)
  return a.ok ? a.value : p
}

/**
 * What each PATH means: a skill.json (or any other file: a manifest, or a SKILL.md when it
 * ends in .md), or a dir, walked as the loader walks an allow-list root (filepath.Walk: sorted,
 * symlinks not followed), collecting every skill.json and SKILL.md under it — a pack dir's
 * nested packs included, dirs named in DEFAULT_IGNORED_DIRS below it left out unless
 * `defaultIgnore` is false. The allow-list root is `root` when given; else for a file the dir
 * above its dir (its own dir when that holds nested packs, as for a pack dir); for a pack dir (holding skill.json, or else SKILL.md) with no pack nested
 * below it, the dir that holds it; for any other dir, that dir. A pack dir with packs nested
 * below it may be either a pack under some root or a root itself: the stricter root, the dir
 * itself, is taken (an entry it lets through, the manager passes under either reading).
 * The same file is checked once. PATHs and root are the bytes given (cli/os-bytes.ts): a name
 * that is not UTF-8 is the dir it names, not Node's text of it; messages show them as text.
 */
export function collectTargets(paths: readonly GoBytes[], root?: GoBytes, opts: TargetOptions = {}): Targets {
  const defaultIgnore = opts.defaultIgnore !== false
  const out: Targets = { files: [], walkErrors: [], leftOut: new Map(), roots: [], listings: new Map() }
  const seen = new Set<GoString>()
  const rootGiven = root === undefined ? null : absolute(root)
  if (rootGiven !== null) {
    const r = stat(rootGiven)
    if (!r.ok) throw new PathError(`--root ${toText(root ?? '')}: ${toText(r.err.error())}`)
    if (!r.value.isDir()) throw new PathError(`--root ${toText(root ?? '')} is not a directory`)
  }
  const noteRoot = (r: GoString) => {
    if (!out.roots.some((x) => x.path === r)) out.roots.push({ path: r, assumed: rootGiven === null })
  }
  const add = (t: FileTarget) => {
    if (seen.has(t.path)) return
    seen.add(t.path)
    out.files.push(t)
  }
  for (const given of paths) {
    const p = toText(given)
    const path = absolute(given)
    const info = stat(path)
    // A file given as text (lint --stdin) need not exist on the disk.
    const givenAsText = opts.overlay?.has(path) === true
    if (!info.ok && !givenAsText) {
      if (isNotExist(info.err)) throw new PathError(`PATH does not exist: ${p}`)
      throw new PathError(`cannot read PATH ${p}: ${toText(info.err.error())}`)
    }
    if (givenAsText || (info.ok && !info.value.isDir())) {
      // As for a pack dir: the dir holding the file is the root when it also holds nested packs.
      const fileRoot = rootGiven ?? (holdsNestedPacks(dir(path), defaultIgnore) ? dir(path) : dir(dir(path)))
      noteRoot(fileRoot)
      add({ kind: isNative(path) ? 'native' : 'manifest', path, root: fileRoot })
      continue
    }
    // The whole dir is walked: every pack nested in a pack dir is found by the manager's walk
    // too, so none is skipped here. The root is decided once the walk has seen what is nested.
    const manifest = join(path, 'skill.json')
    const m = lstat(manifest)
    const packFile = m.ok && !m.value.isDir() ? manifest : join(path, 'SKILL.md')
    const n = packFile === manifest ? m : lstat(packFile)
    const packDir = n.ok && !n.value.isDir()
    const found: Omit<FileTarget, 'root'>[] = []
    const problems: Omit<WalkProblem, 'root'>[] = []
    const leftHere = new Map<string, number>()
    // Each child's type from its dir's listing (WalkOptions.direntTypes: the same walk, an Lstat
    // per child fewer); the listings are kept for the lookups of the checks (Targets.listings).
    const onDir = (d: GoString, entries: readonly [GoString, FileInfo][] | null) => {
      if (entries !== null) out.listings.set(d, { names: new Set(entries.map((e) => e[0])), entries })
    }
    walk(
      path,
      (f, fi, err) => {
        if (defaultIgnore && f !== path && (fi === null || fi.isDir() || fi.isSymlink())) {
          const name = toText(base(f))
          if (DEFAULT_IGNORED_DIRS.includes(name)) {
            out.leftOut.set(name, (out.leftOut.get(name) ?? 0) + 1)
            leftHere.set(name, (leftHere.get(name) ?? 0) + 1)
            return fi?.isDir() === true && err === null ? SKIP_DIR : null
          }
        }
        if (err) {
          problems.push({ path: f, err })
          return null
        }
        if (fi?.isSymlink() && linksToPacks(f)) problems.push({ path: f, err: null })
        if (!fi || fi.isDir()) return null
        const name = base(f)
        if (name === 'skill.json') found.push({ kind: 'manifest', path: f })
        else if (name === 'SKILL.md') found.push({ kind: 'native', path: f })
        return null
      },
      { direntTypes: true, onDir },
    )
    const nested = packDir && found.some((t) => dir(t.path) !== path)
    const walkRoot = rootGiven ?? (packDir && !nested ? dir(path) : path)
    noteRoot(walkRoot)
    for (const w of problems) out.walkErrors.push({ ...w, root: walkRoot })
    for (const t of found) add({ ...t, root: walkRoot })
    // A symlinked pack dir is not descended into by the walk: its own pack is still checked.
    if (packDir) add({ kind: packFile === manifest ? 'manifest' : 'native', path: packFile, root: walkRoot })
    // Nothing found here (a file found through an earlier PATH too is still found).
    if (found.length === 0 && !packDir && out.walkErrors.every((w) => w.err === null)) {
      const l = lstat(path)
      const link = l.ok && l.value.isSymlink()
      // Packs only behind symlinks: nothing the manager loads, so nothing judged (not a pass).
      const linked = out.walkErrors.find((w) => w.err === null && w.root === walkRoot)
      throw new PathError(
        link
          ? `no skill.json or SKILL.md under ${p}: it is a symlink, and the manager's walk does not descend into a symlinked root (pass the resolved path)`
          : linked !== undefined
            ? `no skill.json or SKILL.md under ${p} that the manager loads: ${toText(linked.path)} is a symlink to a dir of packs, and the manager's walk does not follow symlinks (pass the resolved path)`
            : leftHere.size > 0
              ? `no skill.json or SKILL.md under ${p} outside the dirs left out by default: ${leftOutText(leftHere)} (--no-default-ignore walks them)`
              : `no skill.json or SKILL.md under ${p}`,
      )
    }
  }
  return out
}
