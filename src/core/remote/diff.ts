/**
 * Local packs against what the manager reports (remote-contract §6.2): subprocess packs by key
 * (description, class, category, scope), marketplace packs by pack id (manifest sha256, version,
 * display name, skill names). What the API does not expose is listed, never guessed.
 */

import { RESULT_PREVIEW } from '../tool-def.js'

/**
 * The `result_preview` of a subprocess pack in /v1/skills (manager v0.13.4): how they are told
 * apart. The bridge's own text (core/tool-def.ts).
 */
export const SUBPROCESS_PREVIEW = RESULT_PREVIEW

/** A SkillSummary of /v1/skills (§5.4): `key` identifies it; any other field may be left out. */
export interface RemoteSkill {
  key: string
  name?: string
  description?: string
  class?: string
  scope?: string
  category?: string
  params:
    | { name: string; type: string; required?: boolean; default?: unknown; desc?: string; enum?: unknown[] }[]
    | null
  result_preview?: string
  source?: string
  inventory_only?: boolean
}

/**
 * An installed pack as /v1/marketplace/installed lists it (PascalCase: the model has no json
 * tags). Every field is optional here: a server may leave any out, and nothing that reads one
 * may fail for it (remote-contract §5.7, §8.16).
 */
export interface InstalledPack {
  ID?: number
  PackID?: string
  DisplayName?: string
  Version?: string
  Source?: string
  InstallPath?: string
  ManifestSHA256?: string
  SignatureState?: string
  CapabilitiesJSON?: string
  BindingsJSON?: string
  InstalledBy?: number
  InstalledAt?: string
}

export interface LocalSkill {
  key: string
  description: string
  class: string
  category: string
  /** The manifest it came from. */
  path: string
}

export interface LocalPack {
  id: string
  displayName: string
  version: string
  manifestSha256: string
  skills: string[]
  path: string
}

export interface Change {
  field: string
  here: unknown
  there: unknown
}

export interface DiffEntry {
  kind: 'subprocess' | 'marketplace'
  id: string
  state: 'missing-there' | 'missing-here' | 'changed' | 'same' | 'other-kind-there'
  changes: Change[]
  path?: string
}

export interface DiffResult {
  entries: DiffEntry[]
  drift: boolean
  not_compared: string[]
}

export const NOT_COMPARED_SUBPROCESS =
  'subprocess packs: schema, entry, env_allow, timeout_seconds and file contents (the API exposes none of them, nor any version or hash)'
export const NOT_COMPARED_MARKETPLACE =
  'marketplace packs: SKILL.md, script and binary contents (the manager exposes only the sha256 of the manifest, or of "bare-skills:<id>")'
export const NOT_COMPARED_SKILLMD = 'SKILL.md skills in /v1/skills: they cannot be traced to a pack'

function skillsOf(p: InstalledPack): string[] | null {
  try {
    const caps = JSON.parse(p.CapabilitiesJSON ?? '') as { skills?: { name?: unknown }[] | null }
    return (caps.skills ?? []).map((s) => String(s.name)).sort()
  } catch {
    return null
  }
}

/** The fields whose two sides differ ([field, here, there] each), in the order given. */
function differing(fields: [field: string, here: unknown, there: unknown][]): Change[] {
  return fields
    .filter(([, here, there]) => here !== there)
    .map(([field, here, there]) => ({ field, here, there }))
}

/** An entry of both sides: changed when any field differs. */
function compared(kind: DiffEntry['kind'], id: string, path: string, changes: Change[]): DiffEntry {
  return { kind, id, state: changes.length ? 'changed' : 'same', changes, path }
}

/**
 * What the manager has and the repository does not, in the manager's order: said only when the
 * repository holds any of that kind (a repository of marketplace packs only says nothing of skills).
 */
function missingHere(kind: DiffEntry['kind'], mine: string[], theirs: Iterable<string>): DiffEntry[] {
  if (mine.length === 0) return []
  const have = new Set(mine)
  return [...theirs]
    .filter((id) => !have.has(id))
    .map((id) => ({ kind, id, state: 'missing-here' as const, changes: [] }))
}

export function diffManager(
  local: { skills: LocalSkill[]; packs: LocalPack[] },
  remote: { skills: RemoteSkill[]; installed: InstalledPack[] },
): DiffResult {
  const entries: DiffEntry[] = []
  const sub = new Map(
    remote.skills.filter((s) => s.result_preview === SUBPROCESS_PREVIEW).map((s) => [s.key, s]),
  )
  const anyKey = new Map(remote.skills.map((s) => [s.key, s]))
  for (const l of local.skills) {
    const r = sub.get(l.key)
    if (r === undefined) {
      const other = anyKey.get(l.key)
      entries.push({
        kind: 'subprocess',
        id: l.key,
        state: other ? 'other-kind-there' : 'missing-there',
        changes: other
          ? [
              {
                field: 'kind',
                here: 'subprocess',
                there: other.source ? 'SKILL.md' : 'builtin or bridged tool',
              },
            ]
          : [],
        path: l.path,
      })
      continue
    }
    const changes = differing([
      ['description', l.description, r.description ?? ''],
      ['class', l.class, r.class ?? ''],
      ['category', l.category, r.category ?? ''],
      ['scope', 'manager', r.scope ?? ''],
    ])
    entries.push(compared('subprocess', l.key, l.path, changes))
  }
  entries.push(
    ...missingHere(
      'subprocess',
      local.skills.map((s) => s.key),
      sub.keys(),
    ),
  )
  const installed = new Map(remote.installed.map((p) => [p.PackID ?? '', p]))
  for (const l of local.packs) {
    const r = installed.get(l.id)
    if (r === undefined) {
      entries.push({ kind: 'marketplace', id: l.id, state: 'missing-there', changes: [], path: l.path })
      continue
    }
    const changes = differing([
      ['manifest_sha256', l.manifestSha256, r.ManifestSHA256 ?? null],
      ['version', l.version, r.Version ?? null],
      ['display_name', l.displayName, r.DisplayName ?? null],
    ])
    const there = skillsOf(r)
    const here = [...l.skills].sort()
    if (there !== null && here.join('\n') !== there.join('\n')) changes.push({ field: 'skills', here, there })
    entries.push(compared('marketplace', l.id, l.path, changes))
  }
  entries.push(
    ...missingHere(
      'marketplace',
      local.packs.map((p) => p.id),
      remote.installed.map((p) => p.PackID ?? ''),
    ),
  )
  const not_compared = [
    ...(local.skills.length > 0 ? [NOT_COMPARED_SUBPROCESS] : []),
    ...(local.packs.length > 0 ? [NOT_COMPARED_MARKETPLACE] : []),
    NOT_COMPARED_SKILLMD,
  ]
  return { entries, drift: entries.some((e) => e.state !== 'same'), not_compared }
}
