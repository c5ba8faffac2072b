/** How a traced run's effects and findings are shown to humans, and put in --json documents. */

import type { EffectFinding } from '../core/trace/class-check.js'
import { effectLine } from '../core/trace/effects.js'
import type { TraceReport } from '../core/trace/strace-run.js'
import { terminalLineText } from './terminal.js'

/** The `trace` object of `run --json` and of each case of `test --json` (schemas/output/). */
export function traceJson(report: TraceReport, findings: readonly EffectFinding[]) {
  return {
    sandbox: report.sandbox,
    allow_net: report.allow_net,
    bytes: report.bytes,
    truncated: report.truncated,
    unreadable: report.unreadable,
    effects: report.effects,
    findings,
  }
}

/** Lines for stderr: each effect, each finding, and what the trace could not see. */
export function traceLines(report: TraceReport, findings: readonly EffectFinding[], tty: boolean): string[] {
  const lines: string[] = []
  const where = report.sandbox ? ` in the sandbox${report.allow_net ? ' (network allowed)' : ''}` : ''
  if (report.effects.length === 0) lines.push(`trace${where}: no effects on the host`)
  else {
    lines.push(`trace${where}: ${report.effects.length} effect${report.effects.length === 1 ? '' : 's'}`)
    for (const e of report.effects) lines.push(`  ${terminalLineText(effectLine(e), tty)}`)
  }
  if (report.truncated)
    lines.push(`warning: the trace reached its bound (${report.bytes} bytes): later effects are not shown`)
  if (report.sandbox)
    lines.push(
      'note: in the sandbox, writes outside /tmp, /var/tmp and /run failed (EROFS) and the network was off unless allowed: the entry may have behaved differently after a failure',
    )
  for (const f of findings) lines.push(`${f.severity}: ${terminalLineText(f.message, tty)}`)
  return lines
}
