/**
 * Code actions: the fixes `lint --fix` applies as preferred quick fixes, suggestions as others,
 * and "fix all" for a file (the certain fixes that do not overlap, as `applyEdits` takes them). A
 * fix that sets a file's mode (the entry's execute bit) is a command the server runs.
 */
import { basename } from 'node:path'
import { pathToFileURL } from 'node:url'
import {
  type CodeAction,
  CodeActionKind,
  type Diagnostic,
  type TextEdit as LspEdit,
  type WorkspaceEdit,
} from 'vscode-languageserver/node.js'
import { fromBuffer, toText } from '../core/go/gostring.js'
import { applyEdits } from '../core/lint/fix.js'
import type { Fix, TextEdit } from '../core/lint/types.js'
import type { Overlay } from '../core/overlay.js'
import { type DiagnosticData, type Shown, textOf } from './diagnostics.js'

export const SET_MODE_COMMAND = 'ongrid-skill.setMode'
export const FIX_ALL_KIND = `${CodeActionKind.SourceFixAll}.ongrid-skill`

/** The open documents' URIs and versions, to pin edits to the text they were computed from. */
export type VersionOf = (file: string) => { uri: string; version: number } | undefined

function lspEdits(file: string, edits: readonly TextEdit[], overlay: Overlay): LspEdit[] {
  const text = textOf(file, overlay)
  return edits.map((e) => ({
    range: { start: text.positionAt(e.range[0]), end: text.positionAt(e.range[1]) },
    newText: toText(e.text),
  }))
}

function workspaceEdit(
  file: string,
  edits: readonly TextEdit[],
  versionOf: VersionOf,
  overlay: Overlay,
): WorkspaceEdit {
  const open = versionOf(file)
  const changes = lspEdits(file, edits, overlay)
  return open === undefined
    ? { changes: { [pathToFileURL(file).href]: changes } }
    : { documentChanges: [{ textDocument: open, edits: changes }] }
}

function action(
  title: string,
  fix: Fix,
  fileOf: string,
  preferred: boolean,
  d: Diagnostic[],
  versionOf: VersionOf,
  overlay: Overlay,
) {
  const file = fix.file ?? fileOf
  const a: CodeAction = { title, kind: CodeActionKind.QuickFix, diagnostics: d, isPreferred: preferred }
  if (fix.mode !== undefined) {
    a.command = { title, command: SET_MODE_COMMAND, arguments: [file, fix.mode] }
    if (fix.edits.length === 0) return a
  }
  a.edit = workspaceEdit(file, fix.edits, versionOf, overlay)
  return a
}

/** The diagnostic a client sends back: same rule, same start (or the same data, its offsets). */
function same(a: Diagnostic, b: Diagnostic): boolean {
  if (a.code !== b.code) return false
  const da = a.data as DiagnosticData | undefined
  const db = b.data as Partial<DiagnosticData> | undefined
  if (da !== undefined && db?.start === da.start && db.end === da.end) return true
  return (
    a.message === b.message &&
    a.range.start.line === b.range.start.line &&
    a.range.start.character === b.range.start.character
  )
}

function fixTitle(s: Shown): string {
  const fix = s.finding.fix
  if (fix?.mode !== undefined && fix.file !== undefined)
    return `Fix: chmod ${fix.mode.toString(8)} ${basename(fix.file)} (${s.finding.ruleId})`
  return `Fix: ${s.finding.ruleId}`
}

export function codeActions(
  file: string,
  shown: readonly Shown[],
  asked: readonly Diagnostic[],
  only: readonly string[] | undefined,
  versionOf: VersionOf,
  overlay: Overlay,
): CodeAction[] {
  const wants = (kind: string) =>
    only === undefined || only.some((k) => kind === k || kind.startsWith(`${k}.`))
  const out: CodeAction[] = []
  if (wants(CodeActionKind.QuickFix)) {
    for (const d of asked) {
      const s = shown.find((x) => same(x.diagnostic, d))
      if (s === undefined) continue
      if (s.finding.fix)
        out.push(action(fixTitle(s), s.finding.fix, file, true, [s.diagnostic], versionOf, overlay))
      for (const g of s.finding.suggestions ?? [])
        out.push(action(g.message, g.fix, file, false, [s.diagnostic], versionOf, overlay))
    }
  }
  // Fix all: the certain text fixes of this file, without overlaps.
  const mine = shown.filter(
    (s) => s.finding.fix && (s.finding.fix.file ?? file) === file && s.finding.fix.edits.length > 0,
  )
  if (mine.length > 0) {
    const { applied } = applyEdits(
      fromBuffer(textOf(file, overlay).bytes),
      mine.flatMap((s) => s.finding.fix?.edits ?? []),
    )
    const all = {
      title: 'Fix all ongrid-skill problems in this file',
      diagnostics: mine.map((s) => s.diagnostic),
      edit: workspaceEdit(file, applied, versionOf, overlay),
    }
    if (wants(FIX_ALL_KIND)) out.push({ ...all, kind: FIX_ALL_KIND })
    if (wants(CodeActionKind.QuickFix) && asked.length > 0 && mine.length > 1)
      out.push({ ...all, kind: CodeActionKind.QuickFix })
  }
  return out
}
