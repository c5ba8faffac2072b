import type { RuleMeta } from '../../core/lint/types.js'
import { envelope } from '../envelope.js'
import { counts, displayPath, isBaselined, type LintOutput, rootsShown } from './model.js'

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
    },
    o.failure ?? null,
  )
}

export function json(o: LintOutput): string {
  return `${JSON.stringify(jsonDocument(o), null, 2)}\n`
}

/** `lint --list-rules --json`: every rule's id, default severity, category, target kind, docs line. */
export function rulesJson(rules: readonly RuleMeta[]): string {
  const list = rules.map((r) => ({
    rule_id: r.id,
    severity: r.severity,
    category: r.category,
    kind: r.kind,
    docs: r.docs,
  }))
  return `${JSON.stringify(envelope('lint', 0, { rules: list }), null, 2)}\n`
}
