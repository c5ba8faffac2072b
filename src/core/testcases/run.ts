import { type ExecSkill, execute } from '../executor/executor.js'
import { fromText, toText } from '../go/gostring.js'
import { parseDuration } from '../go/time/duration.js'
import { stringify } from '../json-text.js'
import type { CompiledSchema } from '../schema/compile.js'
import type { EffectFinding } from '../trace/class-check.js'
import type { TraceReport, TraceTools } from '../trace/strace-run.js'
import { expectsSuccess, type TestCase } from './cases.js'
import { deepEqual, lineDiff, pretty, project, subsetMismatches } from './match.js'

export type FailureKind =
  | 'ok'
  | 'result'
  | 'result_schema'
  | 'error'
  | 'timed_out'
  | 'stderr_contains'
  | 'max_duration_ms'
  | 'snapshot'
  /** --trace: a safe skill changed the host, or the effects differ from expect.effects. */
  | 'effects'
  /** The case file does not check out, or the loader rejects the pack: nothing ran. */
  | 'case'
  | 'load'

export interface Failure {
  kind: FailureKind
  /** One line saying what went wrong. */
  message: string
  /** Expected vs actual as diff lines (`- expected`, `+ actual`, `  both`), when it helps. */
  diff?: string[]
}

export interface CaseOutcome {
  passed: boolean
  failures: Failure[]
  /** The executor's outcome, as text. */
  ok: boolean
  error: string | null
  timedOut: boolean
  exitCode: number | null
  durationMs: number
  /** The entry's stderr as the manager keeps it (≤ 16 KiB), as text. */
  stderr: string
  /** The parsed result on success (undefined otherwise). */
  result?: unknown
  /** The entry's stdout as text, on success, when asked for (`keepStdout`: the audit row's result). */
  stdout?: string
  /** Set under --update for a snapshot case whose stored result differs: the value to write. */
  snapshot?: { result: unknown }
  /** The traced run's effects and the class's findings (--trace, or a case with expect.effects). */
  trace?: { report: TraceReport; findings: EffectFinding[] }
}

export interface RunCaseOptions {
  /** The environment the case's env goes over (default: this process's). */
  environ?: Record<string, string | undefined>
  signal?: AbortSignal
  onStderr?: (chunk: Buffer) => void
  /** Write snapshots (`--update`) instead of failing on them. */
  update?: boolean
  /** Keep the entry's stdout in the outcome (for the audit store). */
  keepStdout?: boolean
  /** ExecuteOptions.collectGarbage. */
  collectGarbage?: () => void
  /** Trace the run (strace found; core/trace/strace-run.ts), and hold it to this class. */
  trace?: { tools: TraceTools; sandbox: boolean; allowNet: boolean; skillClass: string }
}

const schemas = new Map<
  string,
  Promise<{ ok: true; schema: CompiledSchema } | { ok: false; error: string }>
>()

async function compiled(schema: unknown) {
  const key = stringify(schema)
  let c = schemas.get(key)
  if (c === undefined) {
    c = import('../schema/compile.js').then((m) => m.compileSchema(schema, { strict: false }))
    schemas.set(key, c)
  }
  return c
}

/**
 * Runs one case exactly as the manager runs the entry — the executor itself, in this
 * process — with the case's env as the environment `env_allow` picks from, and its timeout
 * over the manifest's; then checks each assertion.
 */
export async function runCase(
  skill: ExecSkill,
  c: TestCase,
  opts: RunCaseOptions = {},
): Promise<CaseOutcome> {
  let timeoutNs = skill.timeoutNs
  if (c.timeout !== undefined) {
    const d = parseDuration(fromText(c.timeout))
    if (d.ok && d.value > 0n) timeoutNs = d.value
  }
  const session =
    opts.trace !== undefined
      ? (await import('../trace/strace-run.js')).startTrace(opts.trace.tools, toText(skill.entry), opts.trace)
      : null
  let r: Awaited<ReturnType<typeof execute>>
  try {
    r = await execute({ ...skill, timeoutNs }, c.args === null ? null : fromText(c.args), {
      environ: caseEnviron(opts.environ ?? process.env, c.env),
      signal: opts.signal,
      onStderr: opts.onStderr,
      collectGarbage: opts.collectGarbage,
      launch: session?.launch,
    })
  } catch (e) {
    session?.dispose()
    throw e
  }
  let trace: CaseOutcome['trace']
  if (session !== null && opts.trace !== undefined) {
    const report = session.finish()
    const [{ holdToClass }, { asStartFailure }] = await Promise.all([
      import('../trace/class-check.js'),
      import('../trace/strace-run.js'),
    ])
    trace = { report, findings: holdToClass(opts.trace.skillClass, report.effects) }
    r = asStartFailure(r, report, skill.key, skill.entry)
  }
  const out: CaseOutcome = {
    passed: false,
    failures: [],
    ok: r.ok,
    error: r.error === null ? null : toText(r.error),
    timedOut: r.timedOut,
    exitCode: r.exitCode,
    durationMs: r.durationMs,
    stderr: r.stderr.toString('utf8'),
    ...(trace !== undefined ? { trace } : {}),
  }
  if (r.ok) {
    if (opts.keepStdout) out.stdout = r.stdout.toString('utf8')
    try {
      out.result = JSON.parse(r.stdout.toString('utf8'))
    } catch {
      out.result = r.stdout.toString('utf8')
    }
  }
  await check(c, out, opts.update === true)
  out.passed = out.failures.length === 0
  return out
}

