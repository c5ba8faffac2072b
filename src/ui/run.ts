import type { AuditOutcome } from '../core/audit/local-store.js'
import { EXIT } from '../core/errors.js'
import type { ExecuteResult } from '../core/executor/executor.js'
import { fromBuffer, type GoString, toBuffer, toText } from '../core/go/gostring.js'
import { stringify } from '../core/json-text.js'
import type { SubprocessSkill } from '../core/loader/build.js'
import type { EffectFinding } from '../core/trace/class-check.js'
import type { TraceReport } from '../core/trace/strace-run.js'
import { envelope, jsonError } from './envelope.js'
import { liveTerminal, TerminalStream, terminalBytes, terminalLineText } from './terminal.js'
import { traceJson } from './trace.js'

/** How `run` shows an entry's stderr while it runs. */
export interface RunView {
  stderr(chunk: Buffer): void
  done(result: ExecuteResult): Promise<void>
}

/** Plain: the entry's stderr passes through as it arrives (control characters escaped on a terminal). */
class PlainView implements RunView {
  private readonly stream: TerminalStream
  constructor(private readonly out: NodeJS.WriteStream) {
    this.stream = new TerminalStream(out.isTTY === true)
  }
  stderr(chunk: Buffer): void {
    this.out.write(this.stream.push(chunk))
  }
  async done(): Promise<void> {
    const rest = this.stream.end()
    if (rest.length > 0) this.out.write(rest)
  }
}

/** On a terminal (liveTerminal), an ink view (loaded only then); elsewhere plain lines. */
export async function createRunView(skill: SubprocessSkill, out: NodeJS.WriteStream): Promise<RunView> {
  if (!liveTerminal(out)) return new PlainView(out)
  const { InkRunView } = await import('./run-view.js')
  return new InkRunView(skill, out)
}

/**
 * What `run` says on stderr besides the entry's output, one line each: the ones `say` passes on
 * without their newline (it escapes them for a terminal), the others whole (`tty`: escaped).
 */
export const runWarning = {
  /** A class the LLM is never offered (without --role: the REST gate's verdict, said ahead). */
  notOffered: (skillClass: string) =>
    `notice: ${skillClass} skills are never offered to the LLM; through the REST API ${skillClass === 'dangerous' ? 'every role is refused' : 'only admin and user roles may run it'} (replay with --role).`,
  /** The args pre-check, given up: */
  protoKey: 'warning: the schema names a property "__proto__", which ajv cannot check; args not validated',
  uncompiled: (error: string) => `warning: the schema does not compile (${error}); args not validated`,
  overtime: (ms: number) =>
    `warning: the schema's patterns took over ${ms} ms on these args (catastrophic backtracking?); args not validated (lint flags such patterns)`,
  /** An env_allow variable whose bytes are not UTF-8. */
  envAltered: (name: string) =>
    `warning: env ${name} is not valid UTF-8: Node passes environment values as text, so the entry gets U+FFFD for its invalid bytes (the manager passes the bytes unchanged)\n`,
  /** The entry's path is not UTF-8. */
  entryAltered: (entry: GoString, tty: boolean) =>
    `warning: the entry path ${terminalLineText(toText(entry), tty)} is not valid UTF-8: Node spawns by a text path, so it cannot run this file as the manager does\n`,
  /** The run did not go into the audit store. */
  notRecorded: (path: string, reason: string, tty: boolean) =>
    `warning: audit store ${terminalLineText(`${path}: ${reason}`, tty)} (run not recorded)\n`,
}

/**
 * The run's outcome for humans: on success the entry's stdout, verbatim when piped and on a
 * terminal with control characters shown escaped, not obeyed; else the executor's error line.
 */
export function writeRunOutcome(
  r: ExecuteResult,
  stdout: NodeJS.WriteStream,
  stderr: NodeJS.WriteStream,
): void {
  if (r.ok) stdout.write(stdout.isTTY ? toBuffer(terminalBytes(fromBuffer(r.stdout), true)) : r.stdout)
  else stderr.write(toBuffer(terminalBytes(`error: ${r.error}\n`, stderr.isTTY === true)))
}

