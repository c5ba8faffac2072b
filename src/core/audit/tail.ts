/**
 * `audit tail`: the last rows, then (with follow) every new row once, across reconnects.
 * The follow algorithms are in follow.ts; this file runs them against a database, retries lost
 * connections with backoff, and stops at once when `signal` aborts.
 */
import { statSync } from 'node:fs'
import { setTimeout as sleep } from 'node:timers/promises'
import { type Db, openDb } from './db.js'
import { describeSource, type Source } from './dsn.js'
import { AuditError } from './errors.js'
import { IdFollower, WindowFollower } from './follow.js'
import type { AuditRow } from './row.js'
import { Executions, type Filter, LOOKBACK_IDS, ToolCalls } from './tables.js'

export interface TailOptions {
  source: Source
  /** chat_tool_calls instead of skill_executions. */
  llm: boolean
  filter: Filter
  /** History rows before following; null: all rows (with a --since filter). */
  limit: number | null
  follow: boolean
  /** Time between polls while following. */
  pollMs: number
  /** How long a missing id (an open transaction) is waited for; the tool-call window. */
  gapWaitMs: number
  signal: AbortSignal
  /** Prints one row. */
  row(r: AuditRow): void
  /** The rows of one batch were printed: push them out. */
  flush(): void
  /** One line for stderr (connection lost, reconnected). */
  notice(line: string): void
  /** Injectable for tests. */
  open?: (s: Source, signal?: AbortSignal) => Promise<Db>
  now?: () => number
}

/** Rows fetched per poll; a full batch is followed by another poll at once. */
export const POLL_BATCH = 1000
const BACKOFF_MIN_MS = 100
const BACKOFF_MAX_MS = 2000
/** While reconnecting, say so again this often. */
const STILL_RETRYING_MS = 30_000

class Aborted extends Error {}

/** Resolves when done (or aborted); rejects with an AuditError the command prints in one line. */
export async function tail(o: TailOptions): Promise<void> {
  const open = o.open ?? openDb
  const now = o.now ?? Date.now
  const conn = new Connection(o, open, now)
  try {
    await conn.connect()
    if (o.llm) await tailToolCalls(o, conn, now)
    else await tailExecutions(o, conn, now)
  } catch (e) {
    if (e instanceof Aborted || o.signal.aborted) return
    throw e
  } finally {
    conn.close()
  }
}

async function tailExecutions(o: TailOptions, c: Connection, now: () => number): Promise<void> {
  const t = new Executions(o.filter, await c.db())
  await c.once((db) => t.check(db))
  const max = await c.once((db) => t.maxId(db))
  if (!o.follow) {
    for (const r of await c.once((db) => t.history(db, max, o.limit))) o.row(r)
    o.flush()
    return
  }
  let f = new IdFollower(max, o.gapWaitMs)
  const from = max > LOOKBACK_IDS ? max - LOOKBACK_IDS : 0n
  f.seed(from, await c.once((db) => t.presentIds(db, from, max)), now())
  // Rows of the history still awaited by the follower committed after the lookback: the
  // follow prints them (once), not the history.
  for (const r of await c.once((db) => t.history(db, max, o.limit))) if (!f.awaited(r.id as bigint)) o.row(r)
  o.flush()
  c.onPause = (ms) => f.pause(ms)
  // A SQLite file is followed by name, as `tail -F` does: removed, it is waited for; created
  // anew (a cleanup, a new machine image), the new file is followed from its first row.
  const file = o.source.kind === 'sqlite' ? new FileWatch(o.source.path) : null
  let t2 = t
  for (;;) {
    await c.sleep(o.pollMs)
    if (file !== null) {
      const change = file.check()
      if (change === 'gone') {
        if (!file.saidGone) o.notice(`${file.path} was removed; waiting for it to be created again`)
        file.saidGone = true
        continue
      }
      if (change === 'new') {
        c.close()
        try {
          await c.connect()
          const fresh = new Executions(o.filter, await c.db())
          await c.once((db) => fresh.check(db))
          t2 = fresh
        } catch (e) {
          // Not ready yet (created, its table not yet): tried again at the next poll.
          if (!(e instanceof AuditError)) throw e
          c.close()
          continue
        }
        file.accept()
        o.notice(`${file.path} was created anew: following the new file from its first row`)
        f = new IdFollower(0n, o.gapWaitMs)
      }
    }
    for (;;) {
      const { spans, above } = f.ranges()
      const rows = await c.retrying((db) => t2.poll(db, spans, above, POLL_BATCH))
      const at = now()
      for (const p of rows) if (f.accept(p.id, at) && p.match) o.row(p.row)
      o.flush()
      if (rows.length < POLL_BATCH) break
    }
    f.expire(now())
  }
}

