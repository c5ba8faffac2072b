/**
 * The checks of `lint` over a scope (a workspace folder, or the pack of a file outside every
 * folder), with the open buffers read instead of the disk (an `Overlay`), as LSP
 * diagnostics per file: the rule id as `code`, its docs link, severity from the config found
 * upward (the engine's), the exact start converted to the editor's positions.
 */
import { existsSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import type { Diagnostic } from 'vscode-languageserver'
import { UserError } from '../core/errors.js'
import { fromText } from '../core/go/gostring.js'
import { type CheckResult, check } from '../core/lint/engine.js'
import { ConfigError } from '../core/lint/errors.js'
import { subIdHelpUri } from '../core/lint/registry.js'
import type { Finding } from '../core/lint/types.js'
import type { Overlay } from '../core/overlay.js'
import { readRegularSized } from '../core/read-bounded.js'
import type { Release } from '../core/releases/release.js'
import { TOLERANT_NOTE } from '../ui/lint/model.js'
import { RULES_DOC_URL, ruleAnchor } from '../ui/lint/rule-link.js'
import { ByteText } from './positions.js'

/** Largest file read from disk to place its findings (a pack's file is a few KiB). */
const MAX_TEXT = 64 * 1024 * 1024

export const SOURCE = 'ongrid-skill'

/** What a diagnostic carries for code actions and hover. */
export interface DiagnosticData {
  ruleId: string
  /** Byte offsets of the range in the file. */
  start: number
  end: number
  /** Found by the tolerant read past the manager's parse error (lint's `tolerant`): no fix. */
  tolerant?: true
}

/** The bytes findings of `file` are placed in: its buffer when open (in `overlay`), else the disk's. */
export function textOf(file: string, overlay?: Overlay): ByteText {
  const buffer = overlay?.get(fromText(file))
  if (buffer !== undefined) return new ByteText(buffer)
  return new ByteText(diskText(file))
}

/**
 * At most MAX_TEXT bytes of `file` when it is a regular file; else none. Opened without waiting:
 * a FIFO in the workspace (lint reports it, unread) would block the server for ever.
 */
function diskText(file: string): Buffer {
  try {
    return readRegularSized(file, MAX_TEXT, { cut: true })
  } catch {
    return Buffer.alloc(0)
  }
}

const SEVERITY = { error: 1, warn: 2, info: 3 } as const

/** The message shown: the finding's, then its hint on a line of its own. */
export function messageOf(f: Pick<Finding, 'message' | 'hint'>): string {
  return f.hint ? `${f.message}\nhint: ${f.hint}` : f.message
}

export function toDiagnostic(f: Finding, text: ByteText): Diagnostic {
  const start = f.offset ?? text.offsetOfLineColumn(f.line, f.column)
  const end = text.tokenEnd(start)
  const data: DiagnosticData = {
    ruleId: f.ruleId,
    start,
    end,
    ...(f.tolerant ? { tolerant: true as const } : {}),
  }
  return {
    range: { start: text.positionAt(start), end: text.positionAt(end) },
    severity: SEVERITY[f.severity],
    code: f.ruleId,
    codeDescription: { href: subIdHelpUri(f.ruleId) ?? `${RULES_DOC_URL}#${ruleAnchor(f.ruleId)}` },
    source: SOURCE,
    // A tolerant read's finding says so, as lint's stylish report heads them.
    message: f.tolerant ? `${messageOf(f)}\n${TOLERANT_NOTE}` : messageOf(f),
    data,
  }
}

/**
 * The scope a file is checked in: its workspace folder (a dir, walked as `lint DIR` walks it), else
 * its pack's manifest alone (a file: the pack's skill.json, or SKILL.md, for a case file or a
 * config beside it). A file outside every folder is never a reason to walk its dir: that may be
 * `/` (`file:///skill.json`) or a home dir.
 */
export function scopeOf(file: string, folders: readonly string[]): string {
  const inside = folders
    .filter((d) => file.startsWith(d.endsWith('/') ? d : `${d}/`))
    .sort((a, b) => b.length - a.length)[0]
  if (inside !== undefined) return inside
  const name = basename(file)
  if (name === 'skill.json' || name === 'SKILL.md') return file
  const d = dirname(file)
  const pack = basename(d) === 'tests' && file.endsWith('.json') ? dirname(d) : d
  const manifest = join(pack, 'skill.json')
  return existsSync(manifest) || !existsSync(join(pack, 'SKILL.md')) ? manifest : join(pack, 'SKILL.md')
}

/** The dir a scope's findings depend on: the folder itself, or a lone manifest's pack dir. */
export function scopeDir(scope: string): string {
  return /(^|\/)(skill\.json|SKILL\.md)$/.test(scope) ? dirname(scope) : scope
}

/** A config that cannot be used: its one line, on the config file when the line names it. */
function configDiagnostic(e: ConfigError, overlay: Overlay): { file: string; diagnostic: Diagnostic } | null {
  const m = /^(\/.*?\.ongrid-skill\.ya?ml)(?::(\d+):(\d+))?: (.*)$/s.exec(e.message)
  if (m === null) return null
  const text = textOf(m[1], overlay)
  // Without a line:column, at the first thing the line quotes (a rule id), when the file has it.
  const quoted = /"([^"]+)"/.exec(m[4])?.[1]
  const at = quoted === undefined ? -1 : text.bytes.indexOf(Buffer.from(quoted, 'utf8'))
  const start = m[2] !== undefined ? text.offsetOfLineColumn(Number(m[2]), Number(m[3])) : Math.max(at, 0)
  return {
    file: m[1],
    diagnostic: {
      range: { start: text.positionAt(start), end: text.positionAt(text.tokenEnd(start)) },
      severity: 1,
      source: SOURCE,
      message: messageOf({ message: m[4], hint: e.hint }),
    },
  }
}

