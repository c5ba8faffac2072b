/**
 * The queries `audit tail` runs, for both dialects. Every query is read-only and bounded by the
 * primary key where it can be: the history is `id <= max ORDER BY id DESC LIMIT n` (an index
 * range read of n rows, never a scan of the table), a follow poll a range read per gap plus
 * `id > cursor`. (chat_tool_calls has no index but its uuid key and message_id: the --llm
 * queries read the whole table; the speed budget is for skill_executions.) Ids are inlined as
 * integer literals (they are bigints we hold; MySQL would compare a string parameter as a
 * double); strings go as parameters.
 */
import type { Db, DbRow } from './db.js'
import {
  type AuditRow,
  big,
  executionAuditRow,
  type Status,
  storedTime,
  str,
  TIMEOUT_MARK,
  toolCallRow,
} from './row.js'
import { sqliteTime } from './time.js'
import { formatWallTime } from './zone.js'

export interface Filter {
  skill?: string
  status?: Status
  sinceNs?: bigint
  callerRole?: string
  edge?: bigint
}

/** A time as a literal comparable with the stored ones (SQLite: UTC text; MySQL: wall clock in loc). */
export function timeLiteral(db: Db, ns: bigint): string {
  return db.dialect === 'sqlite' ? sqliteTime(ns) : formatWallTime(ns, db.zone, 3)
}

interface Sql {
  sql: string
  params: unknown[]
}

function and(parts: Sql[]): Sql {
  const p = parts.filter((x) => x.sql !== '')
  return { sql: p.map((x) => `(${x.sql})`).join(' AND '), params: p.flatMap((x) => x.params) }
}

/** `CASE WHEN f THEN expr END`, or expr itself without a filter. */
function when(f: Sql, expr: string, as: string): Sql {
  return f.sql === ''
    ? { sql: `${expr} AS ${as}`, params: [] }
    : { sql: `CASE WHEN ${f.sql} THEN ${expr} END AS ${as}`, params: f.params }
}

const lit = (n: bigint) => n.toString()

// ---- skill_executions --------------------------------------------------------------------

const EXEC_COLS =
  'id, skill_key, edge_id, caller_id, caller_role, class, params_json, result_json, error, started_at, finished_at'
/** How many ids below the newest are checked for open transactions when a follow starts. */
export const LOOKBACK_IDS = 10_000n

export interface PolledRow {
  id: bigint
  match: boolean
  row: AuditRow
}

export class Executions {
  static readonly table = 'skill_executions'
  private readonly where: Sql

  constructor(filter: Filter, db: Db) {
    const parts: Sql[] = []
    if (filter.skill !== undefined) parts.push({ sql: 'skill_key = ?', params: [filter.skill] })
    if (filter.edge !== undefined) parts.push({ sql: `edge_id = ${lit(filter.edge)}`, params: [] })
    if (filter.callerRole !== undefined) parts.push({ sql: 'caller_role = ?', params: [filter.callerRole] })
    if (filter.sinceNs !== undefined) {
      parts.push({ sql: 'started_at >= ?', params: [timeLiteral(db, filter.sinceNs)] })
    }
    const like = `%${TIMEOUT_MARK}%`
    if (filter.status === 'ok') parts.push({ sql: "error IS NULL OR error = ''", params: [] })
    else if (filter.status === 'timeout') parts.push({ sql: 'error LIKE ?', params: [like] })
    else if (filter.status === 'error')
      parts.push({ sql: "error <> '' AND error NOT LIKE ?", params: [like] })
    else if (filter.status === 'pending') parts.push({ sql: '1 = 0', params: [] })
    this.where = and(parts)
  }

  /** Fails (table or column missing) before anything is printed. */
  async check(db: Db): Promise<void> {
    await db.all(`SELECT ${EXEC_COLS} FROM skill_executions WHERE 1 = 0`, [], Executions.table)
  }

  /** The newest id, 0 when the table is empty. */
  async maxId(db: Db): Promise<bigint> {
    const rows = await db.all('SELECT MAX(id) AS m FROM skill_executions', [], Executions.table)
    return big(rows[0]?.m) ?? 0n
  }

