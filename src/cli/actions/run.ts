import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs'
import { auditStorePath } from '../../core/audit/dsn.js'
import { type AuditOutcome, executedOutcome, executionRow } from '../../core/audit/local-store.js'
import { type ArgsInput, assembleArgs } from '../../core/executor/args.js'
import { parseEnvFile } from '../../core/executor/env-file.js'
import { buildSubprocessEnv, execute } from '../../core/executor/executor.js'
import { authorize, llmCallable } from '../../core/executor/gate.js'
import { checkValid, valid } from '../../core/go/encoding/json/scanner.js'
import { fromBuffer, type GoString, toBuffer, toText, trimSpace } from '../../core/go/gostring.js'
import { reasonText } from '../../core/go/os/errors.js'
import { lstat } from '../../core/go/os/file.js'
import { nowNs } from '../../core/go/time/format.js'
import { lineColumn } from '../../core/json-syntax.js'
import type { SubprocessSkill } from '../../core/loader/build.js'
import { fifoBlocks } from '../../core/loader/explain.js'
import { isPackPath, nearestPath, resolveByName, resolvePack } from '../../core/loader/resolve.js'
import { readFileBounded } from '../../core/read-bounded.js'
import { parseTimeoutText } from '../../core/timeout-flag.js'
import { createRunView, type RunView, runWarning, writeRunJson, writeRunOutcome } from '../../ui/run.js'
import { terminalLine, terminalLineText } from '../../ui/terminal.js'
import { AuditSink } from '../audit-sink.js'
import { EXIT, ExitWith, failureDocument, type InputOf, printJson, UserError } from '../errors.js'
import { EXTERNAL_DIRS_ENV } from '../flag-sources.js'
import { collectGarbage } from '../gc.js'
import { managerReleaseOf, noteNotDefault } from '../manager-version.js'
import { argBytes, dirsOf, envBytes, environRecords, osPath, textPath, validUtf8 } from '../os-bytes.js'
import { onStopSignals } from '../signals.js'
import type { runSpec as Run } from '../specs/run.js'

/** Exit codes of `run`: the shared ones (core/errors.ts) and its own, 3 to 7. */
export const RUN_EXIT = {
  failed: EXIT.findings,
  usage: EXIT.usage,
  timedOut: 3,
  badArgs: 4,
  forbidden: 5,
  /** --trace: strace (or bubblewrap for --sandbox) missing or unable to run (cli/trace.ts). */
  untraceable: 6,
  /** --trace: the entry succeeded, but a safe skill changed the host. */
  classViolated: 7,
  /** Ctrl-C; any stop signal exits 128 + its number (143 SIGTERM, 129 SIGHUP, 131 SIGQUIT). */
  interrupted: 130,
} as const

