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
import { base } from '../go/path/filepath/path.js'
import { evalSymlinks } from '../go/path/filepath/symlink.js'
import { SKIP_DIR, walk } from '../go/path/filepath/walk.js'
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
  /** The container_load_failed warning, when it did not load. */
  failed: LoadWarning | null
}

export interface LoadAllWalk {
  /** What becomes of the SKILL.md at `path` (under the root); null when ParseSkillMd gets it. */
  fate(path: GoString): NotLoaded | null
}

function under(path: GoString, dir: GoString): boolean {
  return path.startsWith(dir.endsWith('/') ? dir : `${dir}/`)
}

/** walkLoadRoot(root, wantSkills=true), without parsing. */
export async function walkLoadRoot(root: GoString): Promise<LoadAllWalk> {
  const parsed = new Set<GoString>()
  const warned = new Map<GoString, LoadWarning>()
  const containers: Container[] = []
  const none: LoadAllWalk = { fate: () => null }
  const info = stat(root)
  if (!info.ok || !info.value.isDir()) return none
  const resolved = evalSymlinks(root)
  // LoadAll fails as a whole ("eval symlinks …"): nothing here to say per file.
  if (!resolved.ok) return none
  const resolvedRoot = resolved.value
  const warnings: LoadWarning[] = []
  const found: GoString[] = []
  walk(root, (path, fi, err) => {
    if (err !== null) {
      warnings.push({ path, code: 'walk_error', reason: err.error() })
      return null
    }
    if (fi === null) return null
    if (fi.isSymlink()) {
      if (!pathSafeUnderRoot(path, resolvedRoot, warnings)) return null
      const t = stat(path)
      if (t.ok && t.value.isDir() && detectContainer(path).kind !== '') found.push(path)
      return null
    }
    if (fi.isDir()) {
      if (detectContainer(path).kind === '') return null
      found.push(path)
      return SKIP_DIR
    }
    if (base(path) !== 'SKILL.md') return null
    if (pathSafeUnderRoot(path, resolvedRoot, warnings)) parsed.add(path)
    return null
  })
  for (const dir of found) {
    const loaded = await loadPluginContainer(dir, { walkOnly: true })
    if (!loaded.ok) {
      const warning = { path: dir, code: 'container_load_failed', reason: loaded.err.error() }
      warnings.push(warning)
      containers.push({ dir, kind: detectContainer(dir).kind, skillRoots: [], failed: warning })
      continue
    }
    const r = loaded.result
    for (const f of r.skillFiles) parsed.add(f)
    warnings.push(...r.warnings)
    containers.push({
      dir,
      kind: loaded.kind,
      skillRoots: r.resolvedRoot === null ? [] : r.skillRoots,
      failed: null,
    })
  }
  for (const w of warnings) if (!warned.has(w.path)) warned.set(w.path, w)
  return {
    fate(path) {
      if (parsed.has(path)) return null
      const w = warned.get(path)
      if (w) return { kind: 'warning', warning: w }
      // The innermost container holding it (a symlinked container is loaded under its link's path).
      const c = containers.filter((x) => under(path, x.dir)).sort((a, b) => b.dir.length - a.dir.length)[0]
      if (c?.failed) return { kind: 'container', container: c.dir, warning: c.failed }
      if (c && !c.skillRoots.some((r) => path === r || under(path, r))) {
        return { kind: 'outside', container: c.dir, containerKind: c.kind, skillRoots: c.skillRoots }
      }
      const l = lstat(path)
      if (l.ok && l.value.isSymlink()) return { kind: 'symlink' }
      // Not met by this walk (below a symlinked dir, or changed since): judged as parsed.
      return null
    },
  }
}
