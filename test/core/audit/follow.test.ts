import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { seeded } from '../../../src/core/agent/score.js'
import { IdFollower, MAX_QUERY_RANGES, WindowFollower } from '../../../src/core/audit/follow.js'

describe('IdFollower', () => {
  test('rows above the cursor are new; a jump opens a gap', () => {
    const f = new IdFollower(10n, 5000)
    assert.equal(f.accept(11n, 0), true)
    assert.equal(f.accept(14n, 0), true)
    assert.deepEqual(f.gaps, [{ lo: 12n, hi: 13n, since: 0 }])
    assert.deepEqual(f.ranges(), { spans: [[12n, 13n]], above: 14n })
    assert.equal(f.accept(14n, 1), false, 'seen before')
    assert.equal(f.accept(9n, 1), false, 'below the cursor, in no gap')
  })

  test('a late commit inside a gap is printed once, and splits the gap', () => {
    const f = new IdFollower(0n, 5000)
    f.accept(10n, 100)
    assert.equal(f.accept(5n, 200), true)
    assert.deepEqual(f.gaps, [
      { lo: 1n, hi: 4n, since: 100 },
      { lo: 6n, hi: 9n, since: 100 },
    ])
    assert.equal(f.accept(5n, 300), false)
    assert.equal(f.accept(1n, 300), true)
    assert.equal(f.accept(9n, 300), true)
    assert.deepEqual(f.gaps, [
      { lo: 2n, hi: 4n, since: 100 },
      { lo: 6n, hi: 8n, since: 100 },
    ])
  })

  test('gaps are given up after the wait; the wait stops while the database is away', () => {
    const f = new IdFollower(0n, 1000)
    f.accept(3n, 0)
    assert.equal(f.expire(999), 0n)
    f.pause(500)
    assert.equal(f.expire(1499), 0n)
    assert.equal(f.expire(1500), 2n)
    assert.deepEqual(f.gaps, [])
    assert.equal(f.accept(1n, 1600), false, 'a given-up id is not printed')
  })

  test('seed: ids missing below the newest at startup are awaited', () => {
    const f = new IdFollower(10n, 1000)
    f.seed(0n, [1n, 2n, 5n, 9n], 7)
    assert.deepEqual(
      f.gaps.map((g) => [g.lo, g.hi, g.since]),
      [
        [3n, 4n, 7],
        [6n, 8n, 7],
        [10n, 10n, 7],
      ],
    )
    assert.equal(f.awaited(4n), true)
    assert.equal(f.awaited(5n), false)
    assert.equal(f.awaited(11n), false)
  })

  test('many gaps are queried as fewer ranges; seen ids inside them are not printed again', () => {
    const f = new IdFollower(0n, 60_000)
    for (let i = 1n; i <= 400n; i += 2n) f.accept(i, 0)
    assert.equal(f.gaps.length, 199)
    const { spans } = f.ranges()
    assert.ok(spans.length <= MAX_QUERY_RANGES)
    assert.deepEqual(spans[0][0], 2n)
    assert.deepEqual(spans[spans.length - 1][1], 398n)
    assert.equal(f.accept(3n, 1), false)
    assert.equal(f.accept(4n, 1), true)
  })

  test('simulation: out-of-order commits, rollbacks, filters — every committed row exactly once, within one poll', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const r = seeded(seed)
      const waitMs = 3000
      const pollMs = 250
      // Transactions: ids allocated in insert order, visible from their commit time on.
      const rows: { id: bigint; insertAt: number; commitAt: number; rolledBack: boolean; match: boolean }[] =
        []
      let t = 0
      for (let id = 1n; id <= 600n; id++) {
        t += r() * 20
        const hold = r() < 0.2 ? r() * 2000 : r() * 10
        rows.push({ id, insertAt: t, commitAt: t + hold, rolledBack: r() < 0.05, match: r() < 0.7 })
      }
      // Some rows already committed when the tail starts at `start`.
      const start = 1500
      const visible = (at: number) => rows.filter((x) => !x.rolledBack && x.commitAt <= at)
      let maxAtStart = 0n
      for (const x of visible(start)) if (x.id > maxAtStart) maxAtStart = x.id
      const f = new IdFollower(maxAtStart, waitMs)
      f.seed(
        0n,
        visible(start).map((x) => x.id),
        start,
      )
      const printed = new Map<bigint, number>()
      // History: what was visible at start (and is not awaited) is "shown" at start.
      for (const x of visible(start)) if (!f.awaited(x.id) && x.id <= maxAtStart) printed.set(x.id, start)
      for (let now = start + pollMs; now < t + 5000; now += pollMs) {
        const { spans, above } = f.ranges()
        const got = visible(now)
          .filter((x) => x.id > above || spans.some(([lo, hi]) => x.id >= lo && x.id <= hi))
          .sort((a, b) => (a.id < b.id ? -1 : 1))
        for (const x of got) {
          if (f.accept(x.id, now)) {
            assert.ok(!printed.has(x.id), `seed ${seed}: ${x.id} printed twice`)
            printed.set(x.id, now)
          }
        }
        f.expire(now)
      }
      for (const x of rows) {
        if (x.rolledBack) {
          assert.ok(!printed.has(x.id), `seed ${seed}: rolled-back ${x.id} printed`)
          continue
        }
        const at = printed.get(x.id)
        assert.ok(at !== undefined, `seed ${seed}: ${x.id} (committed at ${x.commitAt}) never printed`)
        if (x.commitAt > start) assert.ok(at - x.commitAt <= pollMs, `seed ${seed}: ${x.id} late`)
      }
    }
  })
})

