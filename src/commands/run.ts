import { readFileSync } from 'node:fs'
import { Args, Flags } from '@oclif/core'
import { BaseCommand, EXIT, UserError } from '../cli/base.js'
import { ArgsError, type ArgsInput, assembleArgs } from '../core/args.js'
import { defaultAuditPath } from '../core/audit/local-store.js'
import type { SubprocessSkill } from '../core/build.js'
import { EXTERNAL_DIRS_ENV, splitExternalDirs } from '../core/dirs.js'
import { parseEnvFile } from '../core/env-file.js'
import { type ExecuteResult, execute } from '../core/executor.js'
import { authorize, llmCallable, ROLES } from '../core/gate.js'
import { valid } from '../core/go/encoding/json/scanner.js'
import { fromBuffer, fromText, type GoString, toBuffer, toText } from '../core/go/gostring.js'
import { parseDuration } from '../core/go/time/duration.js'
import { nowNs } from '../core/go/time/format.js'
import { isPackPath, resolveByName, resolvePack } from '../core/resolve.js'
import { createRunView, type RunView } from '../ui/run.js'

/** Exit codes of `run`, beyond the shared ones. */
export const RUN_EXIT = {
  failed: 1,
  usage: 2,
  timedOut: 3,
  badArgs: 4,
  forbidden: 5,
  interrupted: 130,
} as const

export default class Run extends BaseCommand {
  static override summary = "Run a skill pack's entry exactly as the manager's executor does"

  static override description =
    `Builds the pack as the manager's loader would, then runs its entry as the manager's executor does: JSON args on stdin, only env_allow variables passed, its own process group killed whole on timeout, stdout capped at 16 MiB and stderr at 16 KiB, the 1 s wait for pipes held by background children, and the manager's exact error texts.

On success the entry's stdout is printed verbatim (exit 0). On failure "error: <the manager's text>" goes to stderr (exit 1; 3 when it timed out). The entry's stderr streams live to stderr while it runs.

Exit codes: 0 ok, 1 the skill failed, 2 usage error or the loader rejects the pack, 3 timed out, 4 args do not match the schema, 5 refused by --role (the manager's 403), 130 interrupted.`

  static override examples = [
    {
      description: 'Run a pack with args',
      command: '<%= config.bin %> <%= command.id %> examples/skills/disk_usage --args \'{"path":"/tmp"}\'',
    },
    {
      description: 'Typed args from the schema (n is an integer, tags an array)',
      command: '<%= config.bin %> <%= command.id %> ./my_skill --arg n=3 --arg \'tags=["a"]\'',
    },
    {
      description: 'A skill registered from the manager’s dirs, with the manager’s environment',
      command:
        '<%= config.bin %> <%= command.id %> disk_usage --dirs /etc/ongrid/skills --env-file /proc/$(pidof ongrid)/environ',
    },
    {
      description: 'Replay a viewer calling it through the REST API',
      command: '<%= config.bin %> <%= command.id %> ./restart_nginx --role viewer',
    },
    {
      description: 'One JSON document for scripts',
      command: '<%= config.bin %> <%= command.id %> ./my_skill --args-file args.json --json',
    },
  ]

  static override enableJsonFlag = true

  static override args = {
    target: Args.string({
      description: 'pack dir, skill.json, or the name of a skill registered from --dirs',
      required: true,
    }),
  }

  static override flags = {
    root: Flags.string({
      description: 'allow-list root for the escape check (default: the dir that holds the pack)',
    }),
    dirs: Flags.string({
      description: `allow-list dirs to look NAME up in, split like ${EXTERNAL_DIRS_ENV} (default: that variable)`,
    }),
    args: Flags.string({ description: 'JSON args sent on stdin, verbatim', exclusive: ['args-file'] }),
    'args-file': Flags.string({ description: 'file holding the JSON args (- for stdin)' }),
    arg: Flags.string({ description: 'key=value, typed by the schema; repeatable', multiple: true }),
    validate: Flags.boolean({
      description: 'check args against the schema first (the manager itself validates nothing)',
      default: true,
      allowNo: true,
    }),
    'env-file': Flags.string({
      description:
        'take env_allow values from this file (NAME=value lines, or NUL-separated like /proc/PID/environ) instead of this environment',
    }),
    timeout: Flags.string({ description: 'override the timeout, as a Go duration (90s, 1m30s, 500ms)' }),
    role: Flags.string({
      description: "replay the manager's REST class gate for this caller role",
      options: [...ROLES],
    }),
    quiet: Flags.boolean({
      char: 'q',
      description: "do not show the entry's stderr or notices while it runs",
    }),
    audit: Flags.boolean({
      description: 'append the run to the local audit store',
      default: true,
      allowNo: true,
    }),
    'audit-db': Flags.string({
      description: 'local audit store (default $XDG_STATE_HOME/ongrid-skill/audit.db)',
    }),
  }

