/**
 * A read-only connection to where the audit rows are, behind one small interface. The drivers
 * (node:sqlite, mysql2) are imported here, lazily, only for the source in use.
 */
import { closeSync, constants, existsSync, fstatSync, openSync, readFileSync, statSync } from 'node:fs'
import { basename, dirname } from 'node:path'
import { checkOwnFile } from '../user-dirs.js'
import type { Dialect } from './ddl.js'
import type { MysqlTarget, Source } from './dsn.js'
import { AuditError, mysqlFailure, sqliteFailure } from './errors.js'
import { openSqliteFile, StoreError } from './local-store.js'
import type { Database, Statement } from './sqlite.js'
import type { Zone } from './zone.js'

/** A row as the driver returns it: integers as bigint (SQLite) or decimal strings (MySQL BIGINT). */
export type DbRow = Record<string, unknown>

export interface Db {
  readonly dialect: Dialect
  /** How DATETIME wall clocks are read (MySQL); SQLite times carry their offset. */
  readonly zone: Zone
  /** Runs one read query. `table` names the table it reads first, for error messages. */
  all(sql: string, params: readonly unknown[], table: string): Promise<DbRow[]>
  /** Closes at once (a MySQL socket is destroyed, not drained); never throws; idempotent. */
  close(): void
}

/** How long a locked SQLite file is waited for before saying so. */
export const SQLITE_LOCK_WAIT_MS = 3000

/** How long one MySQL query may go without an answer before the connection is given up as lost. */
export const MYSQL_QUERY_TIMEOUT_MS = 15_000

/** Opens the source; `signal` abandons a connection still being made (its socket destroyed). */
export async function openDb(source: Source, signal?: AbortSignal): Promise<Db> {
  return source.kind === 'sqlite' ? openSqlite(source.path, source.local) : openMysql(source.target, signal)
}

/**
 * Opens a SQLite file read-only (never created, never written: `readonly`, `fileMustExist`). In
 * WAL mode a reader sees every committed transaction and is not blocked by the writer; a file
 * locked by a rollback-journal writer is retried for SQLITE_LOCK_WAIT_MS, then reported.
 */
export async function openSqlite(path: string, local: boolean): Promise<Db> {
  // The default store is read only as `run` writes it: in a dir of this user's own, the file
  // theirs and no one else's to write (another user's planted rows are never shown as yours).
  // A `sqlite:PATH` is the user's own choice, read as given.
  if (local) checkOwnFile(dirname(path), basename(path))
  if (!existsSync(path)) {
    throw new AuditError(
      local
        ? `no local audit store at ${path} yet: \`ongrid-skill run\` writes it (or choose a source with --db)`
        : `no SQLite file at ${path}`,
    )
  }
  if (statSync(path).isDirectory()) throw new AuditError(`${path} is a directory, not a SQLite file`)
  // SQLite's open(2) of a FIFO (or a terminal) blocks the main thread, and with it every signal.
  if (!isRegularFile(path)) throw new AuditError(`${path} is not a regular file, not a SQLite file`)
  let db: Database
  try {
    // timeout: SQLite's own busy wait, kept short so the event loop (Ctrl-C) stays responsive;
    // longer waits are the async retries in all().
    db = await openSqliteFile(path, { readonly: true, timeout: 50 })
  } catch (e) {
    if (e instanceof StoreError) throw new AuditError(e.message)
    throw sqliteFailure(e, path, 'skill_executions')
  }
  const statements = new Map<string, Statement>()
  let closed = false
  return {
    dialect: 'sqlite',
    zone: 'UTC',
    async all(sql, params, table) {
      const deadline = Date.now() + SQLITE_LOCK_WAIT_MS
      for (;;) {
        try {
          let st = statements.get(sql)
          if (!st) {
            st = db.prepare(sql)
            st.safeIntegers(true)
            statements.set(sql, st)
          }
          return st.all(...params) as DbRow[]
        } catch (e) {
          const err = sqliteFailure(e, path, table)
          if (!err.transient || closed || Date.now() >= deadline) throw new AuditError(err.message)
          await new Promise((r) => setTimeout(r, 50))
        }
      }
    },
    close() {
      if (closed) return
      closed = true
      try {
        db.close()
      } catch {}
    },
  }
}