  /** The ids visible in (from, to], in order. */
  async presentIds(db: Db, from: bigint, to: bigint): Promise<bigint[]> {
    const rows = await db.all(
      `SELECT id FROM skill_executions WHERE id > ${lit(from)} AND id <= ${lit(to)} ORDER BY id`,
      [],
      Executions.table,
    )
    return rows.map((r) => big(r.id) ?? 0n)
  }

  /** The SQL of `history` (for EXPLAIN QUERY PLAN in tests). */
  historySql(maxId: bigint, limit: number | null): Sql {
    const w = and([{ sql: `id <= ${lit(maxId)}`, params: [] }, this.where])
    return limit === null
      ? { sql: `SELECT ${EXEC_COLS} FROM skill_executions WHERE ${w.sql} ORDER BY id`, params: w.params }
      : {
          sql: `SELECT ${EXEC_COLS} FROM skill_executions WHERE ${w.sql} ORDER BY id DESC LIMIT ${limit}`,
          params: w.params,
        }
  }

  /** The last `limit` matching rows with id ≤ maxId (all of them when null), oldest first. */
  async history(db: Db, maxId: bigint, limit: number | null): Promise<AuditRow[]> {
    if (maxId <= 0n || limit === 0) return []
    const q = this.historySql(maxId, limit)
    const rows = (await db.all(q.sql, q.params, Executions.table)).map((r) => executionAuditRow(db, r))
    return limit === null ? rows : rows.reverse()
  }

  /**
   * The SQL of `poll`: one SELECT per range, joined with UNION ALL (the ranges are disjoint), so
   * each is a primary-key range read; SQLite would answer `a OR b … ORDER BY id` with a scan.
   */
  pollSql(spans: readonly [bigint, bigint][], above: bigint, limit: number): Sql {
    const f = this.where
    const cols = [
      f.sql === ''
        ? { sql: '1 AS m', params: [] }
        : { sql: `CASE WHEN ${f.sql} THEN 1 ELSE 0 END AS m`, params: f.params },
      { sql: 'id, skill_key, edge_id, caller_id, caller_role, class, started_at, finished_at', params: [] },
      when(f, 'params_json', 'params_json'),
      when(f, 'result_json', 'result_json'),
      when(f, 'error', 'error'),
    ]
    const select = `SELECT ${cols.map((c) => c.sql).join(', ')} FROM skill_executions WHERE `
    const colParams = cols.flatMap((c) => c.params)
    const ranges = [...spans.map(([lo, hi]) => `id BETWEEN ${lit(lo)} AND ${lit(hi)}`), `id > ${lit(above)}`]
    return {
      sql: `${ranges.map((r) => select + r).join(' UNION ALL ')} ORDER BY id LIMIT ${limit}`,
      params: ranges.flatMap(() => colParams),
    }
  }

  /** Every row in the spans or above `above` (visible now), in id order, with whether it matches. */
  async poll(db: Db, spans: readonly [bigint, bigint][], above: bigint, limit: number): Promise<PolledRow[]> {
    const q = this.pollSql(spans, above, limit)
    return (await db.all(q.sql, q.params, Executions.table)).map((r) => ({
      id: big(r.id) ?? 0n,
      match: Number(r.m) === 1,
      row: executionAuditRow(db, r),
    }))
  }
}

// ---- chat_tool_calls ---------------------------------------------------------------------

const TC = 'chat_tool_calls'
const TC_FROM = `${TC} LEFT JOIN chat_messages ON chat_messages.id = ${TC}.message_id LEFT JOIN chat_sessions ON chat_sessions.id = chat_messages.session_id`
const TC_COLS = [
  'id',
  'message_id',
  'tool_name',
  'arguments_json',
  'result_json',
  'status',
  'error',
  'started_at',
  'ended_at',
  'device_id',
  'llm_call_id',
  'created_at',
]
  .map((c) => `${TC}.${c}`)
  .concat(['chat_messages.session_id', 'chat_sessions.user_id'])
  .join(', ')

export interface PolledCall {
  id: string
  createdNs: bigint
  pending: boolean
  match: boolean
  row: AuditRow
}

