import { closeSync, constants, mkdirSync, openSync, statSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, join } from 'node:path'
import type { ExecuteResult } from '../executor/executor.js'
import { type GoString, toText } from '../go/gostring.js'
import { errnoFromNode } from '../go/os/errors.js'
import { nowNs } from '../go/time/format.js'
import { APP_DIR, xdgBase } from '../user-dirs.js'
import type { Database, OpenOptions } from './sqlite.js'
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

/** A run the CLI made (`run`, `test --audit`, an `mcp` tool call), as its audit row is built. */
export interface LocalExecution {
  skill: { key: GoString; class: string }
  /** Who called, where the manager has the caller's role: `local` (run, test) or `mcp`. */
  callerRole: 'local' | 'mcp'
  /**
   * The params as the caller gave them (the manager's in.Params), as text: '' when none, not the
   * `{}` the executor sends.
   */
  params: string
  ok: boolean
  /** The entry's stdout (bytes, or text already decoded as UTF-8): the row's result on success. */
  stdout: Buffer | string | undefined
  /** The executor's error (text), null when the entry succeeded. */
  error: string | null
  startedNs: bigint
  finishedNs: bigint
}

/** An executor's result as executionRow takes it: its outcome, the error as text. */
export function executedOutcome(r: ExecuteResult): Pick<LocalExecution, 'ok' | 'stdout' | 'error'> {
  return { ok: r.ok, stdout: r.stdout, error: r.error === null ? null : toText(r.error) }
}

/**
 * The one `skill_executions` row of a local run, as the manager's audit sink fills it: no edge
 * and no caller (0), the entry's stdout as the result only on success (UTF-8 decoded), '' for
 * an absent result or error.
 */
export function executionRow(x: LocalExecution): ExecutionRow {
  const stdout =
    x.stdout === undefined ? '' : typeof x.stdout === 'string' ? x.stdout : x.stdout.toString('utf8')
  return {
    skillKey: toText(x.skill.key),
    edgeId: 0,
    callerId: 0,
    callerRole: x.callerRole,
    class: x.skill.class,
    paramsJson: x.params,
    resultJson: x.ok ? stdout : '',
    error: x.error ?? '',
    startedNs: x.startedNs,
    finishedNs: x.finishedNs,
  }
}

/** Whether a run went into the local audit store (`run --json`'s `audit`), and why not. */
export type AuditOutcome =
  | { recorded: true; path: string; id: number }
  | { recorded: false; path?: string; reason: string }

/**
 * $XDG_STATE_HOME/ongrid-skill/audit.db (XDG's default state dir is ~/.local/state; a relative
 * $XDG_STATE_HOME is ignored, as the spec says): the dir `run` checks with userDir('state').
 */
export function defaultAuditPath(env: NodeJS.ProcessEnv = process.env): string {
  const state = xdgBase('state', env) ?? join(homedir(), '.local', 'state')
  return join(state, APP_DIR, 'audit.db')
}

/**
 * A SQLite file opened through node:sqlite (`./sqlite.js`, loaded on first use). A Node without
 * it is said in one line (StoreError), never as a missing module.
 */
export async function openSqliteFile(path: string, options: OpenOptions): Promise<Database> {
  const { Database: Sqlite, SqliteUnavailable } = await import('./sqlite.js')
  try {
    return new Sqlite(path, options)
  } catch (e) {
    if (e instanceof SqliteUnavailable) throw new StoreError(e.message)
    throw e
  }
}

/** How a store is waited for: never on the main thread, never past `deadline()`. */
export interface StoreWait {
  /** Stops the waiting at once (the store is then given up). */
  signal?: AbortSignal
  /** The time (Date.now() ms) after which a locked store is given up; Infinity to keep trying. */
  deadline?: () => number
}

/** The busy timeout a store opened by `openLocalStore` keeps for synchronous callers. */
export const BUSY_TIMEOUT_MS = 5000

