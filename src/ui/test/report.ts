import { relative } from 'node:path'
import { toText } from '../../core/go/gostring.js'
import { stringify } from '../../core/json-text.js'
import { assumedRootText, leftOutLine } from '../../core/lint/targets.js'
import type { CaseOutcome, Failure } from '../../core/testcases/run.js'
import type { Item, ItemResult, RunSummary } from '../../core/testcases/suite.js'
import { envelope } from '../envelope.js'
import { NO_PAINT, type Paint } from '../lint/stylish.js'
import { terminalLineText, terminalText } from '../terminal.js'
import { traceJson, traceLines } from '../trace.js'
import { xml } from '../xml.js'

/** What every format is told, in plan order. */
export interface Reporter {
  result(r: ItemResult, index: number): void
  end(s: RunSummary): void
}

/** What the live terminal view adds to a reporter. */
export interface LiveView extends Reporter {
  start(item: Item, index: number): void
  stderr(item: Item, index: number, chunk: Buffer): void
  done(): Promise<void>
}

export type Write = (text: string) => void

/**
 * A result as the human formats show it on a terminal: what packs, cases and entries wrote
 * (names, paths, failure messages and diffs, stderr) with control characters escaped as %q
 * would, so that an OSC 52 clipboard write or `ESC[2J` is shown, not obeyed (a message's newlines
 * and tabs kept, a name's or a path's newline escaped). Off a terminal the result is shown byte for byte.
 */
export function shownOnTerminal(r: ItemResult): ItemResult {
  const t = (s: string) => terminalText(s, true)
  // Names, paths and diff lines sit inside a line: a newline in them is shown as `\n`.
  const l = (s: string) => terminalLineText(s, true)
  const pack = { ...r.item.pack, name: l(r.item.pack.name), dir: l(r.item.pack.dir) }
  const failures = r.failures.map((f) => ({ ...f, message: t(f.message), diff: f.diff?.map(l) }))
  return {
    ...r,
    item: { ...r.item, pack, name: l(r.item.name), file: l(r.item.file) },
    failures,
    outcome: r.outcome ? { ...r.outcome, stderr: t(r.outcome.stderr) } : r.outcome,
  }
}

/** A pack as shown: its name and its dir relative to the working dir. */
export function packLabel(r: ItemResult, cwd: string): string {
  return `${r.item.pack.name} (${relative(cwd, r.item.pack.dir) || '.'})`
}

const ms = (n: number) => `${n < 10 ? n.toFixed(1) : Math.round(n)} ms`

/** The counts line every human format ends with: `N passed, N failed` (and what did not run). */
export function countsLine(s: RunSummary): string {
  let line = `${s.passed} passed, ${s.failed} failed`
  if (s.notRun > 0) line += `, ${s.notRun} not run`
  if (s.updated > 0) line += ` (${s.updated} snapshot${s.updated === 1 ? '' : 's'} written)`
  return line
}

/** A message that spans lines (an error text with the entry's stderr) kept under its bullet. */
const hang = (message: string, indent: string) => message.split('\n').join(`\n${indent}  `)

function failureLines(f: Failure, paint: Paint, indent: string): string[] {
  const out = [`${indent}${paint.error('●')} ${hang(f.message, indent)}`]
  for (const d of f.diff ?? []) {
    const colour = d.startsWith('- ') ? paint.ok : d.startsWith('+ ') ? paint.error : paint.dim
    out.push(`${indent}    ${colour(d)}`)
  }
  return out
}

/** Where a case is: its file (relative to its pack dir) and line, `tests/a.json:3`. */
export function caseWhere(item: Item): string {
  return item.line === null ? item.file : `${item.file}:${item.line}`
}

/**
 * The default: a header per pack, a line per case, failures with their diffs, the counts.
 * Quiet, only the failures, each once as it comes (as the Failures section shows it), then the counts.
 */
export class SpecReporter implements Reporter {
  private pack: string | null = null
  private failed: ItemResult[] = []
  constructor(
    private readonly write: Write,
    private readonly cwd: string,
    private readonly paint: Paint = NO_PAINT,
    private readonly quiet = false,
  ) {}

  result(r: ItemResult): void {
    if (this.quiet) {
      if (!r.passed) {
        this.write(`${this.pack === null ? '' : '\n'}${this.failureBlock(r)}`)
        this.pack = packLabel(r, this.cwd)
      }
      return
    }
    const label = packLabel(r, this.cwd)
    if (label !== this.pack) {
      this.write(`${this.pack === null ? '' : '\n'}${this.paint.path(label)}\n`)
      this.pack = label
    }
    const mark = r.passed ? this.paint.ok('✓') : this.paint.error('✗')
    const time = r.outcome ? this.paint.dim(` (${ms(r.durationMs)})`) : ''
    const snap = r.updated ? this.paint.warn(' snapshot taken') : ''
    let text = `  ${mark} ${r.item.name}${time}${snap}\n`
    if (!r.passed) {
      this.failed.push(r)
      for (const f of r.failures) text += `      ${this.paint.error('●')} ${hang(f.message, '      ')}\n`
    }
    const trace = r.outcome?.trace
    if (trace !== undefined)
      for (const l of traceLines(trace.report, [], process.stdout.isTTY === true))
        text += `      ${this.paint.dim(l)}\n`
    this.write(text)
  }

