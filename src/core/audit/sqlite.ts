/**
 * SQLite through Node's own `node:sqlite` (22.13+ without a flag; docs/decisions.md, "Node lines"):
 * no native addon to build or download, so the package installs without a compiler and the single
 * executable carries its SQLite. This module is the one place that touches `node:sqlite`: it
 * loads the module without letting its ExperimentalWarning reach the user's stderr, gives errors
 * the SQLite result-code names the callers test (`SQLITE_BUSY`, `SQLITE_CANTOPEN`, …), and offers
 * the few calls the audit store and `audit tail` make.
 */

/** The parts of `node:sqlite` used here (typed locally: @types/node may predate the module). */
interface NodeStatement {
  run(...params: unknown[]): { changes: number | bigint; lastInsertRowid: number | bigint }
  all(...params: unknown[]): Record<string, unknown>[]
  get(...params: unknown[]): Record<string, unknown> | undefined
  setReadBigInts(on: boolean): void
}
interface NodeDatabase {
  exec(sql: string): void
  prepare(sql: string): NodeStatement
  close(): void
}
interface NodeSqlite {
  DatabaseSync: new (
    path: string,
    options?: { readOnly?: boolean; timeout?: number; enableForeignKeyConstraints?: boolean },
  ) => NodeDatabase
}

/** The primary result codes (sqlite3.h) callers tell apart. */
const CODE_NAMES: Record<number, string> = {
  1: 'SQLITE_ERROR',
  5: 'SQLITE_BUSY',
  6: 'SQLITE_LOCKED',
  8: 'SQLITE_READONLY',
  10: 'SQLITE_IOERR',
  11: 'SQLITE_CORRUPT',
  13: 'SQLITE_FULL',
  14: 'SQLITE_CANTOPEN',
  23: 'SQLITE_AUTH',
  26: 'SQLITE_NOTADB',
}

/** Thrown when this Node has no usable `node:sqlite`. */
export class SqliteUnavailable extends Error {}

let loaded: NodeSqlite | undefined

/**
 * `node:sqlite`, loaded once. Node 22 and 24 emit an ExperimentalWarning as the module loads:
 * that one warning is dropped (it says nothing a user can act on); any other goes through.
 */
function nodeSqlite(): NodeSqlite {
  if (loaded !== undefined) return loaded
  const emit = process.emitWarning
  process.emitWarning = function (this: unknown, warning: string | Error, ...rest: unknown[]) {
    const text = typeof warning === 'string' ? warning : warning.message
    if (/^SQLite is an experimental feature/.test(text)) return
    return (emit as (...a: unknown[]) => void).call(process, warning, ...rest)
  } as typeof process.emitWarning
  let mod: NodeSqlite | undefined
  try {
    mod = process.getBuiltinModule?.('node:sqlite') as NodeSqlite | undefined
  } catch {
    mod = undefined
  } finally {
    process.emitWarning = emit
  }
  if (mod === undefined || typeof mod.DatabaseSync !== 'function') {
    throw new SqliteUnavailable(
      `SQLite needs Node 22.13 or later (node:sqlite); this is Node ${process.version}: upgrade Node, or use the single executable`,
    )
  }
  loaded = mod
  return mod
}

/** A node:sqlite error with `code` set to the SQLite result code's name, as callers test it. */
function named(e: unknown): unknown {
  const err = e as { code?: unknown; errcode?: unknown }
  if (
    err !== null &&
    typeof err === 'object' &&
    err.code === 'ERR_SQLITE_ERROR' &&
    typeof err.errcode === 'number'
  ) {
    const primary = err.errcode & 0xff
    try {
      Object.defineProperty(err, 'code', {
        value: CODE_NAMES[primary] ?? `SQLITE_${primary}`,
        configurable: true,
      })
    } catch {}
  }
  return e
}

function guard<T>(fn: () => T): T {
  try {
    return fn()
  } catch (e) {
    throw named(e)
  }
}

export interface OpenOptions {
  /** Opened read-only; the file is then never created. */
  readonly?: boolean
  /** SQLite's busy wait in ms (0: a lock is reported at once). */
  timeout?: number
}

/** One prepared statement. */
export class Statement {
  constructor(private readonly st: NodeStatement) {}
  /** Integers read as bigint (exact past 2^53), as the audit rows' ids may need. */
  safeIntegers(on = true): this {
    this.st.setReadBigInts(on)
    return this
  }
  run(...params: unknown[]): { changes: number; lastInsertRowid: number | bigint } {
    const r = guard(() => this.st.run(...params))
    return { changes: Number(r.changes), lastInsertRowid: r.lastInsertRowid }
  }
  all(...params: unknown[]): Record<string, unknown>[] {
    return guard(() => this.st.all(...params))
  }
  get(...params: unknown[]): Record<string, unknown> | undefined {
    return guard(() => this.st.get(...params))
  }
}

/** One connection to a SQLite file. */
export class Database {
  private readonly db: NodeDatabase
  private open = true
  constructor(path: string, options: OpenOptions = {}) {
    const { DatabaseSync } = nodeSqlite()
    this.db = guard(() => new DatabaseSync(path, { readOnly: options.readonly === true }))
    // A pragma rather than the constructor's `timeout`, which 22.13 to 22.15 do not have.
    this.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(options.timeout ?? 5000))}`)
  }
  exec(sql: string): void {
    guard(() => this.db.exec(sql))
  }
  prepare(sql: string): Statement {
    return new Statement(guard(() => this.db.prepare(sql)))
  }
  /** `PRAGMA text`: the first column of the first row (or undefined). */
  pragma(text: string): unknown {
    const row = guard(() => this.db.prepare(`PRAGMA ${text}`).get())
    return row === undefined ? undefined : Object.values(row)[0]
  }
  get isOpen(): boolean {
    return this.open
  }
  /** Idempotent. */
  close(): void {
    if (!this.open) return
    this.open = false
    guard(() => this.db.close())
  }
}