describe('WindowFollower', () => {
  const S = 1_000_000_000n

  test('a call is printed once, when first seen finished', () => {
    const w = new WindowFollower(100n * S, 5n * S, false)
    assert.equal(w.bound(), 95n * S)
    assert.equal(w.accept({ id: 'a', createdNs: 101n * S, pending: true }, 0), false)
    assert.deepEqual(w.pendingIds(), ['a'])
    assert.equal(w.accept({ id: 'a', createdNs: 101n * S, pending: false }, 1), true)
    assert.equal(w.accept({ id: 'a', createdNs: 101n * S, pending: false }, 2), false)
    assert.deepEqual(w.pendingIds(), [])
    assert.equal(w.bound(), 96n * S)
  })

  test('--status pending: printed when first seen pending, never again', () => {
    const w = new WindowFollower(null, 5n * S, true)
    assert.equal(w.bound(), null)
    assert.equal(w.accept({ id: 'a', createdNs: 1n, pending: true }, 0), true)
    assert.equal(w.accept({ id: 'a', createdNs: 1n, pending: false }, 1), false)
  })

  test('history rows: finished in the window → history; awaited or newer than the window read → the follow', () => {
    const w = new WindowFollower(100n * S, 5n * S, false)
    w.seed({ id: 'done', createdNs: 99n * S, pending: false }, 0)
    w.seed({ id: 'running', createdNs: 80n * S, pending: true }, 0)
    assert.equal(w.fromHistory('done', 99n * S), true)
    assert.equal(w.fromHistory('running', 80n * S), false)
    assert.equal(w.fromHistory('old', 50n * S), true)
    assert.equal(w.fromHistory('committed-since', 99n * S), false)
    assert.deepEqual(w.pendingIds(), ['running'])
  })

  test('prune forgets ids out of the window and pending calls after 10 minutes', () => {
    const w = new WindowFollower(100n * S, 5n * S, false)
    w.accept({ id: 'a', createdNs: 96n * S, pending: false }, 0)
    w.accept({ id: 'p', createdNs: 96n * S, pending: true }, 0)
    w.accept({ id: 'b', createdNs: 110n * S, pending: false }, 0)
    w.prune(1)
    assert.equal(w.fromHistory('a', 96n * S), true, 'pruned: older than the window, so history again')
    w.prune(10 * 60_000)
    assert.deepEqual(w.pendingIds(), [])
  })
})

