/**
 * How `audit tail` prints a row: one JSON line with stable keys (`--json`), or one line for
 * humans — local time, skill, class, caller, duration, status, the error's first line —
 * coloured when stdout is a colour terminal and NO_COLOR is not set (chalk is loaded only then).
 */
import type { AuditRow, Status } from '../core/audit/row.js'
import { firstLine } from '../core/errors.js'
import { formatRFC3339Nano } from '../core/go/time/format.js'
import { colorWanted, forcedLevel } from './color.js'

/**
 * One JSON line. Keys, always all present and in this order: id, skill, class, caller_id,
 * caller_role, edge_id, params, result, error, started_at, finished_at, duration_ms, status;
 * with --llm also session_id, message_id, llm_call_id. `params`/`result` are the stored JSON
 * when it is valid (compacted, numbers kept digit for digit), else the stored text as a string.
 * Times are RFC 3339 in UTC with the stored precision; duration_ms is finished − started.
 */
export function jsonLine(r: AuditRow): string {
  const fields: [string, string][] = [
    ['id', typeof r.id === 'bigint' ? r.id.toString() : JSON.stringify(r.id)],
    ['skill', JSON.stringify(r.skill)],
    ['class', JSON.stringify(r.class)],
    ['caller_id', bigJson(r.callerId)],
    ['caller_role', JSON.stringify(r.callerRole)],
    ['edge_id', bigJson(r.edgeId)],
    ['params', embedJson(r.params)],
    ['result', embedJson(r.result)],
    ['error', JSON.stringify(r.error)],
    ['started_at', JSON.stringify(r.startedNs === null ? null : formatRFC3339Nano(r.startedNs, 0))],
    ['finished_at', JSON.stringify(r.finishedNs === null ? null : formatRFC3339Nano(r.finishedNs, 0))],
    ['duration_ms', JSON.stringify(durationMs(r))],
    ['status', JSON.stringify(r.status)],
  ]
  if (r.llm) {
    fields.push(
      ['session_id', JSON.stringify(r.llm.sessionId)],
      ['message_id', JSON.stringify(r.llm.messageId)],
      ['llm_call_id', JSON.stringify(r.llm.llmCallId)],
    )
  }
  return `{${fields.map(([k, v]) => `"${k}":${v}`).join(',')}}\n`
}

function bigJson(v: bigint | null): string {
  return v === null ? 'null' : v.toString()
}

/** finished − started in ms, to the microsecond; null when either is unknown. */
export function durationMs(r: AuditRow): number | null {
  if (r.startedNs === null || r.finishedNs === null) return null
  return Math.round(Number(r.finishedNs - r.startedNs) / 1000) / 1000
}

/** Valid JSON text, compacted (so the line stays one line); anything else as a JSON string. */
export function embedJson(text: string | null): string {
  if (text === null) return 'null'
  try {
    JSON.parse(text)
  } catch {
    return JSON.stringify(text)
  }
  return compact(text)
}

/** Drops the whitespace between JSON tokens; strings are kept as written. */
function compact(text: string): string {
  let out = ''
  let start = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 0x5c) i++
      else if (c === 0x22) inString = false
    } else if (c === 0x22) inString = true
    else if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) {
      out += text.slice(start, i)
      start = i + 1
    }
  }
  return out + text.slice(start)
}

// ---- for humans --------------------------------------------------------------------------

export interface Painter {
  time(s: string): string
  skill(s: string): string
  status(s: Status, text: string): string
  error(s: Status, text: string): string
}

const PLAIN: Painter = { time: (s) => s, skill: (s) => s, status: (_, t) => t, error: (_, t) => t }

/** Colours for `stream`, as `ui/color.ts` decides; FORCE_COLOR's level, else the terminal's. */
export async function painterFor(
  stream: NodeJS.WriteStream,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Painter> {
  if (!colorWanted(env, stream.isTTY === true)) return PLAIN
  const { Chalk, supportsColor } = await import('chalk')
  const level = forcedLevel(env) ?? (supportsColor ? supportsColor.level : 0)
  if (level === 0) return PLAIN
  const c = new Chalk({ level })
  const byStatus: Record<Status, (s: string) => string> = {
    ok: c.green,
    error: c.red,
    timeout: c.yellow,
    pending: c.cyan,
  }
  return {
    time: c.dim,
    skill: c.bold,
    status: (s, t) => byStatus[s](t),
    error: (s, t) => (s === 'timeout' ? c.yellow(t) : c.red(t)),
  }
}

/**
 * `2026-05-01 14:34:56.123  disk_usage            safe      admin#3 edge=2      1.21s  ok`
 * Time is started_at in the local zone; caller is role#id (user#id for LLM tool calls, whose
 * rows carry the session's user); the error's first line ends the line.
 */
export function humanLine(r: AuditRow, p: Painter = PLAIN, zone = false): string {
  const time =
    r.startedNs === null
      ? '-'.padEnd(zone ? 30 : 23)
      : localTime(r.startedNs) + (zone ? ` ${zoneOf(r.startedNs)}` : '')
  let caller = r.llm
    ? r.callerId === null
      ? '-'
      : `user#${r.callerId}`
    : `${r.callerRole ?? '?'}#${r.callerId ?? '?'}`
  if (r.edgeId !== null && r.edgeId !== 0n) caller += ` edge=${r.edgeId}`
  const cols = [
    p.time(time),
    p.skill(r.skill.padEnd(22)),
    (r.class ?? (r.llm ? 'llm' : '-')).padEnd(9),
    caller.padEnd(18),
    (r.status === 'pending' ? '-' : formatDuration(r)).padStart(8),
    p.status(r.status, r.status.padEnd(7)),
  ]
  const err = r.error === null ? '' : firstLine(r.error)
  let line = cols.join('  ')
  if (err !== '') line += ` ${p.error(r.status, err)}`
  return `${line.trimEnd()}\n`
}

/** The header a terminal gets above the rows (humanLine's columns; `zone`: the time's is shown). */
export function headerLine(p: Painter = PLAIN, zone = false): string {
  const cols = [
    'TIME'.padEnd(zone ? 30 : 23),
    'SKILL'.padEnd(22),
    'CLASS'.padEnd(9),
    'CALLER'.padEnd(18),
    'DURATION'.padStart(8),
    'STATUS  ERROR',
  ]
  return `${p.time(cols.join('  '))}\n`
}

/** The local zone's offset at that time, `+02:00` (`Z` would hide that it is local). */
export function zoneOf(ns: bigint): string {
  const off = -new Date(Number(ns / 1_000_000n)).getTimezoneOffset()
  const a = Math.abs(off)
  return `${off < 0 ? '-' : '+'}${String(Math.floor(a / 60)).padStart(2, '0')}:${String(a % 60).padStart(2, '0')}`
}

/** `2026-05-01 14:34:56.123` in the local zone. */
export function localTime(ns: bigint): string {
  const d = new Date(Number(ns / 1_000_000n))
  const pad = (n: number, w = 2) => String(n).padStart(w, '0')
  return `${pad(d.getFullYear(), 4)}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`
}

/** 0.42ms, 87ms, 1.21s, 2m05s; `-` when a time is missing. */
export function formatDuration(r: AuditRow): string {
  const ms = durationMs(r)
  if (ms === null) return '-'
  if (ms === 0) return '0ms'
  if (ms < 1) return `${ms.toFixed(2)}ms`
  if (ms < 1000) return `${Math.round(ms)}ms`
  if (ms < 60_000) return `${(ms / 1000).toFixed(2)}s`
  const s = Math.round(ms / 1000)
  return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`
}
