import { fromBuffer, toBuffer, toText } from '../core/go/gostring.js'
import { stringify } from '../core/json-text.js'
import type { Session } from '../core/remote/credentials.js'
import {
  type DiffResult,
  type InstalledPack,
  type RemoteSkill,
  SUBPROCESS_PREVIEW,
} from '../core/remote/diff.js'
import { terminalBytes, terminalLineText } from './terminal.js'

/**
 * What `remote` shows a person: tables and summaries. Text from the manager (names,
 * descriptions, errors) is escaped on a terminal (terminalLineText), never obeyed.
 */

export function line(text: string, out: NodeJS.WriteStream): string {
  return terminalLineText(text, out.isTTY === true)
}

function when(unix: number): string {
  return unix > 0 ? new Date(unix * 1000).toISOString().replace('.000Z', 'Z') : 'unknown'
}

/** Every value from the manager or the user (email, role, version) escaped on a terminal. */
export function loggedIn(
  base: string,
  s: Session,
  version: string,
  path: string,
  out: NodeJS.WriteStream,
): string {
  return [
    `Logged in to ${base} (ongrid ${version}) as ${s.email}, role ${s.role}.`,
    `Access token until ${when(s.access_expires_at)}, refreshed with the refresh token until ${when(s.refresh_expires_at)}.`,
    `Tokens kept in ${path} (0600).`,
  ]
    .map((l) => `${line(l, out)}\n`)
    .join('')
}

export function whoami(
  base: string,
  self: { id: number; email: string; role: string },
  tokenRole: string,
  version: string,
  s: Session,
  out: NodeJS.WriteStream,
): string {
  const role =
    tokenRole === self.role
      ? self.role
      : `${self.role} (the session's token still says ${tokenRole}: the manager checks that one until the token is refreshed)`
  return [
    `manager   ${base} (ongrid ${version})`,
    `user      ${self.email} (id ${self.id})`,
    `role      ${role}`,
    `access    until ${when(s.access_expires_at)}`,
    `session   until ${when(s.refresh_expires_at)} (then remote login again)`,
  ]
    .map((l) => `${line(l, out)}\n`)
    .join('')
}

/** A skill in --json: the manager's fields, with its kind said (what /v1/skills mixes). */
export function skillDoc(s: RemoteSkill) {
  return { ...s, kind: kindOf(s) }
}

function kindOf(s: RemoteSkill): string {
  if (s.params === null) return 'skill-md'
  if (s.result_preview === SUBPROCESS_PREVIEW) return 'subprocess'
  if (s.inventory_only === true) return 'bridged-tool'
  return 'builtin'
}