/** What the --json document says besides the result. */
export interface RunJsonFacts {
  /** env_allow variables whose bytes are not UTF-8: the entry got them with U+FFFD instead. */
  envAltered: string[]
  /** The entry's path is not UTF-8: Node could not spawn the file the manager would. */
  entryAltered: boolean
  audit: AuditOutcome
  /** --trace: the effects seen and the class's findings. */
  trace?: { report: TraceReport; findings: EffectFinding[] }
}

const STDOUT_SLOT = '\u0000stdout\u0000'

/**
 * The --json document. The entry's stdout (up to 16 MiB) is escaped and written piece by
 * piece rather than built into one string, to keep peak memory low.
 */
export function writeRunJson(
  out: NodeJS.WritableStream,
  code: number,
  skill: SubprocessSkill,
  r: ExecuteResult,
  { envAltered, entryAltered, audit, trace }: RunJsonFacts,
): void {
  let result: unknown = null
  if (r.ok) {
    try {
      result = JSON.parse(toText(fromBuffer(r.stdout)))
    } catch {}
  }
  let args: unknown = toText(r.params)
  try {
    args = JSON.parse(toText(r.params))
  } catch {}
  const why =
    code === EXIT.ok
      ? null
      : jsonError(
          'run',
          code,
          r.error !== null
            ? toText(r.error)
            : r.timedOut
              ? 'the entry timed out'
              : trace !== undefined && code === 7
                ? `a safe skill changed the host: ${trace.findings.filter((f) => f.severity === 'error').length} finding(s) in trace.findings`
                : `stopped (exit ${code})`,
        )
  const doc = envelope(
    'run',
    code,
    {
      // The skill's result: its stdout parsed as JSON, when it succeeded and stdout is JSON.
      result,
      // The entry's own outcome, as the manager's executor reports it: not the CLI's.
      entry: {
        exit_status: r.exitCode,
        timed_out: r.timedOut,
        // The manager's error text (ExecuteResult.Error), null when it succeeded.
        error: r.error === null ? null : toText(r.error),
        duration_ms: Math.round(r.durationMs * 1000) / 1000,
        stdout: STDOUT_SLOT,
        stderr: toText(fromBuffer(r.stderr)),
      },
      skill: {
        name: toText(skill.key),
        entry: toText(skill.entry),
        class: skill.class,
        timeout_ms: Number(skill.timeoutNs / 1_000_000n),
      },
      args,
      env_altered: envAltered,
      entry_altered: entryAltered,
      audit,
      ...(trace !== undefined ? { trace: traceJson(trace.report, trace.findings) } : {}),
    },
    why,
  )
  const text = `${stringify(doc, 2)}\n`
  const at = text.indexOf(JSON.stringify(STDOUT_SLOT))
  out.write(text.slice(0, at + 1))
  writeJsonStringBody(out, r.stdout)
  out.write(text.slice(at + JSON.stringify(STDOUT_SLOT).length - 1))
}

/**
 * Writes the escaped body of a JSON string holding `buf` decoded as UTF-8 (one U+FFFD per
 * invalid byte, as Go's encoder writes it), 1 MiB at a time.
 */
function writeJsonStringBody(out: NodeJS.WritableStream, buf: Buffer): void {
  const piece = 1024 * 1024
  let start = 0
  while (start < buf.length) {
    let end = Math.min(start + piece, buf.length)
    // Cut before a UTF-8 continuation byte, so each piece decodes as the whole would.
    while (end < buf.length && end > start && (buf[end] & 0xc0) === 0x80) end--
    if (end === start) end = Math.min(start + piece, buf.length)
    out.write(JSON.stringify(toText(fromBuffer(buf.subarray(start, end)))).slice(1, -1))
    start = end
  }
}
