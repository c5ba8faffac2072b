/**
 * Hover, completion and document links: what the manager does with the key under the cursor,
 * the keys and values it reads, and `entry` as a link to its file.
 */
import { dirname, isAbsolute, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import {
  type CompletionItem,
  CompletionItemKind,
  CompletionItemTag,
  type Diagnostic,
  type DocumentLink,
  type Hover,
  type Position,
} from 'vscode-languageserver/node.js'
import type { TextDocument } from 'vscode-languageserver-textdocument'
import { SKILL_TYPE } from '../core/native/yaml-decode.js'
import { managerRelease, type Release } from '../core/releases/release.js'
import { scanJson } from './json-scan.js'
import { ACTIVATION_MODES, CLASSES, keyHover, MANIFEST_KEYS } from './knowledge.js'

const KIND = {
  field: CompletionItemKind.Field,
  value: CompletionItemKind.Value,
  enumMember: CompletionItemKind.EnumMember,
} as const

const isManifest = (file: string) => file.endsWith('/skill.json')
const isSkillMd = (file: string) => file.endsWith('/SKILL.md')

/** Hover: a rule's docs line on its diagnostics, and what the manager does with a skill.json key. */
export function hover(
  doc: TextDocument,
  file: string,
  at: Position,
  diagnostics: readonly Diagnostic[],
  ruleDocs: (id: string) => string | undefined,
): Hover | null {
  const parts: string[] = []
  const inside = (d: Diagnostic) =>
    (d.range.start.line < at.line ||
      (d.range.start.line === at.line && d.range.start.character <= at.character)) &&
    (d.range.end.line > at.line || (d.range.end.line === at.line && d.range.end.character >= at.character))
  for (const d of diagnostics) {
    if (typeof d.code !== 'string' || !inside(d)) continue
    const docs = ruleDocs(d.code)
    if (docs !== undefined) parts.push(`\`${d.code}\`: ${docs}`)
  }
  if (isManifest(file)) {
    const ctx = scanJson(doc.getText(), doc.offsetAt(at))
    if (ctx.token?.isKey && ctx.frames.length === 1) {
      const d = MANIFEST_KEYS.find((k) => k.key === ctx.token?.value.toLowerCase())
      parts.push(
        d === undefined
          ? `**${ctx.token.value}**: the manager does not read this key (ignored, whatever it holds)`
          : keyHover(d),
      )
    }
  }
  return parts.length === 0 ? null : { contents: { kind: 'markdown', value: parts.join('\n\n---\n\n') } }
}

function stringItems(
  values: readonly string[],
  kind: CompletionItemKind,
  inString: boolean,
  detail?: string,
): CompletionItem[] {
  return values.map((v) => ({
    label: v,
    kind,
    insertText: inString ? v : JSON.stringify(v),
    ...(detail ? { detail } : {}),
  }))
}

/** Completion in skill.json and in SKILL.md's frontmatter. */
export function complete(
  doc: TextDocument,
  file: string,
  at: Position,
  env: NodeJS.ProcessEnv,
  release: Release = managerRelease(),
): CompletionItem[] {
  if (isManifest(file)) {
    const ctx = scanJson(doc.getText(), doc.offsetAt(at))
    const top = ctx.frames[ctx.frames.length - 1]
    const inString = ctx.token !== null
    if (ctx.frames.length === 1 && top.kind === 'object' && (top.expectKey || ctx.token?.isKey)) {
      return MANIFEST_KEYS.filter(
        (k) => !ctx.topLevel.has(k.key) || ctx.token?.value.toLowerCase() === k.key,
      ).map((k) => ({
        label: k.key,
        kind: KIND.field,
        detail: k.type,
        documentation: { kind: 'markdown', value: keyHover(k) },
        insertText: inString ? k.key : `"${k.key}": `,
      }))
    }
    if (ctx.frames.length === 1 && top.kind === 'object' && !top.expectKey) {
      if (top.key === 'class') return stringItems(CLASSES, KIND.enumMember, inString)
      if (top.key === 'name')
        return release.builtinSkillKeys.map((n) => ({
          label: n,
          kind: KIND.value,
          detail: "taken by the manager's builtin skill: a pack with this name is skipped",
          tags: [CompletionItemTag.Deprecated],
          insertText: inString ? n : JSON.stringify(n),
        }))
    }
    if (ctx.frames.length === 2 && top.kind === 'array' && ctx.frames[0].key === 'env_allow') {
      const names = Object.keys(env)
        .filter((n) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(n))
        .sort()
      return stringItems(names, KIND.value, inString, 'set in the environment ongrid-skill runs in')
    }
    return []
  }
  if (isSkillMd(file)) {
    const lines = doc.getText().split(/\r?\n/)
    if (lines[0] !== '---') return []
    const close = lines.indexOf('---', 1)
    if (at.line === 0 || (close !== -1 && at.line >= close)) return []
    const line = lines[at.line].slice(0, at.character)
    if (/^[A-Za-z_]*$/.test(line)) {
      const fields = SKILL_TYPE.k === 'struct' ? Object.keys(SKILL_TYPE.fields) : []
      return fields.map((f) => ({ label: f, kind: KIND.field, insertText: `${f}: ` }))
    }
    if (/^\s+mode:\s*\w*$/.test(line)) {
      for (let l = at.line - 1; l > 0; l--) {
        if (/^\s*activation:\s*$/.test(lines[l]))
          return ACTIVATION_MODES.map((m) => ({ label: m.mode, kind: KIND.enumMember, detail: m.does }))
        if (!/^\s/.test(lines[l]) || /^\s*\w+:\s*$/.test(lines[l])) break
      }
    }
  }
  return []
}

/** `entry` in a skill.json: a link to the file it names (joined to the manifest's dir). */
export function links(doc: TextDocument, file: string): DocumentLink[] {
  if (!isManifest(file)) return []
  const ctx = scanJson(doc.getText(), 0)
  const entry = ctx.topLevel.get('entry')
  if (entry === undefined || entry.value === null || entry.value === '') return []
  const target = isAbsolute(entry.value) ? entry.value : join(dirname(file), entry.value)
  return [
    {
      range: {
        start: doc.positionAt(entry.valueStart + 1),
        end: doc.positionAt(Math.max(entry.valueStart + 1, entry.valueEnd - 1)),
      },
      target: pathToFileURL(target).href,
      tooltip: target,
    },
  ]
}
