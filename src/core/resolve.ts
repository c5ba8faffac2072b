import { statSync } from 'node:fs'
import { buildSubprocessSkill, type SubprocessSkill } from './build.js'
import { fromText, type GoString } from './go/gostring.js'
import { abs, dir, join } from './go/path/filepath/path.js'
import { loadDirs } from './loader.js'
import { parseManifest } from './manifest.js'
import { Registry } from './registry.js'
import { didYouMean, meanHint } from './suggest.js'

export type Resolved =
  | { ok: true; skill: SubprocessSkill }
  | { ok: false; line: GoString; kind: 'rejected' | 'not-found'; hint?: string }

/** Is this argument a path to a pack dir or a manifest file (rather than a skill name)? */
export function isPackPath(target: string): boolean {
  try {
    statSync(target)
    return true
  } catch {
    return target.includes('/') || target.endsWith('.json')
  }
}

/**
 * Builds one pack exactly as the loader would: PACK is a dir holding skill.json or the
 * manifest itself; the allow-list root defaults to the dir that holds the pack
 * (`/etc/ongrid/skills/<pack>/skill.json` → `/etc/ongrid/skills`). A rejection comes back
 * as the loader's log line.
 */
export function resolvePack(target: string, root?: string): Resolved {
  const a = abs(fromText(target))
  const given = a.ok ? a.value : fromText(target)
  let manifestPath = given
  try {
    if (statSync(target).isDirectory()) manifestPath = join(given, 'skill.json')
  } catch {}
  const rootPath = root !== undefined ? absOrSelf(root) : dir(dir(manifestPath))
  const parsed = parseManifest(manifestPath)
  if (parsed.err) {
    return { ok: false, kind: 'rejected', line: `skill loader: parse ${manifestPath}: ${parsed.err.error()}` }
  }
  const built = buildSubprocessSkill(parsed.manifest, manifestPath, rootPath)
  if (!built.ok) {
    return {
      ok: false,
      kind: 'rejected',
      line: `skill loader: build ${parsed.manifest.name} (${manifestPath}): ${built.err.error()}`,
    }
  }
  return { ok: true, skill: built.value }
}

function absOrSelf(p: string): GoString {
  const a = abs(fromText(p))
  return a.ok ? a.value : fromText(p)
}

/** Looks a skill up by name as the manager would register it from these dirs (first wins). */
export function resolveByName(name: string, dirs: GoString[], builtins?: readonly GoString[]): Resolved {
  const key = fromText(name)
  const registry = new Registry(builtins)
  if (registry.builtins.has(key)) {
    return {
      ok: false,
      kind: 'not-found',
      line: `${key} is a builtin skill of the manager, not a subprocess pack: nothing to run locally`,
    }
  }
  const result = loadDirs(dirs, { registry, onEvent: () => {} })
  const skill = result.skills.find((s) => s.key === key)
  if (skill) return { ok: true, skill }
  return {
    ok: false,
    kind: 'not-found',
    line: `no skill ${key} is registered from ${dirs.join(', ') || '(no dirs)'}`,
    // Registered names are lower_snake ASCII: the same as text.
    hint: meanHint(
      didYouMean(
        key,
        result.skills.map((s) => s.key),
      ),
    ),
  }
}
