import { readFileSync } from 'node:fs'
import type { Database } from 'better-sqlite3'
import { ArgsError, type ArgsInput, assembleArgs } from '../../core/args.js'
import { defaultAuditPath, insertExecution, openLocalStore } from '../../core/audit/local-store.js'
import type { SubprocessSkill } from '../../core/build.js'
import { EXTERNAL_DIRS_ENV, splitExternalDirs } from '../../core/dirs.js'
import { parseEnvFile } from '../../core/env-file.js'
import { type ExecuteResult, execute } from '../../core/executor.js'
import { authorize, llmCallable } from '../../core/gate.js'
import { valid } from '../../core/go/encoding/json/scanner.js'
import { fromBuffer, fromText, type GoString, toBuffer, toText } from '../../core/go/gostring.js'
import { nowNs } from '../../core/go/time/format.js'
import { isPackPath, resolveByName, resolvePack } from '../../core/resolve.js'
import { parseTimeoutText } from '../../core/timeout-flag.js'
import { createRunView, type RunView } from '../../ui/run.js'
import { type ActionInput, EXIT, ExitWith, printJson, UserError } from '../errors.js'

/** Exit codes of `run`, beyond the shared ones. */
export const RUN_EXIT = {
  failed: 1,
  usage: 2,
  timedOut: 3,
  badArgs: 4,
  forbidden: 5,
  interrupted: 130,
} as const

interface RunFlags {
  json?: boolean
  root?: string
  dirs?: string
  args?: string
  'args-file'?: string
  arg?: string[]
  validate?: boolean
  'env-from'?: string
  timeout?: string
  role?: string
  quiet?: boolean
  audit?: boolean
  'audit-db'?: string
}

/** run: build the pack as the loader does, then execute it as the manager's executor does. */
export async function runAction({ args, flags: f }: ActionInput): Promise<number> {
  const flags = f as RunFlags
  const json = flags.json === true
  const say = (line: string) => {
    if (!flags.quiet && !json) process.stderr.write(`${line}\n`)
  }

  const skill = resolveSkill(args.target ?? '', flags.root, flags.dirs)
  if (flags.timeout !== undefined) {
    const d = parseTimeoutText(flags.timeout)
    if (!d.ok) throw new UserError(`--timeout: ${d.problem}`)
    if (d.ns > 0n) skill.timeoutNs = d.ns
  }

  const schema = parseSchema(skill.schema)
  let params: GoString
  try {
    params = assembleArgs({
      ...readArgs(flags.args, flags['args-file']),
      assignments: flags.arg ?? [],
      schema,
    })
  } catch (e) {
    if (e instanceof ArgsError) throw new UserError(e.message)
    throw e
  }
  // The manager sends `{}` for empty args, so that is what is checked.
  const effective = params.trim() === '' ? '{}' : params
  if (flags.validate !== false && schema !== undefined && valid(effective)) {
    if (!(await checkArgs(schema, effective, say))) return RUN_EXIT.badArgs
  }

  if (flags.role !== undefined) {
    const refusal = authorize(skill.class, flags.role)
    if (refusal !== null) {
      if (json) printJson({ ok: false, error: refusal, status: 403 })
      else process.stderr.write(`error: ${refusal}\n`)
      return RUN_EXIT.forbidden
    }
  } else if (!llmCallable(skill.class)) {
    say(
      `notice: ${skill.class} skills are never offered to the LLM; through the REST API ${skill.class === 'dangerous' ? 'every role is refused' : 'only admin and user roles may run it'} (replay with --role).`,
    )
  }

  const environ = flags['env-from'] !== undefined ? readEnvFile(flags['env-from']) : process.env
  const controller = new AbortController()
  let interrupted = false
  const onSigint = () => {
    interrupted = true
    controller.abort()
  }
  process.once('SIGINT', onSigint)
  process.once('SIGTERM', onSigint)

  const view: RunView | null = flags.quiet || json ? null : await createRunView(skill, process.stderr)
  const startedNs = nowNs()
  const running = execute(skill, params, {
    environ,
    signal: controller.signal,
    onStderr: view ? (chunk) => view.stderr(chunk) : undefined,
  })
  // The entry is spawned by now: the audit store opens while it runs.
  const store = flags.audit !== false ? await openStore(flags['audit-db']) : null
  const result = await running
  const finishedNs = nowNs()
  process.off('SIGINT', onSigint)
  process.off('SIGTERM', onSigint)
  await view?.done(result)

  if (store !== null) record(store, skill, params, result, startedNs, finishedNs, json)

  const code = interrupted
    ? RUN_EXIT.interrupted
    : result.ok
      ? EXIT.ok
      : result.timedOut
        ? RUN_EXIT.timedOut
        : RUN_EXIT.failed
  if (json) {
    writeRunJson(skill, result)
  } else if (result.ok) {
    process.stdout.write(result.stdout)
  } else {
    process.stderr.write(toBuffer(`error: ${result.error}\n`))
  }
  return code
}

function resolveSkill(
  target: string,
  root: string | undefined,
  dirsFlag: string | undefined,
): SubprocessSkill {
  const r = isPackPath(target)
    ? resolvePack(target, root)
    : resolveByName(target, splitExternalDirs(fromText(dirsFlag ?? process.env[EXTERNAL_DIRS_ENV] ?? '')))
  if (r.ok) return r.skill
  // The loader's own line, byte for byte (like load-dirs prints it), not a usage hint.
  if (r.kind === 'rejected') {
    process.stderr.write(toBuffer(`error: ${r.line}\n`))
    throw new ExitWith(RUN_EXIT.usage)
  }
  throw new UserError(toText(r.line), RUN_EXIT.usage, r.hint)
}