/** run: build the pack as the loader does, then execute it as the manager's executor does. */
export async function runAction({ args, flags }: InputOf<typeof Run>): Promise<number> {
  const json = flags.json === true
  const { release } = await managerReleaseOf(flags)
  noteNotDefault(release, json || flags.quiet === true)
  const say = (line: string) => {
    if (!flags.quiet && !json)
      process.stderr.write(`${terminalLineText(line, process.stderr.isTTY === true)}\n`)
  }

  const auditDb = auditStorePath(textPath('--audit-db', flags['audit-db']))
  const skill = resolveSkill(args.target ?? '', flags.root, flags.dirs, json, release.builtinSkillKeys)
  if (flags.timeout !== undefined) {
    const d = parseTimeoutText(flags.timeout)
    if (!d.ok) throw new UserError(`--timeout: ${d.problem}`)
    if (d.ns > 0n) skill.timeoutNs = d.ns
  }
  // --trace/--sandbox: the tools are checked before anything runs (exit 6 without them).
  const tracing = flags.trace || flags.sandbox || flags['allow-net'] ? await import('../trace.js') : null
  const traceOpts = tracing?.traceFlags(flags) ?? null
  const tools = tracing !== null && traceOpts !== null ? tracing.traceTools(traceOpts) : null

  const schema = parseSchema(skill.schema)
  // Args that cannot be assembled are a usage error (ArgsError).
  const given = readArgs(flags.args, flags['args-file'])
  // Without --args or --args-file, a piped stdin (or a file redirected to it) is the args, as the
  // manager hands them to the entry; a terminal, /dev/null or a closed stdin is not read.
  const piped = given.json === undefined ? stdinArgs() : undefined
  if (given.json !== undefined && flags['args-file'] !== '-' && stdinHoldsInput())
    say(`note: ${flags.args !== undefined ? '--args' : '--args-file'} given: stdin is not read`)
  const params: GoString = assembleArgs({
    json: given.json ?? piped,
    assignments: flags.arg ?? [],
    schema,
  })
  // The manager sends `{}` for args that are empty after Go's bytes.TrimSpace (Unicode white
  // space such as U+00A0, but not U+FEFF), so that is what is checked.
  const effective = trimSpace(params) === '' ? '{}' : params
  if (flags.validate !== false) {
    // Args that are not JSON are a mistake in the command line, not the skill's failure; with
    // --no-validate they go to the executor as given, which refuses them as the manager does.
    const bad = checkValid(effective)
    if (bad !== null) {
      const source =
        flags['args-file'] !== undefined
          ? `--args-file ${flags['args-file']}`
          : piped !== undefined
            ? 'stdin'
            : '--args'
      throw new UserError(
        `${source}: not valid JSON: ${toText(bad.error())} at byte ${bad.offset} (${lineColumn(effective, bad.offset)}); --no-validate sends it as it is`,
      )
    }
  }
  // The manager's order: the body decoded (args that are not JSON), then the class gate; the
  // schema check (ours: the manager checks none) only for a call the manager would run.
  if (flags.role !== undefined) {
    const refusal = authorize(skill.class, flags.role)
    if (refusal !== null) {
      if (json) printJson(failureDocument('run', refusal, RUN_EXIT.forbidden, { status: 403 }))
      else process.stderr.write(`error: ${refusal}\n`)
      return RUN_EXIT.forbidden
    }
  } else if (!llmCallable(skill.class)) {
    say(runWarning.notOffered(skill.class))
  }
  if (flags.validate !== false && schema !== undefined && valid(effective)) {
    const issues = await checkArgs(schema, effective, say)
    if (issues !== null) {
      const unread = given.json !== undefined && flags['args-file'] !== '-' && stdinHoldsInput()
      process.stderr.write(
        `${issues.map((l) => `error: ${terminalLineText(l, process.stderr.isTTY === true)}`).join('\n')}\n(the manager does not check args; --no-validate sends them as they are)\n${unread ? `hint: ${STDIN_UNREAD}\n` : ''}`,
      )
      if (json) printJson(failureDocument('run', issues.join('; '), RUN_EXIT.badArgs, { issues }))
      return RUN_EXIT.badArgs
    }
  }

  const fromFile = flags['env-from'] !== undefined ? readEnvFile(flags['env-from']) : null
  const environ = fromFile?.env ?? process.env
  // Values Node cannot pass on as they are: it gives a child's environment as text.
  const altered = Object.keys(buildSubprocessEnv(skill.envAllow, environ)).filter((name) => {
    const raw = fromFile !== null ? fromFile.raw.get(name) : envBytes(name)
    return raw !== undefined && !validUtf8(raw)
  })
  for (const name of altered) if (!json) process.stderr.write(runWarning.envAltered(name))
  // Node spawns by a text path: an entry whose path is not UTF-8 is not the file the manager runs.
  const entryAltered = !validUtf8(skill.entry)
  if (entryAltered && !json)
    process.stderr.write(runWarning.entryAltered(skill.entry, process.stderr.isTTY === true))
  // Any stop signal (Ctrl-C, kill, a closed terminal, Ctrl-\) kills the entry's process group
  // as a cancelled request does in the manager; the CLI then exits 128 + the signal.
  const controller = new AbortController()
  let interruptCode: number | null = null
  const offSignals = onStopSignals((_signal, code) => {
    interruptCode = code
    controller.abort()
  })

  const view: RunView | null = flags.quiet || json ? null : await createRunView(skill, process.stderr)
  const session =
    tracing !== null && traceOpts !== null && tools !== null
      ? tracing.traceSession(tools, traceOpts, toText(skill.entry))
      : null
  const startedNs = nowNs()
  const running = execute(skill, params, {
    environ,
    signal: controller.signal,
    onStderr: view ? (chunk) => view.stderr(chunk) : undefined,
    collectGarbage,
    launch: session?.launch,
  })
  // The entry is spawned by now: the audit store opens while it runs, on timers, so that its
  // timeout, its stdin and the signals never wait on the store.
  let storeDeadline = Number.POSITIVE_INFINITY
  const wait = { signal: controller.signal, deadline: () => storeDeadline }
  const opening = flags.audit !== false ? AuditSink.open(auditDb, wait) : null
  let result = await running
  const finishedNs = nowNs()
  storeDeadline = Date.now() + STORE_WAIT_MS
  await view?.done(result)
  const traced = session !== null && tracing !== null ? tracing.finishTrace(session, skill, result) : null
  if (traced !== null) result = traced.result

  let audit: AuditOutcome = { recorded: false, reason: 'disabled by --no-audit' }
  if (opening !== null) {
    const sink = await opening
    const row = executionRow({
      skill,
      callerRole: 'local',
      params: toText(params),
      ...executedOutcome(result),
      startedNs,
      finishedNs,
    })
    audit = await sink.appendWaiting(row, wait)
    sink.close()
  }
  offSignals()
  if (!audit.recorded && audit.path !== undefined && !json)
    process.stderr.write(runWarning.notRecorded(audit.path, audit.reason, process.stderr.isTTY === true))

  const violated = traced?.findings.some((f) => f.severity === 'error') === true
  const code =
    interruptCode !== null
      ? interruptCode
      : result.ok
        ? violated
          ? RUN_EXIT.classViolated
          : EXIT.ok
        : result.timedOut
          ? RUN_EXIT.timedOut
          : RUN_EXIT.failed
  if (json)
    writeRunJson(process.stdout, code, skill, result, {
      envAltered: altered,
      entryAltered,
      audit,
      trace: traced ?? undefined,
    })
  else {
    writeRunOutcome(result, process.stdout, process.stderr)
    if (traced !== null) {
      const { traceLines } = await import('../../ui/trace.js')
      const lines = traceLines(traced.report, traced.findings, process.stderr.isTTY === true)
      process.stderr.write(`${lines.join('\n')}\n`)
    }
  }
  return code
}