/** The manager's environment for this case: ours, with the case's env over it (null unsets). */
export function caseEnviron(
  base: Record<string, string | undefined>,
  over: Record<string, string | null>,
): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...base }
  for (const [k, v] of Object.entries(over)) {
    if (v === null) delete env[k]
    // Defined: a variable named `__proto__` is one like any other.
    else Object.defineProperty(env, k, { value: v, enumerable: true, writable: true, configurable: true })
  }
  return env
}

async function check(c: TestCase, out: CaseOutcome, update: boolean): Promise<void> {
  const e = c.expect
  const fail = (kind: FailureKind, message: string, diff?: string[]) =>
    out.failures.push({ kind, message, diff })
  const wantOk = expectsSuccess(e)
  const what = () => (out.ok ? 'it succeeded' : `it failed: ${out.error}`)

  // A timeout is expected by `timed_out: true`, or by an `error` that is its very text.
  const timeoutExpected =
    e.timedOut === true || (e.error !== undefined && 'exact' in e.error && e.error.exact === out.error)
  if (out.timedOut && !timeoutExpected)
    fail(
      'timed_out',
      `timed out, which the case does not expect ("timed_out": true if it should): ${out.error}`,
    )
  else if (e.timedOut !== undefined && out.timedOut !== e.timedOut)
    fail('timed_out', e.timedOut ? `expected a timeout, but ${what()}` : 'expected no timeout')
  else if (out.ok !== wantOk)
    fail('ok', wantOk ? `expected success, but ${what()}` : 'expected a failure, but it succeeded')

  if (e.error !== undefined) {
    const actual = out.error
    if ('exact' in e.error) {
      // Line by line: the manager's texts carry the entry's stderr, newlines and all.
      if (actual !== e.error.exact)
        fail('error', 'error text differs', lineDiff(e.error.exact, actual ?? '(no error)'))
    } else if (actual === null || !new RegExp(e.error.match, 'u').test(actual)) {
      fail(
        'error',
        `error does not match /${e.error.match}/`,
        (actual ?? '(no error)').split('\n').map((l) => `+ ${l}`),
      )
    }
  }

  if (out.ok) {
    if (c.snapshot) {
      const same = e.hasResult && deepEqual(e.result, out.result)
      if (!same) {
        if (update) out.snapshot = { result: out.result }
        else if (!e.hasResult) fail('snapshot', 'no snapshot stored yet (run with --update to write it)')
        else
          fail('snapshot', 'result differs from the snapshot', lineDiff(pretty(e.result), pretty(out.result)))
      }
    } else if (e.hasResult) {
      const m = subsetMismatches(e.result, out.result)
      if (m.length > 0) {
        fail(
          'result',
          `result does not match: ${m.map((x) => `${x.pointer} ${x.message}`).join('; ')}`,
          lineDiff(pretty(e.result), pretty(project(e.result, out.result))),
        )
      }
    }
    if (e.resultSchema !== undefined) {
      const { hasPatterns } = await import('../schema/bounded.js')
      if (hasPatterns(e.resultSchema)) {
        // A pattern may backtrack for ever on what the entry printed: checked with a time bound.
        const { checkArgsBounded } = await import('../schema/bounded.js')
        const v = await checkArgsBounded(e.resultSchema, out.result)
        if (v.kind === 'uncompiled') fail('result_schema', `result_schema does not compile: ${v.error}`)
        else if (v.kind === 'overtime')
          fail(
            'result_schema',
            `result_schema's patterns took over ${v.ms} ms on this result (catastrophic backtracking?): not checked`,
          )
        else if (v.kind === 'invalid') {
          const lines = v.issues.map((i) => `result${i.pointer === '/' ? '' : i.pointer}: ${i.message}`)
          fail('result_schema', `result does not satisfy result_schema: ${lines.join('; ')}`)
        }
      } else {
        const s = await compiled(e.resultSchema)
        if (!s.ok) fail('result_schema', `result_schema does not compile: ${s.error}`)
        else if (!s.schema.validate(out.result)) {
          const { issues } = await import('../schema/compile.js')
          const lines = issues(s.schema.validate.errors, e.resultSchema, out.result).map(
            (i) => `result${i.pointer === '/' ? '' : i.pointer}: ${i.message}`,
          )
          fail('result_schema', `result does not satisfy result_schema: ${lines.join('; ')}`)
        }
      }
    }
  }

  if (e.stderrContains !== undefined && !out.stderr.includes(e.stderrContains)) {
    const tail = out.stderr.length > 400 ? `…${out.stderr.slice(-400)}` : out.stderr
    fail('stderr_contains', `stderr does not contain ${JSON.stringify(e.stderrContains)}`, [
      `- ${JSON.stringify(e.stderrContains)}`,
      `+ ${JSON.stringify(tail)}`,
    ])
  }
  if (out.trace !== undefined) {
    for (const f of out.trace.findings) if (f.severity === 'error') fail('effects', f.message)
    if (e.effects !== undefined) {
      const { effectsMismatch } = await import('../trace/expect.js')
      const diff = effectsMismatch(e.effects, out.trace.report.effects)
      if (diff.length > 0) fail('effects', 'effects differ from expect.effects', diff)
    }
  }
  if (e.maxDurationMs !== undefined && out.durationMs > e.maxDurationMs)
    fail('max_duration_ms', `took ${Math.round(out.durationMs)} ms, over max_duration_ms ${e.maxDurationMs}`)
}
