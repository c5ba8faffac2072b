/**
 * The manager's Install (marketplace/usecase.go, v0.13.4) replayed offline on a staged pack:
 * the steps a CLI can reproduce (3–10 and 13–14 of the contract) with their texts in order,
 * the configuration that decides the trust gate, and the manager's likely bugs, reported as
 * findings of ours (never as the manager's verdict).
 */

import { type GoString, trimSpace } from '../go/gostring.js'
import { evalSymlinks } from '../go/path/filepath/symlink.js'
import { quote } from '../go/strconv/quote.js'
import { pathHasPrefix } from '../loader/build.js'
import type { Release } from '../releases/release.js'
import { type ContainerKind, detectContainer, type LoadResult, loadPluginContainer } from './container.js'
import { marketplaceRule, UNSIGNED_MESSAGE } from './rules.js'
import { type Verdict, verifySignature } from './signature.js'
import type { LoadWarning } from './types.js'

export const ALLOWED_SOURCES = ['ongrid-official', 'local'] as const
export const DEFAULT_REQUIRE_SIGNED = ['ongrid-official']

export interface TrustConfig {
  /** ONGRID_MARKETPLACE_DEVMODE: true unless set to something other than "" / "true" (any case). */
  devMode: boolean
  /** ONGRID_MARKETPLACE_REQUIRE_SIGNED_SOURCES, parsed. */
  requireSigned: string[]
  /** ONGRID_MARKETPLACE_PINNED_PUBKEY (raw). */
  pinnedKey: GoString
  /** The install's source label: `local` for an upload or a local path. */
  source: string
}

export const DEFAULT_TRUST: TrustConfig = {
  devMode: true,
  requireSigned: DEFAULT_REQUIRE_SIGNED,
  pinnedKey: '',
  source: 'local',
}

/** The manager's marketplace settings (read once in cmd/ongrid/main.go). */
export const DEVMODE_ENV = 'ONGRID_MARKETPLACE_DEVMODE'
export const REQUIRE_SIGNED_ENV = 'ONGRID_MARKETPLACE_REQUIRE_SIGNED_SOURCES'
export const PINNED_PUBKEY_ENV = 'ONGRID_MARKETPLACE_PINNED_PUBKEY'

/** ONGRID_MARKETPLACE_DEVMODE as main.go reads it. */
export function parseDevMode(v: string | undefined): boolean {
  return v === undefined || v === '' || v.toLowerCase() === 'true'
}

/** ONGRID_MARKETPLACE_REQUIRE_SIGNED_SOURCES as main.go reads it. */
export function parseRequireSigned(v: GoString | undefined): GoString[] {
  const t = trimSpace(v ?? '')
  if (t === '') return [...DEFAULT_REQUIRE_SIGNED]
  return t
    .split(',')
    .map((s) => trimSpace(s))
    .filter((s) => s !== '')
}

/** stagingBasename: TrimSpace, trim `/` and `\` at both ends; "", ".", ".." → "pack". */
export function stagingBasename(name: GoString): GoString {
  const s = trimSpace(name).replace(/^[/\\]+|[/\\]+$/g, '')
  return s === '' || s === '.' || s === '..' ? 'pack' : s
}

/** A finding about the pack: the manager's (code, text) or ours. */
export interface InstallFinding {
  /** Rule id. */
  id: string
  severity: 'error' | 'warn' | 'info'
  /** Byte string path (absolute), or the pack dir for pack-level findings. */
  path: GoString
  message: string
  /** True for the manager's own verdicts and texts; false for ours. */
  manager: boolean
  exact?: boolean
}

export interface InstallCheck {
  kind: ContainerKind
  load: LoadResult | null
  /** The error Install returns (the manager's text), or null when it installs. */
  installError: GoString | null
  /** Whether installError's text is exact. */
  installErrorExact: boolean
  signature: Verdict | null
  findings: InstallFinding[]
}

const NO_LAYOUT =
  'invalid argument: not a recognized pack layout (need .claude-plugin/plugin.json, openclaw.plugin.json, or at least one skills/<name>/SKILL.md)'

/** The ids `pack` accepts (the manager accepts more; see the findings). */
export const STRICT_ID = /^[a-z0-9][a-z0-9-]{0,127}$/

const LIMITS = [
  ['id', 128, 'pack_id'],
  ['displayName', 255, 'display_name'],
  ['version', 64, 'version'],
] as const

