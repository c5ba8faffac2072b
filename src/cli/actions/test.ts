import { availableParallelism } from 'node:os'
import { auditStorePath } from '../../core/audit/dsn.js'
import { type GoBytes, toText } from '../../core/go/gostring.js'
import { leftOutText, type RootUsed } from '../../core/lint/targets.js'
import {
  findPacks,
  type Item,
  type ItemResult,
  plan,
  type RunOptions,
  type RunSummary,
  runItems,
} from '../../core/testcases/suite.js'
import { colorWanted } from '../../ui/color.js'
import { liveTerminal, terminalLineText } from '../../ui/terminal.js'
import type { LiveView, Reporter } from '../../ui/test/report.js'
import { EXIT, type InputOf, UserError } from '../errors.js'
import { collectGarbage } from '../gc.js'
import { managerReleaseOf, noteNotDefault } from '../manager-version.js'
import { MAX_JOBS, parseNumberFlag } from '../number-flag.js'
import { argBytes, pathFlag, textPath } from '../os-bytes.js'
import { onStopSignals, stoppedCode } from '../signals.js'
import type { TEST_FORMATS } from '../specs/defaults.js'
import type { testSpec as Test } from '../specs/test.js'

export type TestFormat = (typeof TEST_FORMATS)[number]

/** Exit codes of `test`: 0 all passed, 1 a case failed, 2 usage error or no tests, 6 cannot trace; 130 interrupted. */
export const TEST_EXIT = {
  ok: EXIT.ok,
  failed: EXIT.findings,
  usage: EXIT.usage,
  /** --trace or a case's expect.effects, without a strace (or bubblewrap) that runs (cli/trace.ts). */
  untraceable: 6,
  /** Ctrl-C; any stop signal exits 128 + its number. */
  interrupted: 130,
} as const

export interface TestOptions {
  /** The PATHs and --root as the bytes given (cli/os-bytes.ts). */
  paths: GoBytes[]
  root?: GoBytes
  format: TestFormat
  jobs: number
  filter: RegExp | null
  bail: boolean
  update: boolean
  passWithNoTests: boolean
  /** spec: only the failing cases and the counts. */
  quiet: boolean
  watch: boolean
  audit: boolean
  auditDb?: string
  /** Leave out node_modules and VCS dirs below each PATH (--no-default-ignore: false). */
  defaultIgnore: boolean
  /** --trace, --sandbox, --allow-net (cli/trace.ts). */
  trace: { trace: boolean; sandbox: boolean; allowNet: boolean }
  /** --json-file: the json document of the same run also goes to this file. */
  jsonFile?: string
}

/** `-j` when not given: as many cases at once as this process may use CPUs (within MAX_JOBS). */
export function defaultJobs(): number {
  return Math.max(1, Math.min(availableParallelism(), MAX_JOBS.max ?? 1))
}

/** Flags to options, each bad value a one-line usage error. */
export function testOptions({ argv, flags }: InputOf<typeof Test>): TestOptions {
  const format: TestFormat = flags.json === true ? 'json' : flags.format
  const j = flags.jobs === undefined ? defaultJobs() : parseNumberFlag('jobs', flags.jobs, MAX_JOBS, 'j')
  let filter: RegExp | null = null
  const f = flags.filter
  if (f !== undefined) {
    try {
      filter = new RegExp(f, 'u')
    } catch (e) {
      // V8's "Invalid regular expression: /(/u: Unterminated group", with the pattern as typed.
      const why = /: ([^:]*)$/.exec((e as Error).message)?.[1] ?? 'invalid'
      throw new UserError(
        `--filter ${JSON.stringify(f)}: not a regular expression (${why.charAt(0).toLowerCase()}${why.slice(1)})`,
      )
    }
  }
  return {
    paths: argv.map(argBytes),
    root: pathFlag(flags.root),
    format,
    jobs: j,
    filter,
    bail: flags.bail === true,
    update: flags.update === true,
    passWithNoTests: flags['pass-with-no-tests'] === true,
    quiet: flags.quiet === true,
    watch: flags.watch === true,
    audit: flags.audit === true,
    auditDb: auditStorePath(textPath('--audit-db', flags['audit-db'])),
    defaultIgnore: flags['no-default-ignore'] !== true,
    trace: {
      trace: flags.trace === true || flags.sandbox === true,
      sandbox: flags.sandbox === true,
      allowNet: flags['allow-net'] === true,
    },
    jsonFile: textPath('--json-file', flags['json-file']),
  }
}

/**
 * Finds and plans the run; a bad PATH or --root is a usage error (PathError). `--filter` is matched
 * against the case names with a time bound (a pattern that backtracks is a usage error, said so).
 */
