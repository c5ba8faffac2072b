/**
 * The chatruntime's container loader (plugin_container.go, v0.13.4): DetectContainer and
 * LoadPluginContainer on a pack dir — the layout, the manifest's fields and errors, the pack id,
 * the manifest sha256, the skill roots and every warning in the manager's order.
 */
import { createHash } from 'node:crypto'
import { structSpec, unmarshal } from '../go/encoding/json/decode.js'
import { ErrorString, type GoError } from '../go/errors.js'
import { fromBuffer, type GoString, toBuffer, trimSpace } from '../go/gostring.js'
import { type FileInfo, readDirEntries, stat } from '../go/os/file.js'
import { abs, base, clean, isAbs, join } from '../go/path/filepath/path.js'
import { evalSymlinks } from '../go/path/filepath/symlink.js'
import { SKIP_DIR, walk } from '../go/path/filepath/walk.js'
import { quote } from '../go/strconv/quote.js'
import { pathHasPrefix } from '../loader/build.js'
import { type Decoded, stringField } from '../native/fields.js'
import type { Release } from '../releases/release.js'
import { checkPackFile, readPackFile } from './pack-read.js'
import type { ContainerKind, LoadWarning } from './types.js'

export type { ContainerKind, LoadWarning } from './types.js'

export interface Detected {
  kind: ContainerKind
  manifestPath: GoString
}

function isFile(p: GoString): boolean {
  const s = stat(p)
  return s.ok && !s.value.isDir()
}

function isDir(p: GoString): boolean {
  const s = stat(p)
  return s.ok && s.value.isDir()
}

/** DetectContainer(dir): openclaw > claude > bare skills > none. */
export function detectContainer(dir: GoString): Detected {
  const openclaw = join(dir, 'openclaw.plugin.json')
  if (isFile(openclaw)) return { kind: 'openclaw', manifestPath: openclaw }
  const claude = join(dir, '.claude-plugin', 'plugin.json')
  if (isFile(claude)) return { kind: 'claude', manifestPath: claude }
  if (hasBareSkills(dir)) return { kind: 'bare_skills', manifestPath: '' }
  return { kind: '', manifestPath: '' }
}

function hasBareSkills(dir: GoString): boolean {
  if (isFile(join(dir, 'SKILL.md'))) return true
  const skillsDir = join(dir, 'skills')
  const entries = readDirEntries(skillsDir, (n) => join(skillsDir, n))
  if (!entries.ok) return false
  for (const [name, info] of entries.value) {
    if (!info.isDir()) continue
    if (isFile(join(skillsDir, name, 'SKILL.md'))) return true
  }
  return false
}

/** bareSkillsPackID: lowercase, keep [a-z0-9], one `-` for each run of anything else, trimmed. */
export function bareSkillsPackID(b: GoString): GoString {
  if (b === '') return 'untitled-skill-pack'
  // strings.ToLower rune by rune: only runes that lower into [a-z] survive (A-Z, U+0130, U+212A).
  const lowered = b
    .replace(/\xc4\xb0/g, 'i')
    .replace(/\xe2\x84\xaa/g, 'k')
    .replace(/[A-Z]/g, (c) => c.toLowerCase())
  let out = ''
  let prevDash = false
  for (let i = 0; i < lowered.length; i++) {
    const c = lowered.charCodeAt(i)
    if ((c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39)) {
      out += lowered[i]
      prevDash = false
    } else if (!prevDash && out.length > 0) {
      out += '-'
      prevDash = true
    }
  }
  out = out.replace(/^-+|-+$/g, '')
  return out === '' ? 'untitled-skill-pack' : out
}

export interface Pack {
  id: GoString
  displayName: GoString
  version: GoString
  description: GoString
  /** Top-level manifest keys outside the exact known set (ui_metadata), sorted. */
  extras: GoString[]
  dir: GoString
  manifestSHA256: string
}

export interface LoadResult {
  pack: Pack
  /** In load order; `fields`: a SKILL.md's decoded chatruntime.Skill (commands declare nothing). */
  skills: { name: GoString; path: GoString; from: 'skill' | 'command'; fields: Map<string, Decoded> | null }[]
  agents: { name: GoString; path: GoString }[]
  warnings: LoadWarning[]
  /** The resolved pack root, or null when it did not resolve. */
  resolvedRoot: GoString | null
  /** The roots the skills walk covered. */
  skillRoots: GoString[]
  /** Every file the skills walk hands to ParseSkillMd, in walk order. */
  skillFiles: GoString[]
}

