/**
 * One audit row as `audit tail` shows it, whichever table it came from: `skill_executions`
 * (every run through REST, the LLM bridge, or `ongrid-skill run`'s local store) or, with
 * `--llm`, `chat_tool_calls` joined to its message and session.
 */
import type { Db, DbRow } from './db.js'
import { parseSqliteTime } from './time.js'
import { parseWallTime } from './zone.js'

/**
 * ok | error | timeout, and pending for an LLM tool call still running. For skill_executions it
 * derives from `error`: empty → ok; containing the executor's `: timed out after ` → timeout;
 * else error. For chat_tool_calls it is the `status` column, with `success` said as ok.
 */
export type Status = 'ok' | 'error' | 'timeout' | 'pending'

/** The executor's timeout text: `subprocess skill <key>: timed out after <duration>`. */
export const TIMEOUT_MARK = ': timed out after '

export interface AuditRow {
  /** skill_executions: the autoincrement id; chat_tool_calls: the uuid. */
  id: bigint | string
  skill: string
  /** safe | mutating | …; null for tool calls (the table has no class). */
  class: string | null
  /** skill_executions.caller_id; for tool calls the session's user_id (null when unlinked). */
  callerId: bigint | null
  /** skill_executions.caller_role; null for tool calls. */
  callerRole: string | null
  /** skill_executions.edge_id; chat_tool_calls.device_id. */
  edgeId: bigint | null
  params: string | null
  result: string | null
  error: string | null
  startedNs: bigint | null
  finishedNs: bigint | null
  status: Status
  /** Tool calls only. */
  llm?: { sessionId: string | null; messageId: string | null; llmCallId: string | null }
}

export function executionStatus(error: string | null): Status {
  if (error === null || error === '') return 'ok'
  return error.includes(TIMEOUT_MARK) ? 'timeout' : 'error'
}

export function toolCallStatus(status: string): Status {
  return status === 'success' ? 'ok' : status === 'error' || status === 'timeout' ? status : 'pending'
}

export function big(v: unknown): bigint | null {
  if (v === null || v === undefined) return null
  if (typeof v === 'bigint') return v
  if (typeof v === 'number') return Number.isInteger(v) ? BigInt(v) : null
  if (typeof v === 'string' && /^-?\d+$/.test(v)) return BigInt(v)
  return null
}

export function str(v: unknown): string | null {
  if (v === null || v === undefined) return null
  if (typeof v === 'string') return v
  if (Buffer.isBuffer(v)) return v.toString('utf8')
  return String(v)
}

/** A stored time → ns since the epoch: SQLite text with its offset, MySQL wall clock in the DSN's loc. */
export function storedTime(db: Db, v: unknown): bigint | null {
  const s = str(v)
  if (s === null) return null
  return db.dialect === 'sqlite' ? parseSqliteTime(s) : parseWallTime(s, db.zone)
}

export function executionAuditRow(db: Db, r: DbRow): AuditRow {
  const error = str(r.error)
  return {
    id: big(r.id) ?? 0n,
    skill: str(r.skill_key) ?? '',
    class: str(r.class),
    callerId: big(r.caller_id),
    callerRole: str(r.caller_role),
    edgeId: big(r.edge_id),
    params: str(r.params_json),
    result: str(r.result_json),
    error,
    startedNs: storedTime(db, r.started_at),
    finishedNs: storedTime(db, r.finished_at),
    status: executionStatus(error),
  }
}

export function toolCallRow(db: Db, r: DbRow): AuditRow {
  return {
    id: str(r.id) ?? '',
    skill: str(r.tool_name) ?? '',
    class: null,
    callerId: big(r.user_id),
    callerRole: null,
    edgeId: big(r.device_id),
    params: str(r.arguments_json),
    result: str(r.result_json),
    error: str(r.error),
    startedNs: storedTime(db, r.started_at),
    finishedNs: storedTime(db, r.ended_at),
    status: toolCallStatus(str(r.status) ?? ''),
    llm: { sessionId: str(r.session_id), messageId: str(r.message_id), llmCallId: str(r.llm_call_id) },
  }
}
