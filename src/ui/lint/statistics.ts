import { type LintOutput, newFindings } from './model.js'

/** One row of `lint --statistics`: a rule and how many of its findings there are to act on. */
export interface RuleCount {
  rule_id: string
  severity: string
  count: number
  /** How many of them carry a certain fix (`--fix` applies it). */
  fixable: number
}

/**
 * The findings per rule and severity (a baseline's accepted ones left out), most first, then by
 * rule id: ruff's `--statistics`.
 */
export function ruleCounts(o: LintOutput): RuleCount[] {
  const by = new Map<string, RuleCount>()
  for (const f of o.files) {
    for (const x of newFindings(o, f.findings)) {
      const key = `${x.ruleId}\0${x.severity}`
      let row = by.get(key)
      if (row === undefined) {
        row = { rule_id: x.ruleId, severity: x.severity, count: 0, fixable: 0 }
        by.set(key, row)
      }
      row.count++
      if (x.fix !== undefined) row.fixable++
    }
  }
  return [...by.values()].sort(
    (a, b) => b.count - a.count || (a.rule_id < b.rule_id ? -1 : a.rule_id > b.rule_id ? 1 : 0),
  )
}

const SHOWN = { error: 'error', warn: 'warning', info: 'info' } as Record<string, string>

/** The stylish form: one line a rule (count, rule, severity, how many --fix fixes), then the total. */
export function statisticsText(o: LintOutput): string {
  const rows = ruleCounts(o)
  if (rows.length === 0) return ''
  const countWidth = Math.max(...rows.map((r) => String(r.count).length))
  const idWidth = Math.max(...rows.map((r) => r.rule_id.length))
  const sevWidth = Math.max(...rows.map((r) => (SHOWN[r.severity] ?? r.severity).length))
  let out = ''
  for (const r of rows) {
    const sev = SHOWN[r.severity] ?? r.severity
    const fix = r.fixable > 0 ? `  ${r.fixable} fixable with --fix` : ''
    out +=
      `${String(r.count).padStart(countWidth)}  ${r.rule_id.padEnd(idWidth)}  ${sev.padEnd(sevWidth)}${fix}`.trimEnd()
    out += '\n'
  }
  const total = rows.reduce((n, r) => n + r.count, 0)
  return `${out}${total} finding${total === 1 ? '' : 's'} from ${rows.length} rule${rows.length === 1 ? '' : 's'}\n`
}