export type Loaded = { ok: true; result: LoadResult; kind: ContainerKind } | { ok: false; err: GoError }

/**
 * filepath.Walk of `root` as the loader runs it: an entry's error, then the walk's own, become
 * walk_error warnings; `visit` sees the others.
 */
function walkNoting(
  root: GoString,
  warnings: LoadWarning[],
  visit: (path: GoString, info: FileInfo | null) => GoError | null,
): void {
  const werr = walk(root, (path, info, err) => {
    if (err !== null) {
      warnings.push({ path, code: 'walk_error', reason: err.error() })
      return null
    }
    return visit(path, info)
  })
  if (werr !== null) warnings.push({ path: root, code: 'walk_error', reason: werr.error() })
}

const MANIFEST_SPEC = structSpec('chatruntime.PluginManifest', [
  ['id', 'string'],
  ['name', 'string'],
  ['version', 'string'],
  ['description', 'string'],
  ['configSchema', 'rawMessage'],
])
const KNOWN = new Set(['id', 'name', 'version', 'description', 'configSchema'])

/** parsePluginManifest(raw, kind). */
export function parsePluginManifest(
  raw: GoString,
  kind: ContainerKind,
):
  | { ok: true; pack: Omit<Pack, 'dir' | 'manifestSHA256'>; warnings: LoadWarning[] }
  | { ok: false; err: GoError } {
  const m = unmarshal(raw, MANIFEST_SPEC)
  if (m.err !== null) return { ok: false, err: new ErrorString(`decode: ${m.err.error()}`) }
  const extras = [...new Set(m.keys.filter((k) => !KNOWN.has(k.key)).map((k) => k.key))].sort()
  const warnings: LoadWarning[] = []
  let id = m.values.id as GoString
  const name = m.values.name as GoString
  if (id === '') {
    if (name === '') return { ok: false, err: new ErrorString("manifest missing required field 'id'") }
    id = name
    warnings.push({
      path: '',
      code: 'id_fallback_from_name',
      reason: "plugin manifest missing 'id'; using 'name' as id",
    })
  }
  if (kind === 'openclaw' && extras.length > 0) {
    warnings.push({
      path: '',
      code: 'openclaw_legacy_preserved',
      reason: `preserved ${extras.length} openclaw-specific manifest fields under ui_metadata.openclaw_legacy`,
    })
  }
  return {
    ok: true,
    pack: {
      id,
      displayName: name,
      version: m.values.version as GoString,
      description: m.values.description as GoString,
      extras,
    },
    warnings,
  }
}

function sha256Hex(raw: Buffer): string {
  return createHash('sha256').update(raw).digest('hex')
}

/**
 * pathSafeUnderRoot(path, resolvedRoot, &warnings): EvalSymlinks, then the prefix check; a
 * failure appends `symlink_error` (EvalSymlinks' error) or `escapes_root` and answers false.
 */
export function pathSafeUnderRoot(path: GoString, resolvedRoot: GoString, warnings: LoadWarning[]): boolean {
  const r = evalSymlinks(path)
  if (!r.ok) {
    warnings.push({ path, code: 'symlink_error', reason: r.err.error() })
    return false
  }
  if (!pathHasPrefix(r.value, resolvedRoot)) {
    warnings.push({
      path,
      code: 'escapes_root',
      reason: `path traversal: resolved path ${r.value} escapes pack root ${resolvedRoot}`,
    })
    return false
  }
  return true
}

/**
 * LoadPluginContainer(dir). `walkOnly`: the skills walk alone, its SKILL.md files listed
 * (`skillFiles`) but not parsed, its warnings those of the walk; agents, commands, hooks and
 * .mcp.json are left out.
 */