/**
 * Opens (creating if needed) a local audit store in WAL mode, so that parallel runs append
 * without losing rows. SQLite is loaded only here.
 *
 * The store holds params, results and stderr tails: the dirs it creates are 0700 and the file
 * 0600 (SQLite gives its -wal and -shm files the file's mode). Opening never blocks the event
 * loop on a lock: SQLite's own busy wait is off while the store is set up, a locked store is
 * retried between timers until `wait.deadline`, and the returned connection then gets
 * BUSY_TIMEOUT_MS for callers that insert synchronously.
 */
export async function openLocalStore(path: string, wait: StoreWait = {}): Promise<Database> {
  makeStoreDir(dirname(path))
  createPrivate(path)
  const db = await openSqliteFile(path, { timeout: 0 })
  try {
    await retryBusy(() => {
      if (db.pragma('journal_mode') !== 'wal') db.pragma('journal_mode = WAL')
      db.exec(SKILL_EXECUTIONS_DDL)
    }, wait)
  } catch (e) {
    db.close()
    throw e
  }
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`)
  return db
}

/**
 * mkdir -p, each dir it creates 0700. Node's recursive mkdir loops for ever where a dir
 * cannot be created below one that exists (`/proc/self/x/y`); this fails there, with the
 * path and the errno code.
 */
export function makeStoreDir(dir: string): void {
  const missing: string[] = []
  let at = dir
  for (;;) {
    try {
      if (!statSync(at).isDirectory()) throw new StoreError(`${at}: not a directory`)
      break
    } catch (e) {
      if (e instanceof StoreError) throw e
      const code = (e as NodeJS.ErrnoException).code
      if (code !== 'ENOENT') throw new StoreError(`stat ${at}: ${why(e)}`)
      const up = dirname(at)
      if (up === at) break
      missing.push(at)
      at = up
    }
  }
  for (const d of missing.reverse()) {
    try {
      mkdirSync(d, { mode: 0o700 })
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code
      if (code === 'EEXIST') continue // another run made it meanwhile
      throw new StoreError(`mkdir ${d}: ${why(e)}`)
    }
  }
}

/** Creates the store file 0600 when it does not exist yet (SQLite would make it 0644). */
function createPrivate(path: string): void {
  try {
    closeSync(
      openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600),
    )
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    if (code !== 'EEXIST') throw new StoreError(`open ${path}: ${why(e)}`)
  }
  // There already: a directory would be SQLite's "unable to open database file".
  if (statSync(path, { throwIfNoEntry: false })?.isDirectory()) {
    throw new StoreError(`open ${path}: is a directory`)
  }
}

/** An errno as Go says it (`no such file or directory`). */
function why(e: unknown): string {
  return (e as NodeJS.ErrnoException).code !== undefined
    ? toText(errnoFromNode(e).error())
    : (e as Error).message
}

/** A store that cannot be opened or written, said in one line. */
export class StoreError extends Error {}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(done, ms)
    function done() {
      clearTimeout(t)
      signal?.removeEventListener('abort', done)
      resolve()
    }
    signal?.addEventListener('abort', done, { once: true })
  })

/**
 * Runs `fn` (with SQLite's busy wait off) until it is not refused by a lock, waiting between
 * tries on timers, never past `wait.deadline()` nor after `wait.signal` is aborted.
 */
export async function retryBusy<T>(fn: () => T, wait: StoreWait = {}): Promise<T> {
  let pause = 5
  for (;;) {
    try {
      return fn()
    } catch (e) {
      const code = (e as { code?: unknown }).code
      if (typeof code !== 'string' || !/^SQLITE_(BUSY|LOCKED)/.test(code)) throw e
      if (wait.signal?.aborted) throw new StoreError('locked by another process (interrupted)')
      const left = (wait.deadline?.() ?? Number.POSITIVE_INFINITY) - Date.now()
      if (left <= 0) throw new StoreError('locked by another process')
      await sleep(Math.min(pause, left), wait.signal)
      pause = Math.min(pause * 2, 100)
    }
  }
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
