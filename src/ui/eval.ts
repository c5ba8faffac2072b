/** `eval`'s report: stylish (default) and JUnit; --json is the document itself. */

import type { ToolStats } from '../core/agent/score.js'
import { colorWanted } from './color.js'
import { terminalLineText } from './terminal.js'
import { xml } from './xml.js'

export interface EvalCall {
  tool: string
  kind: string
  args: string
  schema_errors: string[]
}

export interface EvalRun {
  file: string
  name: string
  round: number
  expected: string | null
  passed: boolean
  decided: string
  calls: (EvalCall & { pack: boolean })[]
  answer: string
  iterations: number
  capped: boolean
  error: string | null
  tokens: { prompt: number; completion: number; total: number }
}

export interface EvalReport {
  passed: boolean
  runs: EvalRun[]
  document: {
    model: string
    profile: string
    seed: number
    repeat: number
    shadowed: string[]
    summary: {
      runs: number
      passed: number
      pass_rate: number
      pass_rate_min: number
      pass_rate_max: number
      min_pass_rate: number | null
      per_tool: ToolStats[]
      confusion: { expected: string; decided: string; runs: number }[]
      schema_failures: number
      tokens: { prompt: number; completion: number; total: number }
    }
  }
}

const pct = (n: number | null) => (n === null ? '-' : `${(n * 100).toFixed(0)}%`)

export function renderEval(r: EvalReport, format: 'stylish' | 'junit', tty: boolean): string {
  return format === 'junit' ? junit(r) : stylish(r, tty)
}

function stylish(r: EvalReport, tty: boolean): string {
  const t = (s: string) => terminalLineText(s, tty)
  const color = colorWanted(process.env, tty)
  const paint = (code: number, s: string) => (color ? `\x1b[${code}m${s}\x1b[39m` : s)
  const d = r.document
  const lines: string[] = [`eval: ${t(d.model)}, profile ${d.profile}, seed ${d.seed}`]
  if (d.shadowed.length > 0) lines.push(`  packs replacing builtins: ${t(d.shadowed.join(', '))}`)
  for (const run of r.runs) {
    const mark = run.passed ? paint(32, 'pass') : paint(31, 'FAIL')
    const round = d.repeat > 1 ? ` (#${run.round + 1})` : ''
    lines.push(`${mark} ${t(run.name)}${round}  expected ${t(run.expected ?? '(no call)')}`)
    for (const c of run.calls) {
      lines.push(
        `     → ${t(c.tool)} ${t(c.args)}${c.kind === 'pack' || c.kind === 'builtin' ? '' : ` [${c.kind}]`}`,
      )
      for (const e of c.schema_errors) lines.push(`       schema: ${t(e)}`)
    }
    if (run.error !== null) lines.push(`     error: ${t(run.error)}`)
    else
      lines.push(`     answer: ${t(run.answer.length > 160 ? `${run.answer.slice(0, 160)}…` : run.answer)}`)
  }
  const s = d.summary
  lines.push('')
  lines.push(
    `${s.passed}/${s.runs} runs passed (${pct(s.pass_rate)}${d.repeat > 1 ? `, rounds ${pct(s.pass_rate_min)}–${pct(s.pass_rate_max)}` : ''})` +
      (s.min_pass_rate !== null ? `, required ${pct(s.min_pass_rate)}` : ''),
  )
  if (s.per_tool.length > 0) {
    lines.push('tool                         expected called passed precision recall')
    for (const p of s.per_tool)
      lines.push(
        `${t(p.tool).padEnd(28)} ${String(p.expected).padStart(8)} ${String(p.called).padStart(6)} ${String(p.passed).padStart(6)} ${pct(p.precision).padStart(9)} ${pct(p.recall).padStart(6)}`,
      )
  }
  if (s.confusion.length > 0) {
    lines.push('expected → decided: runs')
    for (const c of s.confusion) lines.push(`  ${t(c.expected)} → ${t(c.decided)}: ${c.runs}`)
  }
  if (s.schema_failures > 0) lines.push(`${s.schema_failures} call(s) with args the pack's schema refuses`)
  lines.push(`tokens: ${s.tokens.prompt} prompt, ${s.tokens.completion} completion, ${s.tokens.total} total`)
  return `${lines.join('\n')}\n`
}

function junit(r: EvalReport): string {
  const failures = r.runs.filter((x) => !x.passed).length
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="ongrid-skill eval" tests="${r.runs.length}" failures="${failures}">`,
    `  <testsuite name="${xml(r.document.model)}" tests="${r.runs.length}" failures="${failures}">`,
  ]
  for (const run of r.runs) {
    const name = r.document.repeat > 1 ? `${run.name} #${run.round + 1}` : run.name
    out.push(`    <testcase classname="${xml(run.file)}" name="${xml(name)}">`)
    if (!run.passed) {
      const called = run.calls.map((c) => `${c.tool} ${c.args}`).join('\n')
      const msg = run.error ?? `expected ${run.expected ?? 'no call'}, decided ${run.decided}`
      out.push(`      <failure message="${xml(msg)}">${xml(called)}</failure>`)
    }
    out.push('    </testcase>')
  }
  out.push('  </testsuite>', '</testsuites>')
  return `${out.join('\n')}\n`
}