  async run(): Promise<unknown> {
    const { args, flags } = await this.parse(Run)
    const json = this.jsonEnabled()
    const say = (line: string) => {
      if (!flags.quiet && !json) process.stderr.write(`${line}\n`)
    }

    const skill = this.resolve(args.target, flags.root, flags.dirs)
    if (flags.timeout !== undefined) {
      const d = parseDuration(fromText(flags.timeout))
      if (!d.ok) throw new UserError(`--timeout: ${toText(d.err.error())}`)
      if (d.value > 0n) skill.timeoutNs = d.value
    }

    const schema = parseSchema(skill.schema)
    let params: GoString
    try {
      params = assembleArgs({
        ...this.readArgs(flags.args, flags['args-file']),
        assignments: flags.arg ?? [],
        schema,
      })
    } catch (e) {
      if (e instanceof ArgsError) throw new UserError(e.message)
      throw e
    }
    if (flags.validate && schema !== undefined && params.trim() !== '' && valid(params)) {
      await this.checkArgs(schema, params, say)
    }

    if (flags.role !== undefined) {
      const refusal = authorize(skill.class, flags.role)
      if (refusal !== null) {
        if (json) this.logJson({ ok: false, error: refusal, status: 403 })
        else process.stderr.write(`error: ${refusal}\n`)
        this.exit(RUN_EXIT.forbidden)
      }
    } else if (!llmCallable(skill.class)) {
      say(
        `notice: ${skill.class} skills are never offered to the LLM; through the REST API ${skill.class === 'dangerous' ? 'every role is refused' : 'only admin and user roles may run it'} (replay with --role).`,
      )
    }

    const environ = flags['env-file'] !== undefined ? this.readEnvFile(flags['env-file']) : process.env
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
    const result = await execute(skill, params, {
      environ,
      signal: controller.signal,
      onStderr: view ? (chunk) => view.stderr(chunk) : undefined,
    })
    const finishedNs = nowNs()
    process.off('SIGINT', onSigint)
    process.off('SIGTERM', onSigint)
    await view?.done(result)

    if (flags.audit) await this.audit(flags['audit-db'], skill, result, startedNs, finishedNs, json)

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
    if (code !== EXIT.ok) this.exit(code)
    return undefined
  }

  private resolve(target: string, root: string | undefined, dirsFlag: string | undefined): SubprocessSkill {
    const r = isPackPath(target)
      ? resolvePack(target, root)
      : resolveByName(target, splitExternalDirs(fromText(dirsFlag ?? process.env[EXTERNAL_DIRS_ENV] ?? '')))
    if (!r.ok) throw new UserError(toText(r.line), RUN_EXIT.usage)
    return r.skill
  }

  private readArgs(argsFlag: string | undefined, file: string | undefined): Pick<ArgsInput, 'json'> {
    if (argsFlag !== undefined) return { json: fromText(argsFlag) }
    if (file === undefined) return {}
    try {
      return { json: fromBuffer(readFileSync(file === '-' ? 0 : file)) }
    } catch (e) {
      throw new UserError(`--args-file ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`)
    }
  }

  private readEnvFile(path: string): Record<string, string> {
    try {
      return parseEnvFile(readFileSync(path))
    } catch (e) {
      throw new UserError(`--env-file ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`)
    }
  }

  private async checkArgs(schema: unknown, params: GoString, say: (l: string) => void): Promise<void> {
    const { compileSchema, issues } = await import('../core/schema/compile.js')
    const compiled = await compileSchema(schema, { strict: false })
    if (!compiled.ok) {
      say(`warning: the schema does not compile (${compiled.error}); args not validated`)
      return
    }
    const value: unknown = JSON.parse(toText(params))
    if (compiled.schema.validate(value)) return
    const lines = issues(compiled.schema.validate.errors).map(
      (i) => `error: args${i.pointer === '/' ? '' : i.pointer}: ${i.message}`,
    )
    process.stderr.write(
      `${lines.join('\n')}\n(the manager does not check args; --no-validate sends them as they are)\n`,
    )
    this.exit(RUN_EXIT.badArgs)
  }

  private async audit(
    dbPath: string | undefined,
    skill: SubprocessSkill,
    result: ExecuteResult,
    startedNs: bigint,
    finishedNs: bigint,
    json: boolean,
  ): Promise<void> {
    const path = dbPath ?? defaultAuditPath()
    try {
      const { openLocalStore, insertExecution } = await import('../core/audit/local-store.js')
      const db = await openLocalStore(path)
      try {
        insertExecution(db, {
          skillKey: toText(skill.key),
          edgeId: 0,
          callerId: 0,
          callerRole: 'local',
          class: skill.class,
          paramsJson: toText(result.params),
          resultJson: result.ok ? result.stdout.toString('utf8') : '',
          error: result.error === null ? '' : toText(result.error),
          startedNs,
          finishedNs,
        })
      } finally {
        db.close()
      }
    } catch (e) {
      if (!json)
        process.stderr.write(
          `warning: audit store ${path}: ${(e as Error).message.split('\n')[0]} (run not recorded)\n`,
        )
    }
  }
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
