/**
 * The chat runtime's LoadAll over one skills root (load_all.go's walkLoadRoot, v0.13.4), as far
 * as SKILL.md files go: which ones reach ParseSkillMd, and why the others do not. The walk is
 * filepath.Walk (Lstat, no symlink followed); a dir that DetectContainer recognises (a manifest,
 * or a bare layout: a SKILL.md, or skills/<x>/SKILL.md) is handed to LoadPluginContainer and not
 * walked further, so only that container's skill roots are read; any symlink met outside a
 * container is checked against the root (its `escapes_root` or `symlink_error` warning) and
 * never parsed.
 */

import type { GoString } from '../go/gostring.js'
import { lstat, stat } from '../go/os/file.js'
import { dir, join } from '../go/path/filepath/path.js'
import { evalSymlinks } from '../go/path/filepath/symlink.js'
import { pathHasPrefix } from '../loader/build.js'
import { type ContainerKind, detectContainer, loadPluginContainer, pathSafeUnderRoot } from './container.js'
import type { LoadWarning } from './types.js'

/** Why the chat runtime registers nothing from a SKILL.md (null from `fate`: it is parsed). */
export type NotLoaded =
  /** A LoadWarning the manager logs about this path (escapes_root, symlink_error, walk_error). */
  | { kind: 'warning'; warning: LoadWarning }
  /** A symlink that resolves inside its root: skipped without a word. */
  | { kind: 'symlink' }
  /** Inside a container, outside the skill roots it reads. */
  | { kind: 'outside'; container: GoString; containerKind: ContainerKind; skillRoots: GoString[] }
  /** Inside a container LoadPluginContainer refused (`container_load_failed`, the pack's error). */
  | { kind: 'container'; container: GoString; warning: LoadWarning }

interface Container {
  dir: GoString
  kind: ContainerKind
  skillRoots: GoString[]
  /** The files its skills walk hands to ParseSkillMd. */
  files: Set<GoString>
  /** Its LoadWarnings by path (the first for each). */
  warned: Map<GoString, LoadWarning>
  /** The container_load_failed warning, when it did not load. */
  failed: LoadWarning | null
}

export interface LoadAllWalk {
  /** What becomes of the SKILL.md at `path` (below the root); null when ParseSkillMd gets it. */
  fate(path: GoString): Promise<NotLoaded | null>
}

function under(path: GoString, dir: GoString): boolean {
  return path.startsWith(dir.endsWith('/') ? dir : `${dir}/`)
}

/**
 * walkLoadRoot(root, wantSkills=true) as it meets each SKILL.md, without parsing. A file's fate
 * depends only on the dirs between the root and it: the walk reaches it through real dirs that
 * are not containers, or hands the first container on the way to LoadPluginContainer. So only
 * that chain is looked at (each dir once), never the rest of the root.
 */
export function walkLoadRoot(root: GoString): LoadAllWalk {
  const info = lstat(root)
  const resolved = evalSymlinks(root)
  // A root that is a symlink is not descended into; one that does not resolve fails LoadAll as
  // a whole ("eval symlinks …"): nothing to say per file either way.
  if (!info.ok || !info.value.isDir() || !resolved.ok) return { fate: async () => null }
  const resolvedRoot = resolved.value
  const kinds = new Map<GoString, ContainerKind>()
  const containers = new Map<GoString, Promise<Container>>()
  const load = async (d: GoString, kind: ContainerKind): Promise<Container> => {
    const loaded = await loadPluginContainer(d, { walkOnly: true })
    if (!loaded.ok) {
      const failed = { path: d, code: 'container_load_failed', reason: loaded.err.error() }
      return { dir: d, kind, skillRoots: [], files: new Set(), warned: new Map(), failed }
    }
    const r = loaded.result
    const warned = new Map<GoString, LoadWarning>()
    for (const w of r.warnings) if (!warned.has(w.path)) warned.set(w.path, w)
    const roots = r.resolvedRoot === null ? [] : r.skillRoots
    return {
      dir: d,
      kind: loaded.kind,
      skillRoots: roots,
      files: new Set(r.skillFiles),
      warned,
      failed: null,
    }
  }
  return {
    async fate(path) {
      if (!under(path, root)) return null
      // The dirs from the root down to the file's own.
      const chain: GoString[] = []
      for (let d = dir(path); d !== root && under(d, root); d = dir(d)) chain.unshift(d)
      chain.unshift(root)
      for (const d of chain) {
        const l = lstat(d)
        // Below a symlinked or vanished dir: the walk never gets there (nor does ours).
        if (!l.ok || !l.value.isDir()) return null
        let kind = kinds.get(d)
        if (kind === undefined) {
          kind = detectContainer(d).kind
          kinds.set(d, kind)
        }
        if (kind === '') continue
        if (kind === 'bare_skills') {
          // A bare pack reads one root, skills/ or itself; a file in it (no symlink on the way,
          // inside the pack as pathSafeUnderRoot sees it) is parsed, with no need to load the pack.
          const skills = join(d, 'skills')
          const s = stat(skills)
          const skillRoot = s.ok && s.value.isDir() ? skills : d
          const f = lstat(path)
          if (f.ok && !f.value.isSymlink() && under(path, skillRoot) && pathHasPrefix(path, d)) return null
        }
        let c = containers.get(d)
        if (!c) {
          c = load(d, kind)
          containers.set(d, c)
        }
        return fateIn(await c, path)
      }
      // No container on the way (then the file is not a SKILL.md the dir's stat sees as a file).
      const f = lstat(path)
      if (!f.ok || !f.value.isSymlink()) return null
      const warnings: LoadWarning[] = []
      if (pathSafeUnderRoot(path, resolvedRoot, warnings)) return { kind: 'symlink' }
      return { kind: 'warning', warning: warnings[0] }
    },
  }
}

function fateIn(c: Container, path: GoString): NotLoaded | null {
  if (c.failed) return { kind: 'container', container: c.dir, warning: c.failed }
  if (c.files.has(path)) return null
  const w = c.warned.get(path)
  if (w) return { kind: 'warning', warning: w }
  if (!c.skillRoots.some((r) => path === r || under(path, r))) {
    return { kind: 'outside', container: c.dir, containerKind: c.kind, skillRoots: c.skillRoots }
  }
  const l = lstat(path)
  if (l.ok && l.value.isSymlink()) return { kind: 'symlink' }
  // Not met by the pack's walk (below a symlinked dir, or changed since): judged as parsed.
  return null
}
