import { counts, displayPath, type LintOutput, rootsShown } from './model.js'

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
      })),
    })),
    summary: {
      ...counts(o),
      ...(o.leftOut ? { left_out: Object.fromEntries(o.leftOut) } : {}),
      ...(o.roots ? { roots: rootsShown(o) } : {}),
    },
  }
}

export function json(o: LintOutput): string {
  return `${JSON.stringify(jsonDocument(o), null, 2)}\n`
}
