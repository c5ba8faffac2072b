/**
 * Following a table that concurrent transactions append to: each new row printed once, none
 * skipped, although rows become visible in commit order, not id order.
 *
 * ## skill_executions: ids with a gap wait (IdFollower)
 *
 * MySQL allocates an autoincrement id when a row is inserted; the row becomes visible when its
 * transaction commits. So id 7 may be visible while id 6 is not yet, and "everything above the
 * highest id seen" would skip 6 forever. Rolled-back transactions leave ids that never appear.
 *
 * The state is a cursor C and a list of gaps, inclusive id ranges below C, each with the time it
 * was first seen missing:
 *   - every id ≤ C is either seen (printed or filtered out) or inside a gap;
 *   - each poll reads `id > C` and `id BETWEEN lo AND hi` for each gap (primary-key range
 *     reads, joined with UNION ALL), in id order;
 *   - a row above C opens a gap for the ids it jumped over (C+1 … id−1, "missing since now") and
 *     moves C to its id; a row inside a gap splits the gap (the parts keep their time);
 *   - a row neither above C nor in a gap was seen already and is dropped: no duplicates;
 *   - a gap that has stayed empty for the gap wait (default 10 s) is given up: its ids belong to
 *     rolled-back transactions, or to one open longer than the wait (such a row would be missed;
 *     that is the bound, documented in the help).
 * Rows are printed as soon as they are visible: a gap never delays the rows above it. Each row
 * is fetched once (the gaps are true gaps: ids seen but filtered out close them too — the filter
 * is evaluated in the same query, as a column), so the cost of a poll is the new rows plus an
 * index range lookup per gap. While the database cannot be reached the gap clocks stop
 * (`pause`), so an outage does not make a gap expire unobserved.
 *
 * Starting to follow: C = max(id); the ids of the last LOOKBACK ids below it are read, and the
 * missing ones become gaps "since now" — rows of transactions still open when tail started.
 *
 * ## chat_tool_calls: a time window (WindowFollower)
 *
 * Tool calls have uuid ids and no index but the primary key; they are inserted as `pending` and
 * updated once to their final status. The cursor is `created_at` (written by the manager just
 * before the insert): each poll reads the rows created at or after (newest created_at seen −
 * window), plus the pending calls it is waiting for, by id. A call is printed once, when it is
 * first seen finished (or, with --status pending, when first seen pending). Ids seen are kept
 * until they fall out of the window.
 */

/** An inclusive range of ids not seen yet, and when it was first seen missing (ms). */
export interface Gap {
  lo: bigint
  hi: bigint
  since: number
}

/** Above this many gaps, neighbouring gaps are queried as one range (seen ids in it are dropped). */
export const MAX_QUERY_RANGES = 64

export class IdFollower {
  private gapList: Gap[] = []

  constructor(
    private cursorId: bigint,
    private readonly waitMs: number,
  ) {}

  get cursor(): bigint {
    return this.cursorId
  }

  get gaps(): readonly Gap[] {
    return this.gapList
  }

  /** Startup: `present` are the ids seen in (from, cursor]; the others become gaps since `now`. */
  seed(from: bigint, present: readonly bigint[], now: number): void {
    let next = from + 1n
    for (const id of present) {
      if (id < next || id > this.cursorId) continue
      if (id > next) this.gapList.push({ lo: next, hi: id - 1n, since: now })
      next = id + 1n
    }
    if (next <= this.cursorId) this.gapList.push({ lo: next, hi: this.cursorId, since: now })
  }

  /** Whether `id` is still awaited (inside a gap): history rows with such ids are left to the follow. */
  awaited(id: bigint): boolean {
    return this.findGap(id) >= 0
  }

  /** What the next poll asks for: these inclusive ranges, and every id above `above`. */
  ranges(): { spans: [bigint, bigint][]; above: bigint } {
    const g = this.gapList
    if (g.length <= MAX_QUERY_RANGES) return { spans: g.map((x) => [x.lo, x.hi]), above: this.cursorId }
    const spans: [bigint, bigint][] = []
    const per = Math.ceil(g.length / MAX_QUERY_RANGES)
    for (let i = 0; i < g.length; i += per) {
      spans.push([g[i].lo, g[Math.min(i + per, g.length) - 1].hi])
    }
    return { spans, above: this.cursorId }
  }

