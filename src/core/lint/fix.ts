/**
 * Fixes as data, and applying them. A rule with `fixable` reports, beside a finding, the edits
 * that fix it (`Fix`), computed by a pure fixer in the rule's module from the file's bytes; this
 * module applies them and offers what fixers share (JSON string literals, key renames).
 *
 * Unit: byte offsets of the file's own bytes (`TextEdit`, types.ts), the same offsets
 * `Finding.offset` gives; editors take `utf16Position` for LSP positions.
 */

import type { GoString } from '../go/gostring.js'
import { fromText } from '../go/gostring.js'
import { charAt } from '../utf8-units.js'
import type { Finding, Fix, TextEdit } from './types.js'

export interface Applied {
  /** The text with the edits applied. */
  text: GoString
  /** The edits applied, in the order applied (by range). */
  applied: TextEdit[]
  /** Edits left out: overlapping one applied before them, or out of the text's bounds. */
  skipped: TextEdit[]
}

/**
 * Applies edits to a text: identical edits count once; the others are taken by start offset
 * (then end, then the order given: stable), and one that overlaps an edit already taken is
 * skipped (a later pass, after the text is checked again, offers it anew if it still applies).
 * Two insertions at one offset both apply, in the order given. Deterministic; `[]` gives the
 * text back as it was.
 */
export function applyEdits(text: GoString, edits: readonly TextEdit[]): Applied {
  const seen = new Set<string>()
  const unique: TextEdit[] = []
  const skipped: TextEdit[] = []
  for (const e of edits) {
    const [start, end] = e.range
    if (!Number.isInteger(start) || !Number.isInteger(end) || start < 0 || end < start || end > text.length) {
      skipped.push(e)
      continue
    }
    const k = `${start}:${end}:${e.text}`
    if (seen.has(k)) continue
    seen.add(k)
    unique.push(e)
  }
  const order = unique.map((e, i) => ({ e, i }))
  order.sort((a, b) => a.e.range[0] - b.e.range[0] || a.e.range[1] - b.e.range[1] || a.i - b.i)
  const applied: TextEdit[] = []
  let out = ''
  let at = 0
  for (const { e } of order) {
    const [start, end] = e.range
    if (start < at) {
      skipped.push(e)
      continue
    }
    out += text.slice(at, start) + e.text
    at = end
    applied.push(e)
  }
  return { text: out + text.slice(at), applied, skipped }
}

/** What the fixes of a set of findings do to one file. */
export interface FilePlan {
  /** Absolute path (text). */
  file: string
  /** Every edit, in the findings' order (`applyEdits` sorts them and drops overlaps). */
  edits: TextEdit[]
  /** The mode the file gets, when a fix sets one (the last such fix wins). */
  mode?: number
  /** The findings whose fixes change this file. */
  findings: Finding[]
}

/** The fixes the findings carry that `accept` takes, grouped by the file each changes, in first-seen order. */
export function planFixes(
  findings: Iterable<Finding>,
  accept: (f: Finding) => boolean = () => true,
): Map<string, FilePlan> {
  const plans = new Map<string, FilePlan>()
  for (const x of findings) {
    if (!x.fix || !accept(x)) continue
    const fix: Fix = x.fix
    const file = fix.file ?? x.file
    let p = plans.get(file)
    if (!p) {
      p = { file, edits: [], findings: [] }
      plans.set(file, p)
    }
    p.edits.push(...fix.edits)
    if (fix.mode !== undefined) p.mode = fix.mode
    p.findings.push(x)
  }
  return plans
}

/**
 * The LSP position (0-based line, UTF-16 code units in the line) of a byte offset of a file's
 * bytes. Bytes that are not UTF-8 count as editors decode them, one U+FFFD per maximal bad
 * subsequence (`core/utf8-units.ts`); a 4-byte sequence is two units.
 */
export function utf16Position(raw: GoString, offset: number): { line: number; character: number } {
  const off = Math.max(0, Math.min(offset, raw.length))
  const lineStart = raw.lastIndexOf('\n', off - 1) + 1
  let line = 0
  for (let i = raw.indexOf('\n'); i !== -1 && i < off; i = raw.indexOf('\n', i + 1)) line++
  let character = 0
  const byteAt = (i: number) => (i < raw.length ? raw.charCodeAt(i) : undefined)
  for (let i = lineStart; i < off; ) {
    const [n, units] = charAt(byteAt, i)
    if (i + n > off) break
    character += units
    i += n
  }
  return { line, character }
}

/**
 * The offset just past the JSON string literal whose opening quote is at `at`, or -1 when there
 * is none there (the text has no closing quote).
 */
export function stringLiteralEnd(raw: GoString, at: number): number {
  if (raw[at] !== '"') return -1
  for (let i = at + 1; i < raw.length; i++) {
    const c = raw[i]
    if (c === '\\') i++
    else if (c === '"') return i + 1
  }
  return -1
}

/** A JSON string literal for text, written as JSON.stringify writes it, as bytes. */
export function jsonString(text: string): GoString {
  return fromText(JSON.stringify(text))
}

/** The edit renaming the JSON key whose opening quote is at `at` to `name`, or null. */
export function renameKey(raw: GoString, at: number, name: string): TextEdit | null {
  const end = stringLiteralEnd(raw, at)
  return end < 0 ? null : { range: [at, end], text: jsonString(name) }
}