export async function loadPluginContainer(
  dir: GoString,
  /** `release`: whose chatruntime.Agent decodes agents/*.md (default: the newest). */
  opts: { stagingName?: GoString; walkOnly?: boolean; release?: Release } = {},
): Promise<Loaded> {
  const det = detectContainer(dir)
  if (det.kind === '') {
    return {
      ok: false,
      err: new ErrorString(
        `chatruntime: no recognized pack layout in ${dir} (need .claude-plugin/plugin.json, openclaw.plugin.json, or at least one skills/<name>/SKILL.md)`,
      ),
    }
  }
  let warnings: LoadWarning[] = []
  let raw: Buffer
  let packFields: Omit<Pack, 'dir' | 'manifestSHA256'>
  if (det.kind === 'bare_skills') {
    // The manager loads a staging copy named after the source (stagingBasename); a caller
    // checking the source dir in place passes that name.
    let d = dir
    while (d.endsWith('/')) d = d.slice(0, -1)
    const b = trimSpace(opts.stagingName ?? base(d))
    const id = bareSkillsPackID(b)
    packFields = {
      id,
      displayName: b,
      version: '0.0.0',
      description: 'Bare skills.sh-style pack (no manifest).',
      extras: [],
    }
    raw = toBuffer(`bare-skills:${id}`)
  } else {
    const r = readPackFile(det.manifestPath)
    if (!r.ok)
      return { ok: false, err: new ErrorString(`chatruntime: read ${det.manifestPath}: ${r.err.error()}`) }
    raw = r.value
    const p = parsePluginManifest(fromBuffer(raw), det.kind)
    if (!p.ok)
      return { ok: false, err: new ErrorString(`chatruntime: parse ${det.manifestPath}: ${p.err.error()}`) }
    packFields = p.pack
    warnings = p.warnings
  }
  const a = abs(dir)
  const pack: Pack = { ...packFields, dir: a.ok ? a.value : dir, manifestSHA256: sha256Hex(raw) }
  const result: LoadResult = {
    pack,
    skills: [],
    agents: [],
    warnings,
    resolvedRoot: null,
    skillRoots: [],
    skillFiles: [],
  }
  const root = evalSymlinks(dir)
  if (!root.ok) {
    warnings.push({
      path: dir,
      code: 'root_resolve_failed',
      reason: `eval symlinks on pack root: ${root.err.error()}; sub-tree skipped`,
    })
    return { ok: true, result, kind: det.kind }
  }
  const resolvedRoot = root.value
  result.resolvedRoot = resolvedRoot
  const safe = (p: GoString): boolean => pathSafeUnderRoot(p, resolvedRoot, warnings)

  result.skillRoots = resolveSkillSubRoots(dir, det.kind, fromBuffer(raw), warnings)
  let skillMd: typeof import('../native/skill-md.js') | null = null
  for (const sr of result.skillRoots) {
    if (!isDir(sr)) continue
    const files: GoString[] = []
    walkNoting(sr, warnings, (path, info) => {
      if (info === null) return null
      if (info.isSymlink()) {
        if (!safe(path)) return info.isDir() ? SKIP_DIR : null
        return null
      }
      if (info.isDir()) return null
      if (base(path) !== 'SKILL.md') return null
      if (!safe(path)) return null
      files.push(path)
      result.skillFiles.push(path)
      // Parsed in walk order below, with their warnings in place.
      if (!opts.walkOnly) warnings.push({ path, code: '\0parse', reason: '' })
      return null
    })
    if (files.length > 0 && !opts.walkOnly) {
      skillMd ??= await import('../native/skill-md.js')
      const parsed = new Map<GoString, LoadWarning[]>()
      for (const f of files) {
        checkPackFile(f)
        const p = skillMd.parseSkillMd(f)
        const ws: LoadWarning[] = p.warnings.map((w) => ({ path: f, code: w.code, reason: w.reason }))
        if (p.error) ws.push({ path: f, code: 'parse_failed', reason: p.error.message, exact: p.error.exact })
        else {
          const n = stringField(p.skill, 'name')?.value ?? ''
          result.skills.push({
            name: /^[a-z0-9][a-z0-9_]*$/.test(n) ? n : skillMd.normalizeSnakeName(n),
            path: f,
            from: 'skill',
            fields: p.skill,
          })
        }
        parsed.set(f, ws)
      }
      warnings = spliceParsed(warnings, parsed)
      result.warnings = warnings
    }
  }

  if (opts.walkOnly) {
    result.warnings = warnings
    return { ok: true, result, kind: det.kind }
  }
  const fm = () => import('./frontmatter.js')
  const mdFilter = (name: GoString) =>
    /^\.md$/i.test(name.slice(name.lastIndexOf('.'))) &&
    name.includes('.') &&
    name.toLowerCase() !== 'readme.md'
  for (const sub of ['agents', 'commands'] as const) {
    const subDir = join(dir, sub)
    if (!isDir(subDir)) continue
    const files: GoString[] = []
    walkNoting(subDir, warnings, (path, info) => {
      if (info === null || info.isDir()) return null
      if (!mdFilter(info.name)) return null
      if (!safe(path)) return null
      files.push(path)
      warnings.push({ path, code: '\0parse', reason: '' })
      return null
    })
    if (files.length === 0) continue
    const mod = await fm()
    const parsed = new Map<GoString, LoadWarning[]>()
    for (const f of files) {
      if (sub === 'agents') {
        const p = mod.parseAgentMd(f, opts.release)
        const ws = [...p.warnings]
        if (p.error !== null) ws.push({ path: f, code: 'parse_failed', reason: p.error, exact: p.exact })
        else result.agents.push({ name: p.name ?? '', path: f })
        parsed.set(f, ws)
      } else {
        const p = mod.convertCommandFile(f)
        const ws = [...p.warnings]
        if (p.error !== null)
          ws.push({ path: f, code: 'command_parse_failed', reason: p.error, exact: p.exact })
        else result.skills.push({ name: p.name ?? '', path: f, from: 'command', fields: null })
        parsed.set(f, ws)
      }
    }
    warnings = spliceParsed(warnings, parsed)
    result.warnings = warnings
  }

  const note = (path: GoString, code: string, reason: GoString) => warnings.push({ path, code, reason })
  const hooks = join(dir, 'hooks')
  if (isDir(hooks)) {
    note(hooks, 'hooks_unsupported', 'hooks/ subdir found; ongrid does not run plugin hooks')
    const dropped: GoString[] = []
    walk(hooks, (path, info) => {
      if (info === null || info.isDir()) return null
      if (!safe(path)) return null
      dropped.push(path)
      return null
    })
    dropped.sort()
    for (const p of dropped) note(p, 'hooks_dropped', 'hook file ignored; ongrid never executes plugin hooks')
  }
  const mcp = join(dir, '.mcp.json')
  if (isFile(mcp)) {
    note(mcp, 'mcp_unsupported', '.mcp.json found; ongrid does not run MCP servers yet')
  }
  result.warnings = warnings
  return { ok: true, result, kind: det.kind }
}