  /**
   * A row the poll returned (polls return rows in id order). True when it is new: print it (if
   * it matches the filter); false when it was seen before.
   */
  accept(id: bigint, now: number): boolean {
    if (id > this.cursorId) {
      if (id > this.cursorId + 1n) this.gapList.push({ lo: this.cursorId + 1n, hi: id - 1n, since: now })
      this.cursorId = id
      return true
    }
    const i = this.findGap(id)
    if (i < 0) return false
    const g = this.gapList[i]
    const parts: Gap[] = []
    if (g.lo < id) parts.push({ lo: g.lo, hi: id - 1n, since: g.since })
    if (id < g.hi) parts.push({ lo: id + 1n, hi: g.hi, since: g.since })
    this.gapList.splice(i, 1, ...parts)
    return true
  }

  /** Gives up the gaps that have stayed empty for the wait; returns how many ids were given up. */
  expire(now: number): bigint {
    let given = 0n
    this.gapList = this.gapList.filter((g) => {
      if (now - g.since < this.waitMs) return true
      given += g.hi - g.lo + 1n
      return false
    })
    return given
  }

  /** The database could not be watched for `ms`: the gap clocks stop for that long. */
  pause(ms: number): void {
    for (const g of this.gapList) g.since += ms
  }

  private findGap(id: bigint): number {
    let lo = 0
    let hi = this.gapList.length - 1
    while (lo <= hi) {
      const mid = (lo + hi) >> 1
      const g = this.gapList[mid]
      if (id < g.lo) hi = mid - 1
      else if (id > g.hi) lo = mid + 1
      else return mid
    }
    return -1
  }
}

/** How long a pending tool call is waited for (a manager that died mid-call never finishes it). */
export const PENDING_GIVE_UP_MS = 10 * 60_000

export interface WindowRow {
  id: string
  createdNs: bigint
  pending: boolean
}

export class WindowFollower {
  /** Ids already decided (printed or not wanted), with their created_at. */
  private seen = new Map<string, bigint>()
  /** Pending calls waited for, with when they were first seen (ms). */
  private waiting = new Map<string, number>()
  private newest: bigint | null

  constructor(
    newestNs: bigint | null,
    private readonly windowNs: bigint,
    /** --status pending: print calls when first seen pending, not when they finish. */
    private readonly wantPending: boolean,
  ) {
    this.newest = newestNs
  }

  /** created_at ≥ this is read each poll (null: the table was empty, read everything). */
  bound(): bigint | null {
    return this.newest === null ? null : this.newest - this.windowNs
  }

  /** The pending calls to re-read by id. */
  pendingIds(): string[] {
    return [...this.waiting.keys()]
  }

  /** Startup: a row in the window is history, unless pending (then it is waited for). */
  seed(r: WindowRow, now: number): void {
    if (r.pending && !this.wantPending) this.waiting.set(r.id, now)
    else this.seen.set(r.id, r.createdNs)
  }

  /**
   * Whether a history row (read after the startup window) is printed as history: yes when the
   * window saw it finished; no when it is waited for, or newer than the window read (the follow
   * prints those); older rows are history.
   */
  fromHistory(id: string, createdNs: bigint): boolean {
    if (this.seen.has(id)) return true
    if (this.waiting.has(id)) return false
    const b = this.bound()
    return b === null || createdNs < b
  }

  /** A row the poll returned. True: print it now (if it matches the filter). */
  accept(r: WindowRow, now: number): boolean {
    if (this.newest === null || r.createdNs > this.newest) this.newest = r.createdNs
    if (this.seen.has(r.id)) return false
    if (r.pending && !this.wantPending) {
      if (!this.waiting.has(r.id)) this.waiting.set(r.id, now)
      return false
    }
    this.waiting.delete(r.id)
    this.seen.set(r.id, r.createdNs)
    return true
  }

  /** Forgets ids that fell out of the window, and pending calls waited for too long. */
  prune(now: number): void {
    const b = this.bound()
    if (b !== null) for (const [id, c] of this.seen) if (c < b) this.seen.delete(id)
    for (const [id, since] of this.waiting) if (now - since >= PENDING_GIVE_UP_MS) this.waiting.delete(id)
  }

  pause(ms: number): void {
    for (const [id, since] of this.waiting) this.waiting.set(id, since + ms)
  }
}