/** A diagnostic and the finding it shows (its fix and suggestions, in the file's bytes). */
export interface Shown {
  diagnostic: Diagnostic
  finding: Finding
}

export interface ScopeDiagnostics {
  /** Absolute file → its diagnostics (every file the check reported, none left out). */
  files: Map<string, Diagnostic[]>
  /** Absolute file → the findings behind its diagnostics, for code actions. */
  findings: Map<string, Shown[]>
  /** Why the scope could not be checked (a PATH with no pack, a config that cannot be used). */
  failure: string | null
}

/** `lint SCOPE` (every rule, configs read) with the open buffers of `overlay`, as diagnostics. */
export async function diagnoseScope(
  scope: string,
  overlay: Overlay,
  release?: Release,
): Promise<ScopeDiagnostics> {
  const files = new Map<string, Diagnostic[]>()
  const findings = new Map<string, Shown[]>()
  let result: CheckResult
  try {
    const { RULES } = await import('../core/lint/registry.js')
    // A lone manifest is judged under the dir above its pack, as given (the walk that would find
    // the root, a pack dir holding nested ones, is not made outside the workspace).
    const lone = scopeDir(scope) !== scope
    result = await check({
      paths: [fromText(scope)],
      rules: RULES,
      set: 'all',
      useConfig: true,
      release,
      overlay,
      tolerant: true,
      ...(lone ? { root: fromText(dirname(dirname(scope))) } : {}),
    })
  } catch (e) {
    if (e instanceof ConfigError) {
      const d = configDiagnostic(e, overlay)
      if (d !== null) files.set(d.file, [d.diagnostic])
    }
    if (e instanceof UserError) return { files, findings, failure: e.message }
    throw e
  }
  for (const f of result.files) {
    if (f.ignored || f.kind === 'dir') continue
    const text = textOf(f.file, overlay)
    const list = files.get(f.file) ?? []
    const shown = findings.get(f.file) ?? []
    for (const x of f.findings) {
      const diagnostic = toDiagnostic(x, text)
      list.push(diagnostic)
      shown.push({ diagnostic, finding: x })
    }
    files.set(f.file, list)
    findings.set(f.file, shown)
  }
  // A walk problem has no file of its own: it lands on the dir's path, not shown in an editor.
  return { files, findings, failure: null }
}
