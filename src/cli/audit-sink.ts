import {
  type AuditOutcome,
  defaultAuditPath,
  type ExecutionRow,
  insertExecution,
  openLocalStore,
  retryBusy,
  type StoreWait,
} from '../core/audit/local-store.js'
import type { Database } from '../core/audit/sqlite.js'
import { errorLine } from '../core/errors.js'
import { userDir } from '../core/user-dirs.js'

/**
 * The local audit store `run`, `test --audit` and `mcp` append their rows to (rows made by
 * `executionRow`, core/audit/local-store.ts). Opening or writing never fails a run: a store that
 * cannot be opened, or a row that cannot be written, is a reason in one line (`AuditOutcome`),
 * which each command says in its own way.
 */
export class AuditSink {
  private constructor(
    /** Where the store is: --audit-db, else the default path. */
    readonly path: string,
    private readonly db: Database | null,
    /** Why the store could not be opened (one line), or null when it is open. */
    readonly failure: string | null,
  ) {}

  /**
   * Opens (creating if needed) the store at `path` (default: defaultAuditPath, in a dir that must
   * be this user's own: core/user-dirs.ts), a lock waited for within `wait`.
   */
  static async open(path: string | undefined, wait?: StoreWait): Promise<AuditSink> {
    const at = path ?? defaultAuditPath()
    try {
      // The rows hold args and outputs: never in a dir another user made or may write.
      if (path === undefined) userDir('state')
      return new AuditSink(at, await openLocalStore(at, wait), null)
    } catch (e) {
      return new AuditSink(at, null, errorLine(e))
    }
  }

  /** Appends a row at once (SQLite's busy timeout waits on a lock, blocking). */
  append(row: ExecutionRow): AuditOutcome {
    if (this.db === null) return this.refused()
    const db = this.db
    try {
      return { recorded: true, path: this.path, id: insertExecution(db, row) }
    } catch (e) {
      return { recorded: false, path: this.path, reason: errorLine(e) }
    }
  }

  /** Appends a row, a lock waited for on timers within `wait` (the event loop stays free). */
  async appendWaiting(row: ExecutionRow, wait: StoreWait): Promise<AuditOutcome> {
    if (this.db === null) return this.refused()
    const db = this.db
    try {
      db.pragma('busy_timeout = 0')
      return { recorded: true, path: this.path, id: await retryBusy(() => insertExecution(db, row), wait) }
    } catch (e) {
      return { recorded: false, path: this.path, reason: errorLine(e) }
    }
  }

  close(): void {
    this.db?.close()
  }

  private refused(): AuditOutcome {
    return { recorded: false, path: this.path, reason: this.failure ?? 'not open' }
  }
}
