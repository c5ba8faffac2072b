import { toText } from '../../core/go/gostring.js'
import type { Finding, Fix, RuleMeta } from '../../core/lint/types.js'
import { envelope } from '../envelope.js'
import { counts, displayPath, isBaselined, type LintOutput, rootsShown } from './model.js'
import { ruleCounts } from './statistics.js'

/**
 * A fix as JSON: `edits` of the file's bytes (`range`: byte offsets [start, end) of the file as
 * read; `text`: what replaces them), `file` when it changes another file than the finding's (the
 * entry), `mode` (octal text) when it sets the file's permission bits.
 */
function fixJson(fix: Fix, cwd: string) {
  return {
    ...(fix.file === undefined ? {} : { file: displayPath(fix.file, cwd) }),
    edits: fix.edits.map((e) => ({ range: [e.range[0], e.range[1]], text: toText(e.text) })),
    ...(fix.mode === undefined ? {} : { mode: fix.mode.toString(8).padStart(4, '0') }),
  }
}

/** What a finding carries about fixes: `fixable`, then its `fix` and `suggestions` when it has them. */
function fixesJson(x: Finding, cwd: string) {
  return {
    fixable: x.fix !== undefined,
    ...(x.fix ? { fix: fixJson(x.fix, cwd) } : {}),
    ...(x.suggestions
      ? { suggestions: x.suggestions.map((s) => ({ message: s.message, fix: fixJson(s.fix, cwd) })) }
      : {}),
  }
}

/** The files and their findings as the json documents give them (lint, validate, marketplace). */
export function filesJson(o: LintOutput) {
  return o.files.map((f) => ({
    path: displayPath(f.file, o.cwd),
    kind: f.kind,
    name: f.name,
    findings: f.findings.map((x) => ({
      rule_id: x.ruleId,
      severity: x.severity,
      line: x.line,
      column: x.column,
      offset: x.offset,
      message: x.message,
      ...(x.hint ? { hint: x.hint } : {}),
      ...(x.tolerant ? { tolerant: true } : {}),
      ...fixesJson(x, o.cwd),
      ...(o.baseline ? { baselined: isBaselined(o, x) } : {}),
    })),
  }))
}

/**
 * The `--format json` document (also `--json`) of lint and validate: the envelope
 * (schemas/output/lint.schema.json, validate.schema.json), the files, the summary.
 */
export function jsonDocument(o: LintOutput) {
  return envelope(
    o.command,
    o.exitCode ?? 0,
    {
      files: filesJson(o),
      summary: {
        ...counts(o),
        ...(o.leftOut ? { left_out: Object.fromEntries(o.leftOut) } : {}),
        ...(o.roots ? { roots: rootsShown(o) } : {}),
      },
      ...(o.baseline
        ? {
            baseline: {
              path: o.baseline.path,
              fixed: o.baseline.fixed.map((e) => ({
                path: displayPath(e.path, o.cwd),
                rule_id: e.rule,
                at: e.at,
                message: e.message,
                count: e.count,
              })),
            },
          }
        : {}),
      ...(o.statistics === true ? { statistics: ruleCounts(o) } : {}),
    },
    o.failure ?? null,
  )
}

export function json(o: LintOutput): string {
  return `${JSON.stringify(jsonDocument(o), null, 2)}\n`
}

/** `lint --list-rules --json`: every rule's id, default severity, category, target kind, docs line, fixes. */
export function rulesJson(rules: readonly RuleMeta[]): string {
  const list = rules.map((r) => ({
    rule_id: r.id,
    severity: r.severity,
    category: r.category,
    kind: r.kind,
    docs: r.docs,
    fixable: r.fixable ?? null,
    has_suggestions: r.hasSuggestions === true,
  }))
  return `${JSON.stringify(envelope('lint', 0, { rules: list }), null, 2)}\n`
}