/** Install's checks on a staged pack dir, in order; then the signature and the trust gate. */
export async function checkInstall(
  dir: GoString,
  trust: TrustConfig = DEFAULT_TRUST,
  opts: { stagingName?: GoString; release?: Release } = {},
): Promise<InstallCheck> {
  const out: InstallCheck = {
    kind: '',
    load: null,
    installError: null,
    installErrorExact: true,
    signature: null,
    findings: [],
  }
  const refuse = (text: GoString, exact = true) => {
    out.installError = text
    out.installErrorExact = exact
  }
  // Step 1: the allowlist (DevMode skips it).
  if (!trust.devMode && !(ALLOWED_SOURCES as readonly string[]).includes(trust.source)) {
    refuse(
      `forbidden: source ${quote(trust.source)} not in allowlist (set ONGRID_MARKETPLACE_DEVMODE=true to override)`,
    )
    return out
  }
  // Step 4.
  const det = detectContainer(dir)
  out.kind = det.kind
  if (det.kind === '') {
    refuse(NO_LAYOUT)
    return out
  }
  // Step 5.
  const loaded = await loadPluginContainer(dir, opts)
  if (!loaded.ok) {
    refuse(`invalid argument: plugin container load failed: ${loaded.err.error()}`)
    return out
  }
  const load = loaded.result
  out.load = load
  const id = load.pack.id
  ourFindings(out, dir, load)
  // Step 6.
  if (id === '') {
    refuse("invalid argument: plugin manifest missing required 'id' field")
    return out
  }
  // Step 7: the first escapes_root warning.
  const escaping = load.warnings.find((w) => w.code === 'escapes_root')
  if (escaping) {
    refuse(`invalid argument: pack contains path-traversal symlinks (${escaping.path})`)
    return out
  }
  // Step 9.
  if (id.includes('..') || id.includes('/')) {
    refuse(`invalid argument: pack id ${quote(id)} contains path separators or '..'`)
    return out
  }
  // Steps 11–12 need the manager's database and disk; step 13 verifies the installed tree.
  const sig = verifySignature(dir, trust.pinnedKey)
  out.signature = sig
  // Step 14: the trust gate.
  if (!trust.devMode && trust.requireSigned.includes(trust.source) && sig.state !== 'verified') {
    const detail = sig.state === 'unsigned' ? UNSIGNED_MESSAGE : (sig.err?.error() ?? '')
    refuse(
      `forbidden: source ${quote(trust.source)} requires signed packs (state=${sig.state}: ${detail})`,
      sig.exact,
    )
  }
  return out
}

/** The manager's likely bugs and the limits its database enforces, as findings of ours. */
function ourFindings(out: InstallCheck, dir: GoString, load: LoadResult): void {
  const id = load.pack.id
  // Each at its rule's severity (rules.ts).
  const add = (f: Omit<InstallFinding, 'manager' | 'severity'>) =>
    out.findings.push({ ...f, severity: marketplaceRule(f.id).severity, manager: false })
  if (id === '.') {
    add({
      id: 'marketplace-bug/id-dot',
      path: dir,
      message:
        'pack id "." passes every manager check, and installing it deletes the whole skills root (every installed pack) before the rename; the manager does not refuse it',
    })
  } else if (id === 'skills' || id === '.claude-plugin' || id === 'agents' || id === 'commands') {
    add({
      id: 'marketplace-bug/id-shadows-root',
      path: dir,
      message: `pack id ${JSON.stringify(id)} can make the skills root itself look like a pack at reload, which hides every other installed pack`,
    })
  }
  if (!STRICT_ID.test(id)) {
    add({
      id: 'marketplace-practice/id-form',
      path: dir,
      message: `pack id ${JSON.stringify(id)} is not of the form ^[a-z0-9][a-z0-9-]{0,127}$ (the manager accepts it, \`pack\` does not)`,
    })
  }
  for (const [field, max, column] of LIMITS) {
    const v = load.pack[field]
    const n = Buffer.from(v, 'latin1').toString('utf8').length
    if ([...Buffer.from(v, 'latin1').toString('utf8')].length > max) {
      add({
        id: 'marketplace-practice/db-limit',
        path: dir,
        message: `${column} is ${n} characters; the manager's database column holds ${max}, so the install fails with an internal error (MySQL strict mode)`,
      })
    }
  }
  // A dangling link whose target text points out of the pack: symlink_error, which does not block.
  for (const w of load.warnings) {
    if (w.code !== 'symlink_error') continue
    if (!danglingOutside(w, load.resolvedRoot)) continue
    add({
      id: 'marketplace-bug/dangling-escape',
      path: w.path,
      message:
        'this dangling symlink points out of the pack: the manager only warns (symlink_error) and installs it, and it becomes live if its target appears later',
    })
  }
}

function danglingOutside(w: LoadWarning, root: GoString | null): boolean {
  if (root === null) return false
  // EvalSymlinks stops at the first missing component: where the link would land.
  const r = evalSymlinks(w.path)
  if (r.ok) return false
  const m = /^lstat (.*): no such file or directory$/s.exec(r.err.error())
  return m !== null && !pathHasPrefix(m[1], root)
}