/**
 * Is `path` a regular file? Opened without blocking (O_NONBLOCK: a FIFO with no writer does not
 * wait for one) and asked with fstat, so what is asked about is what was opened.
 */
function isRegularFile(path: string): boolean {
  let fd: number
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY)
  } catch {
    // Unreadable: SQLite's own open says why.
    return true
  }
  try {
    return fstatSync(fd).isFile()
  } finally {
    closeSync(fd)
  }
}

/**
 * The CAs a TLS connection trusts: undefined (Node's default) unless NODE_EXTRA_CA_CERTS names a
 * file. bin/run.js keeps that variable from Node's startup (see there), so Node's default does
 * not hold those certificates: they are added here, to Node's bundled roots, as Node would.
 */
export function trustedCas(env: NodeJS.ProcessEnv, roots: readonly string[]): string[] | undefined {
  const file = env.NODE_EXTRA_CA_CERTS
  if (file === undefined || file === '') return undefined
  try {
    return [...roots, readFileSync(file, 'utf8')]
  } catch {
    // Node, too, goes on with its own roots when the file cannot be read.
    return undefined
  }
}

/**
 * Connects to MySQL with mysql2: DATETIMEs as strings (read in the DSN's `loc`), BIGINTs as
 * decimal strings (uint64 ids stay exact), utf8mb4. One connection; `close` destroys its socket.
 *
 * Every wait is bounded: the connection, handshake and authentication within the DSN's timeout
 * (5 s by default), each query within MYSQL_QUERY_TIMEOUT_MS. A connection that fails (an error
 * packet from a server that then keeps the socket open, a timeout) or is abandoned through
 * `signal` has its socket destroyed at once, so nothing is left to keep the process alive.
 */
export async function openMysql(t: MysqlTarget, signal?: AbortSignal): Promise<Db> {
  const mysql = await import('mysql2')
  const ca =
    t.tls === undefined ? undefined : trustedCas(process.env, (await import('node:tls')).rootCertificates)
  const core = mysql.createConnection({
    host: t.host,
    port: t.port,
    socketPath: t.socketPath,
    user: t.user,
    password: t.password,
    database: t.database,
    dateStrings: true,
    supportBigNumbers: true,
    bigNumberStrings: true,
    charset: 'UTF8MB4_GENERAL_CI',
    connectTimeout: t.connectTimeoutMs,
    ssl: t.tls === undefined ? undefined : { rejectUnauthorized: t.tls === true, ca },
  })
  let lost: AuditError | null = null
  // A connection that dies emits 'error' (again after a failed handshake, at times); without a
  // listener that would crash the process. An idle one that dies is said at the next query.
  core.on('error', (e: unknown) => {
    lost = mysqlFailure(e, t, 'skill_executions')
  })
  try {
    await new Promise<void>((resolve, reject) => {
      const onAbort = () => reject(new AuditError(`connection to MySQL at ${t.address} abandoned`, true))
      if (signal?.aborted) onAbort()
      signal?.addEventListener('abort', onAbort, { once: true })
      core.once('connect', () => {
        signal?.removeEventListener('abort', onAbort)
        resolve()
      })
      core.once('error', (e) => {
        signal?.removeEventListener('abort', onAbort)
        reject(e)
      })
    })
  } catch (e) {
    destroy(core)
    throw mysqlFailure(e, t, 'skill_executions')
  }
  const conn = core.promise()
  let closed = false
  return {
    dialect: 'mysql',
    zone: t.zone,
    async all(sql, params, table) {
      if (lost) throw lost
      if (closed) throw new AuditError(`connection to MySQL at ${t.address} closed`, true)
      try {
        const [rows] = await conn.query({ sql, values: params as unknown[], timeout: MYSQL_QUERY_TIMEOUT_MS })
        return rows as DbRow[]
      } catch (e) {
        throw mysqlFailure(e, t, table)
      }
    },
    close() {
      if (closed) return
      closed = true
      destroy(core)
    },
  }
}

/**
 * Ends a mysql2 connection at once. Its own destroy() only half-closes the socket (end(): a FIN
 * sent, the socket kept until the server closes its side), and a server that does not would
 * keep the process alive: the socket itself is destroyed too.
 */
function destroy(core: import('mysql2').Connection): void {
  try {
    core.destroy()
  } catch {}
  try {
    ;(core as unknown as { stream?: import('node:net').Socket }).stream?.destroy()
  } catch {}
}
