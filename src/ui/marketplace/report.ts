/**
 * `marketplace check` and `verify` results: the lint model (so every lint format renders them),
 * the `--json` document, and the human summary printed above the stylish findings.
 */
import type { FileReport } from '../../core/lint/engine.js'
import type { Finding, RuleMeta } from '../../core/lint/types.js'
import { type CheckDocument, NOT_EXACT, someNames } from '../../core/marketplace/check.js'
import { DEVMODE_ENV, PINNED_PUBKEY_ENV, REQUIRE_SIGNED_ENV } from '../../core/marketplace/install.js'
import { envelope } from '../envelope.js'
import { filesJson } from '../lint/json.js'
import { counts, type LintOutput, repoRoot } from '../lint/model.js'
import { terminalLineText } from '../terminal.js'

function capabilitiesLine(doc: CheckDocument): string | null {
  if (doc.capabilitiesUnsupported) return `not reproduced (${doc.capabilitiesUnsupported})`
  const s = doc.capabilities?.summary
  if (!s) return null
  const parts: string[] = []
  if (s.tool_classes) parts.push(`tool classes ${s.tool_classes.join(', ')}`)
  if (s.bins) parts.push(`bins ${s.bins.join(', ')}`)
  if (s.config_keys) parts.push(`config ${s.config_keys.join(', ')}`)
  if (s.credential_slots) parts.push(`credentials ${s.credential_slots.map((c) => c.slot).join(', ')}`)
  return parts.length === 0 ? 'none declared' : parts.join('; ')
}

/** The lint model of a result; `terminal`: stdout is one (stylish and github escape what packs hold). */
export function lintOutput(doc: CheckDocument, rules: RuleMeta[], cwd: string, terminal = false): LintOutput {
  const byFile = new Map<string, Finding[]>()
  byFile.set(doc.target.path, [])
  for (const f of doc.findings) {
    const list = byFile.get(f.file) ?? []
    list.push({
      ruleId: f.ruleId,
      severity: f.severity,
      file: f.file,
      line: 1,
      column: 1,
      offset: null,
      message: f.message,
      ...(f.hint ? { hint: f.hint } : {}),
    })
    byFile.set(f.file, list)
  }
  const files: FileReport[] = [...byFile].map(([file, findings]) => ({
    kind: 'native',
    path: file,
    file,
    name: file === doc.target.path ? (doc.pack?.id ?? null) : null,
    findings,
    ignored: false,
    ctx: null,
  }))
  return {
    command: doc.command,
    files,
    rules,
    ignored: 0,
    cwd,
    repo: repoRoot(cwd),
    failSeverity: 'error',
    terminal,
  }
}

/**
 * The human summary (plain text, before the findings). On a `terminal`, each value (names, paths,
 * the verifier's and installer's texts) has its control characters and newlines escaped as %q would.
 */
