import type { GoError } from '../go/errors.js'
import { fromText, type GoString, toText } from '../go/gostring.js'
import { isNotExist } from '../go/os/errors.js'
import { lstat, readDirNames, stat } from '../go/os/file.js'
import { abs, base, dir, join } from '../go/path/filepath/path.js'
import { walk } from '../go/path/filepath/walk.js'
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

export interface Targets {
  files: FileTarget[]
  walkErrors: WalkProblem[]
}

function isNative(path: GoString): boolean {
  return base(path) === 'SKILL.md' || /\.md$/i.test(path)
}

function absoluteBytes(p: GoString): GoString {
  const a = abs(p)
  return a.ok ? a.value : p
}

function absolute(p: string): GoString {
  const a = abs(fromText(p))
  return a.ok ? a.value : fromText(p)
}

/**
 * What each PATH means: a skill.json (or any other file: a manifest, or a SKILL.md when it
 * ends in .md), or a dir, walked as the loader walks an allow-list root (filepath.Walk: sorted,
 * symlinks not followed), collecting every skill.json and SKILL.md under it — a pack dir's
 * nested packs included. The allow-list root is `root` when given, else for a pack dir
 * (holding skill.json, or else SKILL.md) the dir that holds it, for any other dir that dir.
 * The same file is checked once.
 */
export function collectTargets(
  paths: readonly string[],
  root?: string,
  /** The same PATHs as the bytes given (cli/os-bytes.ts), when they may not be UTF-8. */
  pathBytes?: readonly GoString[],
): Targets {
  const out: Targets = { files: [], walkErrors: [] }
  const seen = new Set<GoString>()
  const rootGiven = root === undefined ? null : absolute(root)
  if (rootGiven !== null) {
    const r = stat(rootGiven)
    if (!r.ok) throw new PathError(`--root ${root}: ${toText(r.err.error())}`)
    if (!r.value.isDir()) throw new PathError(`--root ${root} is not a directory`)
  }
  const add = (t: FileTarget) => {
    if (seen.has(t.path)) return
    seen.add(t.path)
    out.files.push(t)
  }
  for (const [k, p] of paths.entries()) {
    const given = pathBytes?.[k]
    const path = given === undefined ? absolute(p) : absoluteBytes(given)
    const info = stat(path)
    if (!info.ok) {
      if (isNotExist(info.err)) throw new PathError(`PATH does not exist: ${p}`)
      throw new PathError(`cannot read PATH ${p}: ${toText(info.err.error())}`)
    }
    if (!info.value.isDir()) {
      add({ kind: isNative(path) ? 'native' : 'manifest', path, root: rootGiven ?? dir(dir(path)) })
      continue
    }
    // A pack dir (holding skill.json, or else SKILL.md) is checked against the dir that holds it;
    // any other dir is a root itself. Either way the whole dir is walked: every pack nested in a
    // pack dir is found by the manager's walk too, so none is skipped here.
    const manifest = join(path, 'skill.json')
    const m = lstat(manifest)
    const packFile = m.ok && !m.value.isDir() ? manifest : join(path, 'SKILL.md')
    const n = packFile === manifest ? m : lstat(packFile)
    const packDir = n.ok && !n.value.isDir()
    const walkRoot = rootGiven ?? (packDir ? dir(path) : path)
    const before = out.files.length
    walk(path, (f, fi, err) => {
      if (err) {
        out.walkErrors.push({ path: f, root: walkRoot, err })
        return null
      }
      if (fi?.isSymlink() && linksToPacks(f)) out.walkErrors.push({ path: f, root: walkRoot, err: null })
      if (!fi || fi.isDir()) return null
      const name = base(f)
      if (name === 'skill.json') add({ kind: 'manifest', path: f, root: walkRoot })
      else if (name === 'SKILL.md') add({ kind: 'native', path: f, root: walkRoot })
      return null
    })
    // A symlinked pack dir is not descended into by the walk: its own pack is still checked.
    if (packDir) add({ kind: packFile === manifest ? 'manifest' : 'native', path: packFile, root: walkRoot })
    if (out.files.length === before && out.walkErrors.every((w) => w.err === null)) {
      const l = lstat(path)
      const link = l.ok && l.value.isSymlink()
      // Packs only behind symlinks: nothing the manager loads, so nothing judged (not a pass).
      const linked = out.walkErrors.find((w) => w.err === null && w.root === walkRoot)
      throw new PathError(
        link
          ? `no skill.json or SKILL.md under ${p}: it is a symlink, and the manager's walk does not descend into a symlinked root (pass the resolved path)`
          : linked !== undefined
            ? `no skill.json or SKILL.md under ${p} that the manager loads: ${toText(linked.path)} is a symlink to a dir of packs, and the manager's walk does not follow symlinks (pass the resolved path)`
            : `no skill.json or SKILL.md under ${p}`,
      )
    }
  }
  return out
}