describe('IdFollower: edges', () => {
  test('the cursor moves with rows above it only', () => {
    const f = new IdFollower(5n, 1000)
    assert.equal(f.cursor, 5n)
    f.accept(9n, 0)
    assert.equal(f.cursor, 9n)
    f.accept(7n, 0)
    assert.equal(f.cursor, 9n)
  })

  test('seed: ids at or below `from`, repeated, or above the cursor are ignored; the cursor itself is seen', () => {
    const f = new IdFollower(10n, 1000)
    f.seed(2n, [1n, 2n, 4n, 4n, 10n, 12n], 3)
    assert.deepEqual(
      f.gaps.map((g) => [g.lo, g.hi]),
      [
        [3n, 3n],
        [5n, 9n],
      ],
    )
    const g = new IdFollower(10n, 1000)
    g.seed(7n, [8n, 9n, 10n], 0)
    assert.deepEqual(g.gaps, [])
  })

  test('exactly MAX_QUERY_RANGES gaps are asked for one by one; more are merged evenly', () => {
    const f = new IdFollower(0n, 60_000)
    for (let i = 2n; i <= 2n * BigInt(MAX_QUERY_RANGES); i += 2n) f.accept(i, 0)
    assert.equal(f.gaps.length, MAX_QUERY_RANGES)
    assert.deepEqual(
      f.ranges().spans,
      f.gaps.map((g) => [g.lo, g.hi]),
    )
    // 128 gaps (1, 3, …, 255): two per range, 64 ranges.
    const h = new IdFollower(0n, 60_000)
    for (let i = 2n; i <= 256n; i += 2n) h.accept(i, 0)
    assert.equal(h.gaps.length, 128)
    const r = h.ranges()
    assert.equal(r.spans.length, 64)
    assert.deepEqual(r.spans[0], [1n, 3n])
    assert.deepEqual(r.spans[63], [253n, 255n])
    assert.equal(r.above, 256n)
    // 199 gaps: four per range, 50 ranges.
    const k = new IdFollower(0n, 60_000)
    for (let i = 1n; i <= 400n; i += 2n) k.accept(i, 0)
    const s = k.ranges().spans
    assert.equal(s.length, 50)
    assert.deepEqual(s[1], [10n, 16n])
    assert.deepEqual(s[49], [394n, 398n])
  })
})

describe('WindowFollower: edges', () => {
  const S = 1_000_000_000n

  test('the newest created_at only moves forward; a first row at the epoch counts', () => {
    const w = new WindowFollower(null, 5n * S, false)
    w.accept({ id: 'z', createdNs: 0n, pending: false }, 0)
    assert.equal(w.bound(), -5n * S)
    w.accept({ id: 'a', createdNs: 100n * S, pending: false }, 0)
    w.accept({ id: 'b', createdNs: 90n * S, pending: false }, 0)
    assert.equal(w.bound(), 95n * S)
  })

  test('history with an empty table: every row is history; a row at the bound belongs to the follow', () => {
    assert.equal(new WindowFollower(null, 5n * S, false).fromHistory('x', 1n), true)
    const w = new WindowFollower(100n * S, 5n * S, false)
    assert.equal(w.fromHistory('edge', 95n * S), false)
    assert.equal(w.fromHistory('older', 95n * S - 1n), true)
  })

  test('prune forgets seen ids below the bound, not at it', () => {
    const w = new WindowFollower(100n * S, 5n * S, false)
    w.accept({ id: 'below', createdNs: 95n * S - 1n, pending: false }, 0)
    w.accept({ id: 'at', createdNs: 95n * S, pending: false }, 0)
    w.prune(0)
    // A forgotten id read again is new; one still kept is not.
    assert.equal(w.accept({ id: 'below', createdNs: 95n * S - 1n, pending: false }, 1), true)
    assert.equal(w.accept({ id: 'at', createdNs: 95n * S, pending: false }, 1), false)
    const empty = new WindowFollower(null, 5n * S, false)
    empty.seed({ id: 's', createdNs: -1n, pending: false }, 0)
    empty.prune(0)
    assert.equal(empty.accept({ id: 's', createdNs: -1n, pending: false }, 0), false)
  })

  test('a pending call is waited for 10 minutes from when it was first seen, paused time not counted', () => {
    const w = new WindowFollower(100n * S, 5n * S, false)
    w.accept({ id: 'p', createdNs: 100n * S, pending: true }, 1000)
    w.accept({ id: 'p', createdNs: 100n * S, pending: true }, 5 * 60_000)
    w.prune(1000 + 10 * 60_000 - 1)
    assert.deepEqual(w.pendingIds(), ['p'])
    w.prune(1000 + 10 * 60_000)
    assert.deepEqual(w.pendingIds(), [])

    const q = new WindowFollower(100n * S, 5n * S, false)
    q.accept({ id: 'q', createdNs: 100n * S, pending: true }, 1000)
    q.pause(2000)
    q.prune(3000 + 10 * 60_000 - 1)
    assert.deepEqual(q.pendingIds(), ['q'])
    q.prune(3000 + 10 * 60_000)
    assert.deepEqual(q.pendingIds(), [])
  })
})
