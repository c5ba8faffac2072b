/**
 * `--trace`, `--sandbox` and `--allow-net` of `run` and `test`: the tools checked (one line and
 * exit 6 when strace or bubblewrap is missing or cannot run), a traced launch per run, and the
 * report held to the skill's class. Loaded only when one of them is given.
 */

import type { ExecuteResult } from '../core/executor/executor.js'
import type { GoString } from '../core/go/gostring.js'
import type { EffectFinding } from '../core/trace/class-check.js'
import { holdToClass } from '../core/trace/class-check.js'
import {
  asStartFailure,
  findTools,
  probeSandbox,
  startTrace,
  type TraceReport,
  type TraceSession,
  type TraceTools,
} from '../core/trace/strace-run.js'
import { UserError } from './errors.js'

/** Exit codes the trace adds to `run` and `test`. */
export const TRACE_EXIT = {
  /** strace (or bubblewrap for --sandbox) is not installed or cannot run here. */
  untraceable: 6,
  /** `run --trace`: a safe skill changed the host (the entry itself succeeded). */
  classViolated: 7,
} as const

export interface TraceFlags {
  trace: boolean
  sandbox: boolean
  allowNet: boolean
}

/** The flags as given: --sandbox implies --trace; --allow-net needs --sandbox. */
export function traceFlags(flags: { trace?: boolean; sandbox?: boolean; 'allow-net'?: boolean }): TraceFlags {
  const sandbox = flags.sandbox === true
  const allowNet = flags['allow-net'] === true
  if (allowNet && !sandbox)
    throw new UserError('--allow-net: only with --sandbox (without it the run has the network anyway)')
  return { trace: flags.trace === true || sandbox, sandbox, allowNet }
}

/** strace (and a working bwrap for --sandbox), or a one-line error with exit 6 (`by`: who asked). */
export function traceTools(f: TraceFlags, by?: string): TraceTools {
  const found = findTools(f.sandbox, process.env.PATH, by)
  if (!found.ok) throw new UserError(found.line, TRACE_EXIT.untraceable)
  if (f.sandbox && found.tools.bwrap !== null) {
    const why = probeSandbox(found.tools.bwrap, f.allowNet)
    if (why !== null) throw new UserError(why, TRACE_EXIT.untraceable)
  }
  return found.tools
}

export interface Traced {
  report: TraceReport
  findings: EffectFinding[]
}

/** A session for one run of `entry` (its path as text). */
export function traceSession(tools: TraceTools, f: TraceFlags, entry: string): TraceSession {
  return startTrace(tools, entry, { sandbox: f.sandbox, allowNet: f.allowNet })
}

/**
 * The trace read and held to the class, and the run's result (as the manager reports an entry
 * that could not be started, when strace could not exec it).
 */
export function finishTrace(
  session: TraceSession,
  skill: { key: GoString; entry: GoString; class: string },
  result: ExecuteResult,
): Traced & { result: ExecuteResult } {
  const report = session.finish()
  return {
    report,
    findings: holdToClass(skill.class, report.effects),
    result: asStartFailure(result, report, skill.key, skill.entry),
  }
}
