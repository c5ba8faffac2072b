import { assumedRootText, leftOutLine } from '../../core/lint/targets.js'
import { notDefaultText } from '../../core/releases/release.js'
import { terminalLineText } from '../terminal.js'
import { counts, displayPath, type LintOutput, newFindings, plural, TOLERANT_NOTE } from './model.js'

/** Colours for the stylish format; identity functions when colour is off. */
export interface Paint {
  path: (s: string) => string
  error: (s: string) => string
  warn: (s: string) => string
  info: (s: string) => string
  dim: (s: string) => string
  ok: (s: string) => string
}

export const NO_PAINT: Paint = {
  path: (s) => s,
  error: (s) => s,
  warn: (s) => s,
  info: (s) => s,
  dim: (s) => s,
  ok: (s) => s,
}

/** Paint from chalk (imported only when colour is on). */
export async function chalkPaint(): Promise<Paint> {
  const { default: chalk } = await import('chalk')
  return {
    path: (s) => chalk.underline(s),
    error: (s) => chalk.red(s),
    warn: (s) => chalk.yellow(s),
    info: (s) => chalk.cyan(s),
    dim: (s) => chalk.dim(s),
    ok: (s) => chalk.green(s),
  }
}

const LABEL = { error: 'error', warn: 'warning', info: 'info' } as const

/**
 * ESLint's stylish layout: the file, then one line per finding (line:column, severity,
 * message, rule id), hints indented under their finding, and a summary line.
 */
export function stylish(o: LintOutput, paint: Paint = NO_PAINT): string {
  let out = ''
  // On a terminal a finding is one line: a newline in a path, a message (which quote what packs
  // hold: a dir name, an entry's stderr) or a hint is shown as `\n`; off it, continuation lines.
  const l = (s: string) => terminalLineText(s, o.terminal === true)
  for (const f of o.files) {
    // Findings the baseline accepts are counted in the summary, not listed.
    const findings = newFindings(o, f.findings)
    if (findings.length === 0) continue
    out += `${paint.path(l(displayPath(f.file, o.cwd)))}\n`
    // The manager's verdict is laid out as it would be alone; a tolerant read's findings below it.
    const block = (x: { tolerant?: true }) =>
      findings.filter((y) => (y.tolerant === true) === (x.tolerant === true))
    const posWOf = (xs: typeof findings) => Math.max(...xs.map((x) => `${x.line}:${x.column}`.length))
    const sevWOf = (xs: typeof findings) => Math.max(...xs.map((x) => LABEL[x.severity].length))
    let posW = 0
    let sevW = 0
    let tolerant: boolean | null = null
    for (const x of findings) {
      if ((x.tolerant === true) !== tolerant) {
        tolerant = x.tolerant === true
        if (tolerant) out += `  ${paint.dim(`${TOLERANT_NOTE}:`)}\n`
        posW = posWOf(block(x))
        sevW = sevWOf(block(x))
      }
      const pos = `${x.line}:${x.column}`.padEnd(posW)
      const label = LABEL[x.severity]
      const sev = paint[x.severity](label) + ' '.repeat(sevW - label.length)
      const indent = ' '.repeat(2 + posW + 2 + sevW + 2)
      const [first, ...rest] = l(x.message).split('\n')
      out += `  ${paint.dim(pos)}  ${sev}  ${first}  ${paint.dim(x.ruleId)}\n`
      for (const l of rest) out += `${indent}${l}\n`
      if (x.hint) out += `${indent}${paint.dim(`hint: ${l(x.hint)}`)}\n`
    }
    out += '\n'
  }
  const c = counts(o)
  const problems = c.errors + c.warnings + c.infos
  const ignored = c.ignored > 0 ? `, ${c.ignored} ignored` : ''
  // validate and lint say how many manifests they found: a gate that judged none is visible.
  const found =
    o.command === 'validate' || o.command === 'lint' ? ` (${plural(c.manifests, 'manifest')})` : ''
  const checked = `${plural(c.files, 'file')} checked${found}${ignored}`
  if (problems === 0) {
    out += `${paint.ok('✔')} ${checked}: no ${c.baselined ? 'new ' : ''}problems\n`
  } else {
    const line = `✖ ${plural(problems, 'problem')} (${plural(c.errors, 'error')}, ${plural(c.warnings, 'warning')}, ${plural(c.infos, 'info', 'infos')}) in ${checked}`
    out += `${c.errors > 0 ? paint.error(line) : c.warnings > 0 ? paint.warn(line) : paint.info(line)}\n`
  }
  if (o.baseline !== undefined) {
    const b = o.baseline
    if (c.baselined)
      out += `${paint.dim(`${plural(c.baselined, 'baselined finding')} not shown (${l(b.path)})`)}\n`
    if (c.fixed) {
      const line = `${plural(c.fixed, 'baselined finding')} no longer found: drop ${c.fixed === 1 ? 'it' : 'them'} with --prune-baseline`
      out += `${paint.warn(line)}\n`
    }
  }
  // What was not judged, and against which root: a verdict is only as good as its reading.
  if (o.leftOut !== undefined && o.leftOut.size > 0) out += `${paint.dim(leftOutLine(o.leftOut))}\n`
  for (const r of o.roots ?? []) if (r.assumed) out += `${paint.dim(l(assumedRootText(r.path)))}\n`
  const release = o.release ? notDefaultText(o.release) : null
  if (release !== null) out += `${paint.dim(release)}\n`
  return out
}
