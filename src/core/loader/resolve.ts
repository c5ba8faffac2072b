import { readdirSync, statSync } from 'node:fs'
import { fromText, type GoString, trimSpace } from '../go/gostring.js'
import { stat } from '../go/os/file.js'
import { abs, dir, join } from '../go/path/filepath/path.js'
import { didYouMean, meanHint } from '../suggest.js'
import { buildSubprocessSkill, type SubprocessSkill } from './build.js'
import { type LoaderEventKind, loadDirs } from './loader.js'
import { parseManifest } from './manifest.js'
import { notJudgedText, readManifest, whole } from './manifest-read.js'
import { buildFailedText, Registry } from './registry.js'

export type Resolved =
  | { ok: true; skill: SubprocessSkill }
  | { ok: false; line: GoString; kind: 'rejected' | 'not-found'; hint?: string }

/** Is this argument a path to a pack dir or a manifest file (rather than a skill name)? */
export function isPackPath(target: GoString): boolean {
  return stat(target).ok || target.includes('/') || target.endsWith('.json')
}

/**
 * Builds one pack exactly as the loader would: PACK is a dir holding skill.json or the
 * manifest itself; the allow-list root defaults to the dir that holds the pack
 * (`/etc/ongrid/skills/<pack>/skill.json` → `/etc/ongrid/skills`). A rejection comes back
 * as the loader's log line.
 */
export function resolvePack(target: GoString, root?: GoString): Resolved {
  const a = abs(target)
  const given = a.ok ? a.value : target
  let manifestPath = given
  const info = stat(target)
  if (info.ok && info.value.isDir()) manifestPath = join(given, 'skill.json')
  const rootPath = root !== undefined ? absOrSelf(root) : dir(dir(manifestPath))
  // A FIFO blocks here as it blocks the manager; what never ends, or cannot be held, is said so.
  let read = readManifest(manifestPath)
  if (read.kind === 'fifo') read = whole(manifestPath)
  if (read.kind !== 'read') {
    return {
      ok: false,
      kind: 'not-found',
      line: notJudgedText(manifestPath, read.kind),
    }
  }
  const file = read.file
  const parsed = parseManifest(manifestPath, () => file)
  if (parsed.err) {
    return { ok: false, kind: 'rejected', line: `skill loader: parse ${manifestPath}: ${parsed.err.error()}` }
  }
  const built = buildSubprocessSkill(parsed.manifest, manifestPath, rootPath)
  if (!built.ok) {
    return {
      ok: false,
      kind: 'rejected',
      line: buildFailedText(parsed.manifest.name, manifestPath, built.err.error()),
    }
  }
  return { ok: true, skill: built.value }
}

function absOrSelf(p: GoString): GoString {
  const a = abs(p)
  return a.ok ? a.value : p
}

/**
 * Looks a skill up by name as the manager would register it from these dirs (first wins).
 * `onBlocking` is told of a FIFO named skill.json before the walk blocks on it, as the
 * manager's boot does (until a writer opens it and closes it).
 */
export function resolveByName(
  name: string,
  dirs: GoString[],
  builtins?: readonly GoString[],
  onBlocking?: (path: GoString) => void,
): Resolved {
  const key = fromText(name)
  const registry = new Registry(builtins)
  if (registry.builtins.has(key)) {
    return {
      ok: false,
      kind: 'not-found',
      line: `${key} is a builtin skill of the manager, not a subprocess pack: nothing to run locally`,
    }
  }
  // Dirs the manager skips are named as skipped, with why, not as searched.
  const why: Partial<Record<LoaderEventKind, string>> = {
    'skip-non-absolute': 'relative dirs are skipped, as the manager skips them',
    'dir-not-present': 'not present',
    'not-a-directory': 'not a directory',
  }
  const skipped = new Map<GoString, string>()
  const result = loadDirs(dirs, {
    registry,
    onBlocking,
    onEvent: (e) => {
      if (e.kind === 'stat-error') skipped.set(e.path, e.err?.error() ?? 'unreadable')
      else if (why[e.kind] !== undefined) skipped.set(e.path, why[e.kind] as string)
    },
  })
  const skill = result.skills.find((s) => s.key === key)
  if (skill) return { ok: true, skill }
  const walked = dirs.map(trimSpace).filter((d) => d !== '' && !skipped.has(d))
  const skips = [...skipped].map(([d, reason]) => `${d} (${reason})`)
  return {
    ok: false,
    kind: 'not-found',
    line:
      `no skill ${key} is registered from ${walked.join(', ') || '(no dirs)'}` +
      (skips.length > 0 ? `; skipped: ${skips.join(', ')}` : ''),
    // Registered names are lower_snake ASCII: the same as text.
    hint: meanHint(
      didYouMean(
        key,
        result.skills.map((s) => s.key),
      ),
    ),
  }
}

/**
 * A path near `target` (text) that exists: each component that is not there replaced by the
 * nearest name in its parent dir (`skils/disk_free` → `skills/disk_free`), or undefined.
 */
export function nearestPath(target: string): string | undefined {
  const parts = target.split('/')
  let at = target.startsWith('/') ? '/' : ''
  let changed = false
  for (const [i, part] of parts.entries()) {
    if (part === '' || part === '.' || part === '..') {
      if (i > 0 || part !== '') at = `${at}${part}/`
      continue
    }
    const here = `${at}${part}`
    let name = part
    if (statSync(here || '.', { throwIfNoEntry: false }) === undefined) {
      let names: string[]
      try {
        names = readdirSync(at || '.')
      } catch {
        return undefined
      }
      const near = didYouMean(part, names)
      if (near === undefined) return undefined
      name = near
      changed = true
    }
    at = `${at}${name}${i < parts.length - 1 ? '/' : ''}`
  }
  return changed && statSync(at, { throwIfNoEntry: false }) !== undefined ? at : undefined
}
