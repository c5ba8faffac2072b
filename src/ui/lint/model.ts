import { relative } from 'node:path'
import type { FileReport } from '../../core/lint/engine.js'
import { type Finding, type RuleMeta, type Severity, severityRank } from '../../core/lint/types.js'

/** What every format renders: the files checked (ignored ones dropped), findings already filtered by --quiet. */
export interface LintOutput {
  command: 'validate' | 'lint' | 'marketplace check' | 'marketplace verify'
  files: FileReport[]
  rules: RuleMeta[]
  ignored: number
  /** Directory paths are shown relative to. */
  cwd: string
  failSeverity: Severity
}

export interface Counts {
  files: number
  errors: number
  warnings: number
  infos: number
  ignored: number
}

export function counts(o: LintOutput): Counts {
  const c: Counts = {
    files: o.files.filter((f) => f.kind !== 'dir').length,
    errors: 0,
    warnings: 0,
    infos: 0,
    ignored: o.ignored,
  }
  for (const f of o.files) {
    for (const x of f.findings) {
      if (x.severity === 'error') c.errors++
      else if (x.severity === 'warn') c.warnings++
      else c.infos++
    }
  }
  return c
}

/** A path as shown: relative to the working dir, `/`-separated. */
export function displayPath(file: string, cwd: string): string {
  const r = relative(cwd, file)
  return r === '' ? '.' : r
}

export function fails(f: Finding, failSeverity: Severity): boolean {
  return severityRank(f.severity) >= severityRank(failSeverity)
}

export function plural(n: number, word: string, many = `${word}s`): string {
  return `${n} ${n === 1 ? word : many}`
}