export function summary(doc: CheckDocument, rel: (p: string) => string, terminal = false): string {
  let out = ''
  const line = (k: string, v: string) => {
    out += `${`${k}:`.padEnd(12)}${terminalLineText(v, terminal)}\n`
  }
  line('pack', `${rel(doc.target.path)}${doc.target.root ? ` (root ${doc.target.root})` : ''}`)
  if (doc.command === 'marketplace check') {
    line('layout', doc.layout === null || doc.layout === '' ? 'none' : doc.layout)
    if (doc.pack) {
      line('id', JSON.stringify(doc.pack.id))
      line('version', JSON.stringify(doc.pack.version))
      line('manifest', `sha256 ${doc.pack.manifestSha256}`)
      const cmds = doc.skills.filter((s) => s.from === 'command')
      const skills = doc.skills.filter((s) => s.from === 'skill')
      line('skills', skills.length === 0 ? '0' : `${skills.length}: ${skills.map((s) => s.name).join(', ')}`)
      line('commands', cmds.length === 0 ? '0' : `${cmds.length}: ${cmds.map((s) => s.name).join(', ')}`)
      line(
        'agents',
        doc.agents.length === 0 ? '0' : `${doc.agents.length}: ${doc.agents.map((a) => a.name).join(', ')}`,
      )
    }
  }
  if (doc.signature) {
    const s = doc.signature
    line('signature', s.error ? `${s.state}: ${s.error}${s.exact ? '' : NOT_EXACT}` : s.state)
    // The manager's line first; then, ours, what changed since signing.
    const c = s.changes
    if (c !== null && !c.recorded) line('changes', 'not recorded (signature.json holds no per-file digests)')
    else if (c !== null) {
      if (c.changed.length > 0) line('changed', someNames(c.changed, 10))
      if (c.added.length > 0) line('added', someNames(c.added, 10))
      if (c.removed.length > 0) line('removed', someNames(c.removed, 10))
      if (c.changed.length + c.added.length + c.removed.length === 0)
        line('changes', 'none in the signed files (the sig or pub_key was changed)')
    }
    if (s.uncovered.length > 0)
      line(
        'not signed',
        `${s.uncovered.length} file${s.uncovered.length === 1 ? '' : 's'}: ${s.uncovered.slice(0, 5).join(', ')}${s.uncovered.length > 5 ? ', …' : ''}`,
      )
  }
  if (doc.install) {
    line('install', doc.install.ok ? 'accepted' : `refused: ${doc.install.error}`)
  }
  const caps = capabilitiesLine(doc)
  if (caps !== null) line('declares', caps)
  // Settings taken from the manager's variables are named: they act without a flag in sight.
  const t = doc.trust
  const fromEnv = Object.entries(t?.from ?? {}).filter(([, v]) => v === 'env')
  if (t && fromEnv.length > 0) {
    const said: Record<string, string> = {
      devMode: `dev mode ${t.devMode ? 'on' : 'off'} (${DEVMODE_ENV})`,
      requireSigned: `signed sources ${(t.requireSigned ?? []).join(',') || 'none'} (${REQUIRE_SIGNED_ENV})`,
      pinnedKey: `a pinned key (${PINNED_PUBKEY_ENV})`,
    }
    line('settings', fromEnv.map(([k]) => said[k]).join('; '))
  }
  return `${out}\n`
}

/** camelCase to snake_case (`pinnedKey` → `pinned_key`). */
const snake = (k: string) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)

/**
 * The json document of `marketplace check|verify` (schemas/output/marketplace-check.schema.json,
 * marketplace-verify.schema.json): the envelope, the verdict in snake_case, the findings as lint
 * gives them (`files`) and their counts. `capabilities_json` is the manager's bytes, unchanged.
 */
export function checkJson(doc: CheckDocument, out: LintOutput, exitCode: number, failure: string) {
  const trust =
    doc.trust === null
      ? null
      : {
          ...(doc.trust.devMode !== undefined ? { dev_mode: doc.trust.devMode } : {}),
          ...(doc.trust.requireSigned !== undefined ? { require_signed: doc.trust.requireSigned } : {}),
          pinned_key: doc.trust.pinnedKey,
          ...(doc.trust.source !== undefined ? { source: doc.trust.source } : {}),
          ...(doc.trust.from
            ? { from: Object.fromEntries(Object.entries(doc.trust.from).map(([k, v]) => [snake(k), v])) }
            : {}),
        }
  return envelope(
    doc.command,
    exitCode,
    {
      target: doc.target,
      layout: doc.layout,
      pack:
        doc.pack === null
          ? null
          : {
              id: doc.pack.id,
              display_name: doc.pack.displayName,
              version: doc.pack.version,
              description: doc.pack.description,
              manifest_sha256: doc.pack.manifestSha256,
            },
      skills: doc.skills,
      agents: doc.agents,
      warnings: doc.warnings,
      install: doc.install,
      capabilities: doc.capabilities,
      capabilities_json: doc.capabilitiesJSON,
      ...(doc.capabilitiesUnsupported !== undefined
        ? { capabilities_unsupported: doc.capabilitiesUnsupported }
        : {}),
      signature: doc.signature,
      trust,
      files: filesJson(out),
      summary: counts(out),
    },
    failure,
  )
}