function resolveSkill(
  target: string,
  root: string | undefined,
  dirsFlag: string | undefined,
  json: boolean,
  builtins: readonly GoString[],
): SubprocessSkill {
  // The bytes given, as the manager would see them (not Node's text of them).
  const path = argBytes(target)
  const byPath = isPackPath(path)
  if (byPath && !lstat(path).ok) {
    // A PATH that is not there is a slip in the command line, not the loader's rejection.
    const near = nearestPath(target)
    throw new UserError(
      `${target}: no such pack dir or skill.json`,
      RUN_EXIT.usage,
      near !== undefined ? `did you mean ${near}?` : undefined,
    )
  }
  const dirs = byPath ? [] : dirsOf([], dirsFlag)
  if (!byPath && dirs.length === 0) {
    throw new UserError(
      `no dirs to look the skill ${target} up in`,
      RUN_EXIT.usage,
      `give its pack dir (run ./${target}, or the path of its dir or skill.json), or --dirs DIR (or set ${EXTERNAL_DIRS_ENV}) to find it by name`,
    )
  }
  const r = byPath
    ? resolvePack(path, root === undefined ? undefined : argBytes(root))
    : resolveByName(target, dirs, builtins, (fifo) =>
        process.stderr.write(
          toBuffer(`note: ${terminalLine(fifoBlocks(fifo), process.stderr.isTTY === true)}\n`),
        ),
      )
  if (r.ok) return r.skill
  // The loader's own line, byte for byte (like load-dirs prints it), not a usage hint.
  if (r.kind === 'rejected') {
    process.stderr.write(toBuffer(`error: ${terminalLine(r.line, process.stderr.isTTY === true)}\n`))
    if (json) printJson(failureDocument('run', toText(r.line), RUN_EXIT.usage))
    throw new ExitWith(RUN_EXIT.usage)
  }
  throw new UserError(toText(r.line), RUN_EXIT.usage, r.hint)
}

/** What a schema error adds when args were given and stdin held some too. */
export const STDIN_UNREAD = 'stdin was not read: --args and --args-file win over a piped stdin'