export async function planRun(
  o: TestOptions,
  signal?: AbortSignal,
  leftOut?: Map<string, number>,
  roots?: RootUsed[],
): Promise<Item[]> {
  const packs = findPacks(o.paths, o.root, { defaultIgnore: o.defaultIgnore, leftOut, roots })
  if (o.filter === null) return plan(packs, null)
  const names = packs.flatMap((p) => p.files.flatMap((f) => f.cases.map((c) => c.name)))
  const { matchBounded } = await import('../../core/testcases/filter.js')
  const v = await matchBounded(o.filter, names, signal)
  if (v.kind === 'aborted') return []
  if (v.kind === 'overtime')
    throw new UserError(
      `--filter ${JSON.stringify(o.filter.source)}: matching the case names took over ${v.ms} ms (catastrophic backtracking?): simplify the pattern`,
    )
  return plan(packs, { test: (name) => v.names.has(name) })
}

export async function makeReporter(
  format: TestFormat,
  write: (s: string) => void,
  quiet = false,
): Promise<Reporter> {
  const m = await import('../../ui/test/report.js')
  const cwd = process.cwd()
  switch (format) {
    case 'spec': {
      const { chalkPaint, NO_PAINT } = await import('../../ui/lint/stylish.js')
      return new m.SpecReporter(write, cwd, colorWanted() ? await chalkPaint() : NO_PAINT, quiet)
    }
    case 'tap':
      return new m.TapReporter(write)
    case 'junit':
      return new m.JunitReporter(write, cwd)
    case 'json':
      // A stop signal's code when stopped (the document is written before the action returns).
      return new m.JsonReporter(
        write,
        cwd,
        (s) => stoppedCode() ?? (m.runFailed(s) ? TEST_EXIT.failed : TEST_EXIT.ok),
      )
  }
}

export interface OnceResult {
  code: number
  summary: RunSummary | null
}

/** One run of the planned items; the exit code it gives. */
export async function runOnce(o: TestOptions, signal?: AbortSignal): Promise<OnceResult> {
  const leftOut = new Map<string, number>()
  const roots: RootUsed[] = []
  const items = await planRun(o, signal, leftOut, roots)
  // Stopped while the filter was matched: nothing was run.
  if (signal?.aborted) return { code: TEST_EXIT.interrupted, summary: null }
  const write = (s: string) => {
    process.stdout.write(s)
  }
  const withFile = async (r: Reporter): Promise<Reporter> => (o.jsonFile ? jsonFileTee(r, o.jsonFile) : r)
  if (items.length === 0) {
    const where = o.paths.length > 0 ? o.paths.map(toText).join(', ') : '.'
    const empty = { ...emptySummary(), leftOut, roots }
    if (o.passWithNoTests) {
      if (o.format !== 'spec') (await withFile(await makeReporter(o.format, write))).end(empty)
      else {
        if (o.jsonFile) (await withFile({ result() {}, end() {} })).end(empty)
        process.stderr.write(
          `no test cases found under ${terminalLineText(where, process.stderr.isTTY === true)}${leftOutNote(leftOut)}\n`,
        )
      }
      return { code: EXIT.ok, summary: empty }
    }
    throw new UserError(
      `no test cases found under ${where}${o.filter ? ` matching --filter ${o.filter.source}` : ''}${leftOutNote(leftOut)}: a pack's cases are <pack>/tests/*.json (--pass-with-no-tests exits 0)`,
    )
  }
  // Traced: every case with --trace/--sandbox, else only those that pin expect.effects.
  const pinned = items.some((it) => it.case?.expect.effects !== undefined)
  let trace: RunOptions['trace']
  if (o.trace.trace || o.trace.allowNet || pinned) {
    const { traceFlags, traceTools } = await import('../trace.js')
    const f = traceFlags({ trace: o.trace.trace, sandbox: o.trace.sandbox, 'allow-net': o.trace.allowNet })
    const by = f.trace ? undefined : "a case's expect.effects"
    trace = { tools: traceTools(f, by), all: f.trace, sandbox: f.sandbox, allowNet: f.allowNet }
  }
  const live = o.format === 'spec' && !o.watch && !o.quiet && liveTerminal(process.stdout)
  let reporter: Reporter
  let view: LiveView | null = null
  if (live) {
    const { createLiveView } = await import('../../ui/test/live.js')
    view = await createLiveView(items.length, process.stdout)
    reporter = view
  } else reporter = await makeReporter(o.format, write, o.quiet)
  reporter = await withFile(reporter)
  // spec and tap on a terminal: what packs, cases and entries wrote is shown, not obeyed.
  const { shownOnTerminal } = await import('../../ui/test/report.js')
  const escaped = (o.format === 'spec' || o.format === 'tap') && process.stdout.isTTY === true
  const shown = (r: ItemResult) => (escaped ? shownOnTerminal(r) : r)
  const audit = o.audit ? await openAudit(o.auditDb) : null
  const summary = await runItems(items, {
    jobs: o.jobs,
    bail: o.bail,
    update: o.update,
    keepStdout: audit !== null,
    signal,
    collectGarbage,
    trace,
    onStart: view ? (item, i) => view?.start(item, i) : undefined,
    onStderr: view ? (item, i, chunk) => view?.stderr(item, i, chunk) : undefined,
    onResult: (r, i) => {
      audit?.record(r)
      reporter.result(shown(r), i)
    },
  })
  audit?.close()
  summary.leftOut = leftOut
  summary.roots = roots
  reporter.end(summary)
  await view?.done()
  for (const m of summary.snapshotErrors)
    process.stderr.write(`ongrid-skill: ${terminalLineText(m, process.stderr.isTTY === true)}\n`)
  if (signal?.aborted) return { code: TEST_EXIT.interrupted, summary }
  const failed = summary.failed > 0 || summary.snapshotErrors.length > 0
  return { code: failed ? TEST_EXIT.failed : TEST_EXIT.ok, summary }
}

