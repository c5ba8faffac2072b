import { counts, displayPath, isBaselined, type LintOutput, rootsShown } from './model.js'

/** The `--format json` document (also `--json`). */
export function jsonDocument(o: LintOutput) {
  return {
    version: 1,
    command: o.command,
    files: o.files.map((f) => ({
      path: displayPath(f.file, o.cwd),
      kind: f.kind,
      name: f.name,
      findings: f.findings.map((x) => ({
        ruleId: x.ruleId,
        severity: x.severity,
        line: x.line,
        column: x.column,
        offset: x.offset,
        message: x.message,
        ...(x.hint ? { hint: x.hint } : {}),
        ...(o.baseline ? { baselined: isBaselined(o, x) } : {}),
      })),
    })),
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
  }
}

export function json(o: LintOutput): string {
  return `${JSON.stringify(jsonDocument(o), null, 2)}\n`
}
