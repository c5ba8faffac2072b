import { existsSync, mkdirSync } from 'node:fs'
import { createRequire } from 'node:module'
import { homedir } from 'node:os'
import { dirname, join } from 'node:path'
import type BetterSqlite3 from 'better-sqlite3'
import type { Database } from 'better-sqlite3'
import { nowNs } from '../go/time/format.js'
import { localOffsetMinutes, sqliteTime } from './time.js'

/** The manager's `skill_executions` table, as its ORM creates it on SQLite. */
export const SKILL_EXECUTIONS_DDL = `CREATE TABLE IF NOT EXISTS skill_executions (
  id integer PRIMARY KEY AUTOINCREMENT,
  skill_key text NOT NULL,
  edge_id integer NOT NULL,
  caller_id integer NOT NULL,
  caller_role text NOT NULL,
  class text NOT NULL,
  params_json text NOT NULL,
  result_json text,
  error text,
  started_at datetime NOT NULL,
  finished_at datetime NOT NULL,
  created_at datetime
);
CREATE INDEX IF NOT EXISTS idx_skill_executions_key ON skill_executions(skill_key);
CREATE INDEX IF NOT EXISTS idx_skill_executions_edge ON skill_executions(edge_id);
CREATE INDEX IF NOT EXISTS idx_skill_executions_started ON skill_executions(started_at);`

export interface ExecutionRow {
  skillKey: string
  edgeId: number
  callerId: number
  callerRole: string
  class: string
  paramsJson: string
  resultJson: string
  error: string
  startedNs: bigint
  finishedNs: bigint
}

/** $XDG_STATE_HOME/ongrid-skill/audit.db (XDG's default state dir is ~/.local/state). */
export function defaultAuditPath(env: NodeJS.ProcessEnv = process.env): string {
  const state =
    env.XDG_STATE_HOME && env.XDG_STATE_HOME !== '' ? env.XDG_STATE_HOME : join(homedir(), '.local', 'state')
  return join(state, 'ongrid-skill', 'audit.db')
}

/**
 * better-sqlite3, loaded on first use, with the path of its addon when it sits where the package
 * builds it, which spares the `bindings` package's search of a dozen places.
 */
export async function loadSqlite(): Promise<{
  Sqlite: typeof BetterSqlite3
  nativeBinding: string | undefined
}> {
  const { Database: Sqlite } = await import('./sqlite.js')
  const entry = createRequire(import.meta.url).resolve('better-sqlite3')
  const addon = join(dirname(entry), '..', 'build', 'Release', 'better_sqlite3.node')
  return { Sqlite, nativeBinding: existsSync(addon) ? addon : undefined }
}

/**
 * Opens (creating if needed) a local audit store in WAL mode with a busy timeout, so that
 * parallel runs append without losing rows. better-sqlite3 is loaded only here.
 */
export async function openLocalStore(path: string): Promise<Database> {
  const { Sqlite, nativeBinding } = await loadSqlite()
  mkdirSync(dirname(path), { recursive: true })
  const db = new Sqlite(path, { timeout: 5000, nativeBinding })
  db.pragma('journal_mode = WAL')
  db.pragma('busy_timeout = 5000')
  db.exec(SKILL_EXECUTIONS_DDL)
  return db
}

/**
 * Appends one row, as the manager's audit sink does after a run. Returns its id. `created_at`
 * is the insert time in the local zone (gorm's autoCreateTime: `time.Now().Local()`).
 */
export function insertExecution(db: Database, row: ExecutionRow): number {
  const createdNs = nowNs()
  const info = db
    .prepare(
      `INSERT INTO skill_executions (skill_key, edge_id, caller_id, caller_role, class, params_json, result_json, error, started_at, finished_at, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      row.skillKey,
      row.edgeId,
      row.callerId,
      row.callerRole,
      row.class,
      row.paramsJson,
      row.resultJson,
      row.error,
      sqliteTime(row.startedNs),
      sqliteTime(row.finishedNs),
      sqliteTime(createdNs, localOffsetMinutes(createdNs)),
    )
  return Number(info.lastInsertRowid)
}