  /** A failed case as Failures shows it: pack › name, file:line, each failure with its diff, stderr's tail. */
  private failureBlock(r: ItemResult): string {
    const where = r.item.file ? this.paint.dim(`  ${caseWhere(r.item)}`) : ''
    let text = `  ${this.paint.error('✗')} ${r.item.pack.name} › ${r.item.name}${where}\n`
    for (const f of r.failures) text += `${failureLines(f, this.paint, '    ').join('\n')}\n`
    const stderr = r.outcome?.stderr.trimEnd()
    if (stderr) {
      const tail = stderr.split('\n').slice(-5)
      text += `    ${this.paint.dim('stderr:')}\n${tail.map((l) => `      ${this.paint.dim(l)}`).join('\n')}\n`
    }
    return text
  }

  end(s: RunSummary): void {
    let text = ''
    if (this.failed.length > 0) {
      text += `\n${this.paint.error('Failures')} ${this.paint.dim('(- expected, + actual)')}\n`
      for (const r of this.failed) text += `\n${this.failureBlock(r)}`
    }
    // Quiet with nothing above it, the counts are the first line.
    if (!this.quiet || this.pack !== null) text += '\n'
    text += `${s.failed > 0 ? this.paint.error(countsLine(s)) : this.paint.ok(countsLine(s))}\n`
    text += this.paint.dim(`Time: ${(s.durationMs / 1000).toFixed(2)} s\n`)
    if (s.leftOut !== undefined && s.leftOut.size > 0) text += this.paint.dim(`${leftOutLine(s.leftOut)}\n`)
    for (const r of s.roots ?? [])
      if (r.assumed)
        text += this.paint.dim(`${terminalText(assumedRootText(r.path), process.stdout.isTTY === true)}\n`)
    this.write(text)
  }
}

/** TAP 13 (the plan at the end, since --bail may stop early): YAML blocks under failures. */
export class TapReporter implements Reporter {
  private n = 0
  constructor(private readonly write: Write) {
    write('TAP version 13\n')
  }