function readArgs(argsFlag: string | undefined, file: string | undefined): Pick<ArgsInput, 'json'> {
  if (argsFlag !== undefined) return { json: fromText(argsFlag) }
  if (file === undefined) return {}
  try {
    return { json: fromBuffer(readFileSync(file === '-' ? 0 : file)) }
  } catch (e) {
    throw new UserError(`--args-file ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`)
  }
}

function readEnvFile(path: string): Record<string, string> {
  try {
    return parseEnvFile(readFileSync(path))
  } catch (e) {
    throw new UserError(`--env-from ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`)
  }
}

async function checkArgs(schema: unknown, params: GoString, say: (l: string) => void): Promise<boolean> {
  const { compileSchema, issues } = await import('../../core/schema/compile.js')
  const compiled = await compileSchema(schema, { strict: false })
  if (!compiled.ok) {
    say(`warning: the schema does not compile (${compiled.error}); args not validated`)
    return true
  }
  const value: unknown = JSON.parse(toText(params))
  if (compiled.schema.validate(value)) return true
  const lines = issues(compiled.schema.validate.errors).map(
    (i) => `error: args${i.pointer === '/' ? '' : i.pointer}: ${i.message}`,
  )
  process.stderr.write(
    `${lines.join('\n')}\n(the manager does not check args; --no-validate sends them as they are)\n`,
  )
  return false
}

/** The local audit store, open, or why it is not: never a failed run. */
type Store = { path: string; db: Database } | { path: string; error: string }

async function openStore(dbPath: string | undefined): Promise<Store> {
  const path = dbPath ?? defaultAuditPath()
  try {
    return { path, db: await openLocalStore(path) }
  } catch (e) {
    return { path, error: (e as Error).message.split('\n')[0] }
  }
}

function record(
  store: Store,
  skill: SubprocessSkill,
  params: GoString,
  result: ExecuteResult,
  startedNs: bigint,
  finishedNs: bigint,
  json: boolean,
): void {
  let error = 'error' in store ? store.error : null
  if ('db' in store) {
    try {
      insertExecution(store.db, {
        skillKey: toText(skill.key),
        edgeId: 0,
        callerId: 0,
        callerRole: 'local',
        class: skill.class,
        // The params as the caller gave them (the manager's in.Params): '' when none, not
        // the `{}` the executor sends.
        paramsJson: toText(params),
        resultJson: result.ok ? result.stdout.toString('utf8') : '',
        error: result.error === null ? '' : toText(result.error),
        startedNs,
        finishedNs,
      })
    } catch (e) {
      error = (e as Error).message.split('\n')[0]
    } finally {
      store.db.close()
    }
  }
  if (error !== null && !json)
    process.stderr.write(`warning: audit store ${store.path}: ${error} (run not recorded)\n`)
}

function parseSchema(raw: GoString | null): unknown {
  if (raw === null) return undefined
  try {
    return JSON.parse(toText(raw))
  } catch {
    return undefined
  }
}

const STDOUT_SLOT = '\u0000stdout\u0000'

/**
 * The --json document. The entry's stdout (up to 16 MiB) is escaped and written piece by
 * piece rather than built into one string, to keep peak memory low.
 */
function writeRunJson(skill: SubprocessSkill, r: ExecuteResult): void {
  let result: unknown = null
  if (r.ok) {
    try {
      result = JSON.parse(r.stdout.toString('utf8'))
    } catch {}
  }
  let args: unknown = toText(r.params)
  try {
    args = JSON.parse(toText(r.params))
  } catch {}
  const doc = {
    ok: r.ok,
    stdout: STDOUT_SLOT,
    result,
    error: r.error === null ? null : toText(r.error),
    exit_code: r.exitCode,
    timed_out: r.timedOut,
    duration_ms: Math.round(r.durationMs * 1000) / 1000,
    stderr: r.stderr.toString('utf8'),
    skill: {
      name: toText(skill.key),
      entry: toText(skill.entry),
      class: skill.class,
      timeout_ms: Number(skill.timeoutNs / 1_000_000n),
    },
    args,
  }
  const text = `${JSON.stringify(doc, null, 2)}\n`
  const at = text.indexOf(JSON.stringify(STDOUT_SLOT))
  process.stdout.write(text.slice(0, at + 1))
  writeJsonStringBody(r.stdout)
  process.stdout.write(text.slice(at + JSON.stringify(STDOUT_SLOT).length - 1))
}

/** Writes the escaped body of a JSON string holding `buf` decoded as UTF-8, 1 MiB at a time. */
function writeJsonStringBody(buf: Buffer): void {
  const piece = 1024 * 1024
  let start = 0
  while (start < buf.length) {
    let end = Math.min(start + piece, buf.length)
    // Cut before a UTF-8 continuation byte, so each piece decodes as the whole would.
    while (end < buf.length && end > start && (buf[end] & 0xc0) === 0x80) end--
    if (end === start) end = Math.min(start + piece, buf.length)
    process.stdout.write(JSON.stringify(buf.subarray(start, end).toString('utf8')).slice(1, -1))
    start = end
  }
}