/** Replaces each placeholder left by a walk with that file's parse warnings. */
function spliceParsed(warnings: LoadWarning[], parsed: Map<GoString, LoadWarning[]>): LoadWarning[] {
  const out: LoadWarning[] = []
  for (const w of warnings) {
    if (w.code === '\0parse') {
      const ws = parsed.get(w.path)
      if (ws) {
        out.push(...ws)
        parsed.delete(w.path)
        continue
      }
    }
    out.push(w)
  }
  return out
}

const SKILLS_SPEC = structSpec('struct { Skills []string "json:\\"skills\\"" }', [['skills', 'stringSlice']])

/** resolveSkillSubRoots(dir, kind, manifestRaw, &warnings). */
export function resolveSkillSubRoots(
  dir: GoString,
  kind: ContainerKind,
  manifestRaw: GoString,
  warnings: LoadWarning[],
): GoString[] {
  const roots: GoString[] = []
  const seen = new Set<GoString>()
  const add = (p: GoString) => {
    const c = clean(p)
    if (seen.has(c)) return
    seen.add(c)
    if (isDir(c)) roots.push(c)
  }
  if (kind === 'openclaw') {
    let declared = false
    const g = unmarshal(manifestRaw, SKILLS_SPEC)
    if (g.err === null) {
      for (const raw of (g.values.skills as GoString[] | null) ?? []) {
        if (trimSpace(raw) === '') continue
        declared = true
        if (isAbs(raw) || raw.includes('..')) {
          warnings.push({
            path: raw,
            code: 'skills_path_rejected',
            reason: `manifest skills[] entry ${quote(raw)} is absolute or contains '..'; rejected`,
          })
          continue
        }
        add(join(dir, raw))
      }
    }
    if (!declared) add(join(dir, 'skills'))
  } else if (kind === 'bare_skills') {
    if (isDir(join(dir, 'skills'))) add(join(dir, 'skills'))
    else add(dir)
  } else {
    add(join(dir, 'skills'))
  }
  return roots
}