function table(rows: string[][], out: NodeJS.WriteStream): string {
  const cells = rows.map((r) => r.map((c) => line(c, out)))
  const widths = cells[0].map((_, i) => Math.max(...cells.map((r) => [...(r[i] ?? '')].length)))
  return cells
    .map((r) =>
      r
        .map((c, i) => (i === r.length - 1 ? c : c + ' '.repeat(widths[i] - [...c].length)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n')
    .concat('\n')
}

export function skillTable(items: RemoteSkill[], out: NodeJS.WriteStream): string {
  if (items.length === 0) return 'No skills.\n'
  const first = (d = '') => {
    const l = d.split('\n')[0]
    return [...l].length > 60 ? `${[...l].slice(0, 59).join('')}…` : l
  }
  return table(
    [
      ['KEY', 'KIND', 'CLASS', 'SCOPE', 'CATEGORY', 'DESCRIPTION'],
      ...items.map((s) => [
        s.key,
        kindOf(s),
        s.class ?? '',
        s.scope ?? '',
        s.category ?? '',
        first(s.description),
      ]),
    ],
    out,
  )
}

export function skillDetail(s: RemoteSkill, out: NodeJS.WriteStream): string {
  const rows = [
    `key          ${s.key}`,
    `name         ${s.name ?? ''}`,
    `kind         ${kindOf(s)}`,
    `class        ${s.class ?? ''}`,
    `scope        ${s.scope ?? ''}`,
    `category     ${s.category ?? ''}`,
    ...(s.result_preview ? [`result       ${s.result_preview}`] : []),
    `description  ${s.description ?? ''}`,
  ].map((l) => line(l, out))
  const params = (s.params ?? []).map((p) =>
    line(
      `  ${p.name} (${p.type}${p.required ? ', required' : ''}${p.default !== undefined ? `, default ${JSON.stringify(p.default)}` : ''})${p.desc ? `: ${p.desc}` : ''}`,
      out,
    ),
  )
  return `${rows.join('\n')}\nparams${params.length ? `\n${params.join('\n')}` : '       none declared'}\n`
}

export function gateLine(
  s: RemoteSkill,
  role: string,
  refused: boolean,
  out: NodeJS.WriteStream,
  edge?: number,
): string {
  const where =
    s.scope === 'host' ? (edge === undefined ? 'on an edge' : `on edge ${edge}`) : 'in the manager'
  return `${line(`${s.key}: ${s.class ?? 'safe'}, runs ${where}; role ${role} ${refused ? 'is refused' : 'may run it'}`, out)}\n`
}

function parsed(text: string | undefined): unknown {
  if (text === undefined || text === '') return null
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

/** An installed pack in --json: snake_case, its JSON strings parsed once more. */
export function packDoc(p: InstalledPack) {
  return {
    id: p.ID ?? null,
    pack_id: p.PackID ?? null,
    display_name: p.DisplayName ?? null,
    version: p.Version ?? null,
    source: p.Source ?? null,
    install_path: p.InstallPath ?? null,
    manifest_sha256: p.ManifestSHA256 ?? null,
    signature_state: p.SignatureState ?? null,
    capabilities: parsed(p.CapabilitiesJSON),
    bindings: parsed(p.BindingsJSON),
    installed_by: p.InstalledBy ?? null,
    installed_at: p.InstalledAt ?? null,
  }
}

export function packTable(items: InstalledPack[], out: NodeJS.WriteStream): string {
  if (items.length === 0) return 'No packs installed.\n'
  return table(
    [
      ['PACK', 'VERSION', 'SOURCE', 'SIGNATURE', 'INSTALLED', 'SHA256'],
      ...items.map((p) => [
        p.PackID ?? '',
        p.Version ?? '',
        p.Source ?? '',
        p.SignatureState ?? '',
        p.InstalledAt ?? '',
        (p.ManifestSHA256 ?? '').slice(0, 12),
      ]),
    ],
    out,
  )
}

export function registries(
  items: { name: string; url: string; allowed: boolean }[],
  devMode: boolean,
  out: NodeJS.WriteStream,
): string {
  const list = items.map((i) =>
    line(`${i.name}${i.url ? ` ${i.url}` : ''}${i.allowed ? '' : ' (not allowed)'}`, out),
  )
  return `${list.join('\n')}\n${
    devMode
      ? 'The manager runs in dev mode: any install source is allowed and no signature is required.\n'
      : 'Dev mode is off: only ongrid-official and local installs, signatures as the manager requires.\n'
  }`
}

export function pushed(
  doc: {
    pack?: InstalledPack
    capabilities: unknown
    warnings?: { path: string; reason: string; code: string }[] | null
  },
  out: NodeJS.WriteStream,
): string {
  const p = doc.pack ?? {}
  const at = (v: string | number | undefined) => (v === undefined ? '(not said)' : String(v))
  const caps = doc.capabilities as { skills?: { name: string; scope?: string }[] | null } | null
  const skills = (caps?.skills ?? []).map((s) => `${s?.name}${s?.scope ? ` (${s.scope})` : ''}`)
  const lines = [
    `Installed ${at(p.PackID)} ${at(p.Version)} (id ${at(p.ID)}), signature ${at(p.SignatureState)}, manifest sha256 ${at(p.ManifestSHA256)}`,
    `skills: ${skills.length ? skills.join(', ') : 'none'}`,
    ...(doc.warnings ?? []).map((w) => `warning ${w.code}: ${w.reason}`),
  ]
  return `${lines.map((l) => line(l, out)).join('\n')}\n`
}

const STATE_TEXT: Record<string, string> = {
  'missing-there': 'missing there',
  'missing-here': 'missing here',
  changed: 'changed',
  same: 'same',
  'other-kind-there': 'another kind there',
}

export function diffText(d: DiffResult, base: string, out: NodeJS.WriteStream): string {
  const lines: string[] = []
  for (const e of d.entries) {
    if (e.state === 'same') continue
    lines.push(`${STATE_TEXT[e.state]}  ${e.kind} ${e.id}${e.path ? `  (${e.path})` : ''}`)
    for (const c of e.changes)
      lines.push(`    ${c.field}: here ${JSON.stringify(c.here)}, there ${JSON.stringify(c.there)}`)
  }
  const same = d.entries.filter((e) => e.state === 'same').length
  lines.push(
    d.drift ? `drift against ${base}; ${same} the same` : `no drift against ${base} (${same} compared)`,
  )
  for (const n of d.not_compared) lines.push(`not compared: ${n}`)
  return `${lines.map((l) => line(l, out)).join('\n')}\n`
}

/**
 * A skill's result for a person: the manager's bytes as they came (as `run` prints stdout),
 * with control characters shown escaped on a terminal; `null` when there is none.
 */
export function resultBytes(raw: Buffer | null, out: NodeJS.WriteStream): Buffer {
  const bytes = raw ?? Buffer.from('null')
  return Buffer.concat([
    out.isTTY === true ? toBuffer(terminalBytes(fromBuffer(bytes), true)) : bytes,
    Buffer.from('\n'),
  ])
}

const RESULT_SLOT = '\u0000result\u0000'

/**
 * `remote exec --json`: the document with `result` spliced in as the manager's own text (never
 * through a JS number), and `result_text` the same text as a string.
 */
export function execJson(doc: object, raw: Buffer | null): Buffer {
  const text = `${stringify(raw === null ? doc : { ...doc, result: RESULT_SLOT }, 2)}\n`
  if (raw === null) return Buffer.from(text)
  // Valid UTF-8 goes as it came; else as the text of its string (one U+FFFD per bad byte).
  const bytes = Buffer.from(raw.toString('utf8'), 'utf8').equals(raw)
    ? raw
    : Buffer.from(toText(fromBuffer(raw)))
  const at = text.indexOf(JSON.stringify(RESULT_SLOT))
  return Buffer.concat([
    Buffer.from(text.slice(0, at)),
    bytes,
    Buffer.from(text.slice(at + JSON.stringify(RESULT_SLOT).length)),
  ])
}