async function tailToolCalls(o: TailOptions, c: Connection, now: () => number): Promise<void> {
  const wantPending = o.filter.status === 'pending'
  const t = new ToolCalls(o.filter, await c.db(), wantPending)
  await c.once((db) => t.check(db))
  if (!o.follow) {
    for (const r of await c.once((db) => t.history(db, undefined, o.limit))) o.row(r.row)
    o.flush()
    return
  }
  const newest = await c.once((db) => t.newest(db))
  const w = new WindowFollower(newest?.ns ?? null, BigInt(o.gapWaitMs) * 1_000_000n, wantPending)
  if (newest) {
    const at = now()
    for (const r of await c.once((db) => t.window(db, w.bound(), [], true))) w.seed(r, at)
    for (const r of await c.once((db) => t.history(db, newest.raw, o.limit))) {
      if (w.fromHistory(r.id, r.createdNs)) o.row(r.row)
    }
    o.flush()
  }
  c.onPause = (ms) => w.pause(ms)
  for (;;) {
    await c.sleep(o.pollMs)
    const bound = w.bound()
    const rows = await c.retrying((db) => t.window(db, bound, w.pendingIds()))
    const at = now()
    for (const r of rows) if (w.accept(r, at) && r.match) o.row(r.row)
    o.flush()
    w.prune(now())
  }
}

/** A file's identity (device and inode) between polls: is it still the file that was opened? */
class FileWatch {
  private ident: string | null
  private pending: string | null = null
  saidGone = false

  constructor(readonly path: string) {
    this.ident = identOf(path)
  }

  /** 'same', 'gone' (no file at the path), or 'new' (another file there: accept() once opened). */
  check(): 'same' | 'gone' | 'new' {
    const now = identOf(this.path)
    if (now === null) {
      this.ident = null // whatever comes back is another file, even one given the same inode
      return 'gone'
    }
    if (now === this.ident) return 'same'
    this.pending = now
    return 'new'
  }

  accept(): void {
    this.ident = this.pending
    this.saidGone = false
  }
}

function identOf(path: string): string | null {
  try {
    const st = statSync(path, { bigint: true })
    return `${st.dev}:${st.ino}:${st.birthtimeNs}`
  } catch {
    return null
  }
}

/**
 * The connection, reopened after a transient failure while following: reported once on stderr
 * (`connection lost (…), retrying…`), retried with backoff (100 ms doubling to 2 s), reported
 * again on success. A non-transient failure (credentials, missing table…) ends the tail.
 */
class Connection {
  private current: Db | null = null
  onPause: (ms: number) => void = () => {}

  constructor(
    private readonly o: TailOptions,
    private readonly open: (s: Source, signal?: AbortSignal) => Promise<Db>,
    private readonly now: () => number,
  ) {}

  async connect(): Promise<Db> {
    const db = await this.guard(this.open(this.o.source, this.o.signal), (d) => d.close())
    if (this.o.signal.aborted) {
      db.close()
      throw new Aborted()
    }
    this.current = db
    return db
  }

  async db(): Promise<Db> {
    return this.current ?? this.connect()
  }

  /** One attempt; any failure ends the tail (history and startup). */
  async once<T>(fn: (db: Db) => Promise<T>): Promise<T> {
    return this.guard(fn(await this.db()))
  }

  /** Retries transient failures, reconnecting, until it succeeds, fails for good, or is aborted. */
  async retrying<T>(fn: (db: Db) => Promise<T>): Promise<T> {
    try {
      return await this.once(fn)
    } catch (e) {
      if (!(e instanceof AuditError) || !e.transient) throw e
      const lostAt = this.now()
      this.o.notice(`connection lost (${e.reason}), retrying…`)
      this.close()
      let delay = BACKOFF_MIN_MS
      let said = lostAt
      for (;;) {
        await this.sleep(delay)
        delay = Math.min(delay * 2, BACKOFF_MAX_MS)
        try {
          await this.connect()
          const result = await this.once(fn)
          this.onPause(this.now() - lostAt)
          this.o.notice(`reconnected to ${describeSource(this.o.source)}`)
          return result
        } catch (e2) {
          if (!(e2 instanceof AuditError) || !e2.transient) throw e2
          this.close()
          if (this.now() - said >= STILL_RETRYING_MS) {
            said = this.now()
            this.o.notice(`still retrying (${e2.reason})`)
          }
        }
      }
    }
  }

  async sleep(ms: number): Promise<void> {
    try {
      await sleep(ms, undefined, { signal: this.o.signal })
    } catch {
      throw new Aborted()
    }
  }

  close(): void {
    this.current?.close()
    this.current = null
  }

  /** `p`, or Aborted as soon as the signal aborts (closing the connection, so sockets die). */
  private guard<T>(p: Promise<T>, dispose?: (v: T) => void): Promise<T> {
    const signal = this.o.signal
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => {
        this.close()
        reject(new Aborted())
      }
      if (signal.aborted) onAbort()
      else signal.addEventListener('abort', onAbort, { once: true })
      p.then(
        (v) => {
          signal.removeEventListener('abort', onAbort)
          if (signal.aborted) dispose?.(v)
          else resolve(v)
        },
        (e) => {
          signal.removeEventListener('abort', onAbort)
          reject(e)
        },
      )
    })
  }
}