/**
 * `reporter`, and the json document of the same results written to `file` when the run ends
 * (through a temp file and a rename; a failure to write is one line, exit 2).
 */
async function jsonFileTee(reporter: Reporter, file: string): Promise<Reporter> {
  let doc = ''
  const json = await makeReporter('json', (s) => {
    doc += s
  })
  const { writeFileAtomic } = await import('../../core/atomic-write.js')
  return {
    result(r, i) {
      reporter.result(r, i)
      json.result(r, i)
    },
    end(s) {
      reporter.end(s)
      json.end(s)
      writeFileAtomic(file, doc)
    },
  }
}

/** ` outside node_modules (1 dir)`: where no case was looked for, when anything was left out. */
function leftOutNote(leftOut: ReadonlyMap<string, number>): string {
  return leftOut.size > 0 ? ` outside ${leftOutText(leftOut)}` : ''
}

function emptySummary(): RunSummary {
  return { passed: 0, failed: 0, notRun: 0, updated: 0, snapshotErrors: [], durationMs: 0 }
}

/** `--audit`: each case's run appended to the local audit store, in the row `run` records. */
async function openAudit(path: string | undefined): Promise<{ record(r: ItemResult): void; close(): void }> {
  const [{ AuditSink }, { executionRow }, { nowNs }] = await Promise.all([
    import('../audit-sink.js'),
    import('../../core/audit/local-store.js'),
    import('../../core/go/time/format.js'),
  ])
  const sink = await AuditSink.open(path)
  if (sink.failure !== null) throw new UserError(`--audit: ${sink.path}: ${sink.failure}`)
  return {
    record(r) {
      const skill = r.item.pack.skill
      if (r.outcome === null || skill === null || r.item.case === null) return
      const finishedNs = nowNs()
      const out = sink.append(
        executionRow({
          skill,
          callerRole: 'local',
          params: r.item.case.args ?? '',
          ok: r.outcome.ok,
          stdout: r.outcome.stdout,
          error: r.outcome.error,
          startedNs: finishedNs - BigInt(Math.round(r.durationMs * 1e6)),
          finishedNs,
        }),
      )
      if (!out.recorded)
        process.stderr.write(
          `warning: audit store: ${terminalLineText(out.reason, process.stderr.isTTY === true)} (case not recorded)\n`,
        )
    },
    close: () => sink.close(),
  }
}

/** `test [PATH...]`: each pack's cases, run as the manager runs the entry. */
export async function testAction(input: InputOf<typeof Test>): Promise<number> {
  // The executor is the same text at every release supported: the release is named, not consulted.
  const { release } = await managerReleaseOf(input.flags)
  noteNotDefault(release, input.flags.json === true || input.flags.format === 'json')
  const o = testOptions(input)
  if (o.watch) {
    const { watch } = await import('./test-watch.js')
    return watch(o)
  }
  // Any stop signal (Ctrl-C, kill, a closed terminal, Ctrl-\\) kills the cases in flight, starts
  // no more, and exits 128 + its number; a second one exits at once.
  const controller = new AbortController()
  let signalCode: number = TEST_EXIT.interrupted
  const offSignals = onStopSignals((_signal, code) => {
    signalCode = code
    controller.abort()
  })
  try {
    const { code } = await runOnce(o, controller.signal)
    return controller.signal.aborted ? signalCode : code
  } finally {
    offSignals()
  }
}