/**
 * The args from stdin when it was given something: a regular file with bytes in it, or a pipe
 * (read to its end, as --args-file - reads it). Never a terminal, /dev/null, a socket or a
 * closed stdin: those are not input, and a terminal would wait for typing.
 */
function stdinArgs(): GoString | undefined {
  let st: ReturnType<typeof fstatSync>
  try {
    st = fstatSync(0)
  } catch {
    return undefined // closed
  }
  if (!(st.isFIFO() || (st.isFile() && st.size > 0))) return undefined
  try {
    const data = readFileBounded(0, MAX_ARGS_FILE)
    return data.length === 0 ? undefined : fromBuffer(data)
  } catch (e) {
    throw new UserError(`stdin: ${reasonText(e)}`)
  }
}

/**
 * Whether stdin was given something to read that run left alone: a file with bytes in it, or a pipe
 * with bytes waiting or a writer still there (peeked without blocking, through a description of its
 * own). A socket cannot be peeked from Node, a terminal or /dev/null is not input: false.
 */
function stdinHoldsInput(): boolean {
  try {
    const st = fstatSync(0)
    if (st.isFile()) return st.size > 0
    if (!st.isFIFO()) return false
    const fd = openSync('/proc/self/fd/0', constants.O_RDONLY | constants.O_NONBLOCK)
    try {
      return readSync(fd, Buffer.alloc(1), 0, 1, null) > 0
    } catch (e) {
      return (e as NodeJS.ErrnoException).code === 'EAGAIN'
    } finally {
      closeSync(fd)
    }
  } catch {
    return false
  }
}

/** The most of an --args-file read (`/dev/zero` is not an args file). */
export const MAX_ARGS_FILE = 64 * 1024 * 1024
/** The most of an --env-from file read (an environ is a few KiB). */
export const MAX_ENV_FILE = 16 * 1024 * 1024

function readArgs(argsFlag: string | undefined, file: string | undefined): Pick<ArgsInput, 'json'> {
  if (argsFlag !== undefined) return { json: argBytes(argsFlag) }
  if (file === undefined) return {}
  try {
    return { json: fromBuffer(readFileBounded(file === '-' ? 0 : osPath(file), MAX_ARGS_FILE)) }
  } catch (e) {
    throw new UserError(`--args-file ${file}: ${reasonText(e)}`)
  }
}

/** The --env-from file, and its values as bytes. */
function readEnvFile(path: string): { env: Record<string, string>; raw: Map<string, GoString> } {
  try {
    const content = readFileBounded(osPath(path), MAX_ENV_FILE)
    // The values as bytes: the NUL-separated records, or the dotenv lines parsed over the bytes
    // (each byte as one char, so that a value's bytes survive the parse).
    const raw = content.includes(0)
      ? environRecords(fromBuffer(content).split('\0'))
      : new Map(Object.entries(parseEnvFile(Buffer.from(fromBuffer(content), 'utf8'))))
    return { env: parseEnvFile(content), raw }
  } catch (e) {
    throw new UserError(`--env-from ${path}: ${reasonText(e)}`)
  }
}

/** The args' mismatches with the schema (`args/pointer: message`), or null when they match or cannot be checked. */
async function checkArgs(
  schema: unknown,
  params: GoString,
  say: (l: string) => void,
): Promise<string[] | null> {
  const { checkArgsBounded, namesProto } = await import('../../core/schema/bounded.js')
  if (namesProto(schema)) {
    say(runWarning.protoKey)
    return null
  }
  const verdict = await checkArgsBounded(schema, JSON.parse(toText(params)))
  if (verdict.kind === 'valid') return null
  if (verdict.kind === 'uncompiled') {
    say(runWarning.uncompiled(verdict.error))
    return null
  }
  if (verdict.kind === 'overtime') {
    say(runWarning.overtime(verdict.ms))
    return null
  }
  return verdict.issues.map((i) => `args${i.pointer === '/' ? '' : i.pointer}: ${i.message}`)
}

/** How long a locked audit store is waited for once the entry has ended. */
export const STORE_WAIT_MS = 5000

function parseSchema(raw: GoString | null): unknown {
  if (raw === null) return undefined
  try {
    return JSON.parse(toText(raw))
  } catch {
    return undefined
  }
}