  result(r: ItemResult): void {
    this.n++
    const name = `${r.item.pack.name} › ${r.item.name}`.replace(/#/g, '\\#').replace(/\n/g, ' ')
    let text = `${r.passed ? 'ok' : 'not ok'} ${this.n} - ${name}\n`
    if (!r.passed) {
      const y = [
        '  ---',
        `  file: ${JSON.stringify(r.item.file)}`,
        `  duration_ms: ${Math.round(r.durationMs)}`,
        '  failures:',
      ]
      for (const f of r.failures) {
        y.push(`    - kind: ${f.kind}`, `      message: ${JSON.stringify(f.message)}`)
        if (f.diff) y.push('      diff: |-', ...f.diff.map((d) => `        ${d}`))
      }
      y.push('  ...')
      text += `${y.join('\n')}\n`
    }
    this.write(text)
  }

  end(s: RunSummary): void {
    this.write(
      `1..${this.n}\n# pass ${s.passed}\n# fail ${s.failed}\n${s.notRun > 0 ? `# not run ${s.notRun}\n` : ''}`,
    )
  }
}

interface CaseRecord {
  pack: string
  dir: string
  name: string
  file: string
  passed: boolean
  durationMs: number
  failures: Failure[]
  error: string | null
  timedOut: boolean
  exitCode: number | null
  stderr: string
  /** A case whose snapshot was taken: whether it was written is read at the end. */
  snapshot: ItemResult | null
  /** A traced case: its effects and the class's findings. */
  trace: CaseOutcome['trace']
}

/** Keeps what the whole-document formats need of each result (not the entry's output). */
abstract class Collecting implements Reporter {
  protected records: CaseRecord[] = []
  constructor(
    protected readonly write: Write,
    protected readonly cwd: string,
  ) {}
  result(r: ItemResult): void {
    this.records.push({
      pack: r.item.pack.name,
      dir: relative(this.cwd, r.item.pack.dir) || '.',
      name: r.item.name,
      file: r.item.file,
      passed: r.passed,
      durationMs: r.durationMs,
      failures: r.failures,
      error: r.outcome?.error ?? null,
      timedOut: r.outcome?.timedOut ?? false,
      exitCode: r.outcome?.exitCode ?? null,
      stderr: r.passed ? '' : (r.outcome?.stderr ?? ''),
      snapshot: r.updated ? r : null,
      trace: r.outcome?.trace,
    })
  }
  abstract end(s: RunSummary): void
  protected byPack(): [string, CaseRecord[]][] {
    const m = new Map<string, CaseRecord[]>()
    for (const r of this.records) {
      const key = `${r.pack}\u0000${r.dir}`
      const list = m.get(key)
      if (list) list.push(r)
      else m.set(key, [r])
    }
    return [...m]
  }
}

/** Whether a run failed: a case failed, or a snapshot could not be written. */
export function runFailed(s: RunSummary): boolean {
  return s.failed > 0 || s.snapshotErrors.length > 0
}

/**
 * One JSON document (schemas/output/test.schema.json): the envelope, the summary, each pack's
 * cases. `exitCode` gives the code the CLI ends with (a stop signal's, when stopped).
 */
export class JsonReporter extends Collecting {
  constructor(
    write: Write,
    cwd: string,
    private readonly exitCode: (s: RunSummary) => number = (s) => (runFailed(s) ? 1 : 0),
  ) {
    super(write, cwd)
  }
  end(s: RunSummary): void {
    const code = this.exitCode(s)
    const why =
      s.failed > 0
        ? `${s.failed} case${s.failed === 1 ? '' : 's'} failed`
        : s.snapshotErrors.length > 0
          ? (s.snapshotErrors[0] ?? '')
          : 'stopped'
    const doc = envelope(
      'test',
      code,
      {
        summary: {
          total: s.passed + s.failed + s.notRun,
          passed: s.passed,
          failed: s.failed,
          not_run: s.notRun,
          snapshots_written: s.updated,
          snapshot_errors: s.snapshotErrors,
          duration_ms: Math.round(s.durationMs),
          ...(s.leftOut ? { left_out: Object.fromEntries(s.leftOut) } : {}),
          ...(s.roots ? { roots: s.roots.map((r) => ({ path: toText(r.path), assumed: r.assumed })) } : {}),
        },
        packs: this.byPack().map(([, rs]) => ({
          name: rs[0].pack,
          dir: rs[0].dir,
          cases: rs.map((r) => ({
            name: r.name,
            file: r.file,
            passed: r.passed,
            duration_ms: Math.round(r.durationMs * 1000) / 1000,
            error: r.error,
            timed_out: r.timedOut,
            exit_status: r.exitCode,
            snapshot_written: r.snapshot?.updated === true,
            failures: r.failures.map((f) => ({
              kind: f.kind,
              message: f.message,
              ...(f.diff ? { diff: f.diff } : {}),
            })),
            ...(r.trace !== undefined ? { trace: traceJson(r.trace.report, r.trace.findings) } : {}),
          })),
        })),
      },
      why,
    )
    this.write(`${stringify(doc, 2)}\n`)
  }
}

const secs = (msv: number) => (msv / 1000).toFixed(3)

/**
 * JUnit XML as Jenkins, GitLab and the GitHub test-report actions read it: a testsuite per
 * pack, a testcase per case (classname the pack), a <failure> with the messages and diffs,
 * and the entry's stderr in <system-err>.
 */
export class JunitReporter extends Collecting {
  end(s: RunSummary): void {
    const timestamp = new Date(Date.now() - s.durationMs).toISOString().replace(/\.\d+Z$/, '')
    let suites = ''
    let total = 0
    let failures = 0
    this.byPack().forEach(([, rs], id) => {
      const f = rs.filter((r) => !r.passed).length
      const time = rs.reduce((a, r) => a + r.durationMs, 0)
      total += rs.length
      failures += f
      suites += `  <testsuite name="${xml(rs[0].pack)}" tests="${rs.length}" failures="${f}" errors="0" skipped="0" time="${secs(time)}" timestamp="${timestamp}" hostname="localhost" id="${id}" package="${xml(rs[0].dir)}">\n`
      for (const r of rs) {
        suites += `    <testcase classname="${xml(rs[0].pack)}" name="${xml(r.name)}" time="${secs(r.durationMs)}"`
        // A traced case's effects, one a line, in <system-out>.
        const out =
          r.trace !== undefined
            ? `      <system-out>${xml(traceLines(r.trace.report, r.trace.findings, false).join('\n'))}</system-out>\n`
            : ''
        if (r.passed) {
          suites += out === '' ? '/>\n' : `>\n${out}    </testcase>\n`
          continue
        }
        const body = r.failures
          .map((x) => [x.message, ...(x.diff ?? []).map((d) => `    ${d}`)].join('\n'))
          .join('\n')
        suites += `>\n      <failure message="${xml(r.failures[0]?.message ?? 'failed')}" type="${r.failures[0]?.kind ?? 'failed'}">${xml(`${r.file ? `${r.file}\n` : ''}${body}`)}</failure>\n`
        suites += out
        if (r.stderr) suites += `      <system-err>${xml(r.stderr)}</system-err>\n`
        suites += '    </testcase>\n'
      }
      suites += '  </testsuite>\n'
    })
    this.write(
      `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="ongrid-skill test" tests="${total}" failures="${failures}" errors="0" time="${secs(s.durationMs)}">\n${suites}</testsuites>\n`,
    )
  }
}