export class ToolCalls {
  static readonly table = TC
  private readonly where: Sql

  constructor(
    filter: Filter,
    db: Db,
    /** --status pending: the history shows pending calls (otherwise finished ones only). */
    private readonly wantPending: boolean,
  ) {
    const parts: Sql[] = []
    if (filter.skill !== undefined) parts.push({ sql: `${TC}.tool_name = ?`, params: [filter.skill] })
    if (filter.edge !== undefined) parts.push({ sql: `${TC}.device_id = ${lit(filter.edge)}`, params: [] })
    if (filter.sinceNs !== undefined) {
      parts.push({ sql: `${TC}.created_at >= ?`, params: [timeLiteral(db, filter.sinceNs)] })
    }
    if (filter.status !== undefined) {
      parts.push({ sql: `${TC}.status = ?`, params: [filter.status === 'ok' ? 'success' : filter.status] })
    }
    this.where = and(parts)
  }

  async check(db: Db): Promise<void> {
    await db.all(`SELECT ${TC_COLS} FROM ${TC_FROM} WHERE 1 = 0`, [], TC)
  }

  /** The newest created_at, raw (to compare with as stored) and as ns; null when empty. */
  async newest(db: Db): Promise<{ raw: unknown; ns: bigint } | null> {
    const rows = await db.all(`SELECT MAX(created_at) AS m FROM ${TC}`, [], TC)
    const raw = rows[0]?.m
    const ns = storedTime(db, raw)
    return raw === null || raw === undefined || ns === null ? null : { raw, ns }
  }

  /** The last `limit` calls (finished ones, or pending ones with --status pending), oldest first. */
  async history(db: Db, newestRaw: unknown, limit: number | null): Promise<PolledCall[]> {
    if (limit === 0) return []
    const parts: Sql[] = [
      { sql: `${TC}.status ${this.wantPending ? '=' : '<>'} 'pending'`, params: [] },
      this.where,
    ]
    if (newestRaw !== undefined) parts.unshift({ sql: `${TC}.created_at <= ?`, params: [newestRaw] })
    const w = and(parts)
    const order = limit === null ? 'ASC' : 'DESC'
    const rows = await db.all(
      `SELECT 1 AS m, ${TC_COLS} FROM ${TC_FROM} WHERE ${w.sql} ORDER BY ${TC}.created_at ${order}, ${TC}.id ${order}${limit === null ? '' : ` LIMIT ${limit}`}`,
      w.params,
      TC,
    )
    const calls = rows.map((r) => this.call(db, r))
    return limit === null ? calls : calls.reverse()
  }

  /**
   * The calls created at or after `boundNs` (all when null), plus the ones in `ids`, plus — with
   * `allPending` — every pending call: in created_at order, with whether each matches the filter.
   */
  async window(
    db: Db,
    boundNs: bigint | null,
    ids: readonly string[],
    allPending = false,
  ): Promise<PolledCall[]> {
    const conds: string[] = []
    const params: unknown[] = []
    if (boundNs === null) conds.push('1 = 1')
    else {
      conds.push(`${TC}.created_at >= ?`)
      params.push(timeLiteral(db, boundNs))
    }
    if (ids.length > 0) {
      conds.push(`${TC}.id IN (${ids.map(() => '?').join(', ')})`)
      params.push(...ids)
    }
    if (allPending) conds.push(`${TC}.status = 'pending'`)
    const f = this.where
    const m = f.sql === '' ? '1 AS m' : `CASE WHEN ${f.sql} THEN 1 ELSE 0 END AS m`
    const rows = await db.all(
      `SELECT ${m}, ${TC_COLS} FROM ${TC_FROM} WHERE ${conds.join(' OR ')} ORDER BY ${TC}.created_at, ${TC}.id`,
      [...f.params, ...params],
      TC,
    )
    return rows.map((r) => this.call(db, r))
  }

  private call(db: Db, r: DbRow): PolledCall {
    const row = toolCallRow(db, r)
    return {
      id: row.id as string,
      createdNs: storedTime(db, r.created_at) ?? 0n,
      pending: str(r.status) === 'pending',
      match: Number(r.m) === 1,
      row,
    }
  }
}
