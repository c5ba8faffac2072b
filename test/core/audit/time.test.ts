import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { parseSqliteTime, sqliteTime } from '../../../src/core/audit/time.js'
import { formatWallTime, offsetMinutes, parseWallTime, parseZone } from '../../../src/core/audit/zone.js'

const ns = (iso: string, extraNs = 0n) => BigInt(Date.parse(iso)) * 1_000_000n + extraNs

describe('parseSqliteTime', () => {
  test('reads back what the manager’s SQLite driver writes, to the nanosecond', () => {
    for (const t of [
      ns('2026-05-01T12:34:56.123Z', 456_789n),
      ns('2026-05-01T12:34:56Z'),
      ns('1999-12-31T23:59:59.5Z'),
      ns('2026-05-01T00:00:00.000Z', 1n),
    ]) {
      assert.equal(parseSqliteTime(sqliteTime(t)), t, sqliteTime(t))
    }
  })

  test('offsets, T and Z, and no offset (UTC)', () => {
    const want = ns('2026-05-01T12:34:56.5Z')
    assert.equal(parseSqliteTime('2026-05-01 14:34:56.5+02:00'), want)
    assert.equal(parseSqliteTime('2026-05-01 07:04:56.5-05:30'), want)
    assert.equal(parseSqliteTime('2026-05-01T12:34:56.5Z'), want)
    assert.equal(parseSqliteTime('2026-05-01 12:34:56.5'), want)
  })

  test('anything else is null', () => {
    for (const s of ['', 'yesterday', '2026-05-01', '2026-05-01 12:34', '1714566896']) {
      assert.equal(parseSqliteTime(s), null, s)
    }
  })
})

describe('MySQL wall clocks in a loc', () => {
  test('UTC', () => {
    assert.equal(parseWallTime('2026-05-01 12:34:56.789', 'UTC'), ns('2026-05-01T12:34:56.789Z'))
    assert.equal(parseWallTime('2026-05-01 12:34:56', 'UTC'), ns('2026-05-01T12:34:56Z'))
    assert.equal(formatWallTime(ns('2026-05-01T12:34:56.789Z', 999n), 'UTC'), '2026-05-01 12:34:56.789')
    assert.equal(parseWallTime('not a time', 'UTC'), null)
  })

  test('an IANA zone, both sides of a DST change', () => {
    const ny = parseZone('America/New_York')
    assert.ok(ny !== null && typeof ny === 'object')
    if (ny === null) return
    // EST (UTC−5) in January, EDT (UTC−4) in July.
    assert.equal(parseWallTime('2026-01-15 07:00:00.000', ny), ns('2026-01-15T12:00:00Z'))
    assert.equal(parseWallTime('2026-07-15 08:00:00.250', ny), ns('2026-07-15T12:00:00.250Z'))
    assert.equal(formatWallTime(ns('2026-07-15T12:00:00.250Z'), ny), '2026-07-15 08:00:00.250')
    assert.equal(offsetMinutes(Date.parse('2026-01-15T12:00:00Z'), ny), -300)
    const sh = parseZone('Asia/Shanghai')
    assert.ok(sh !== null)
    if (sh === null) return
    assert.equal(parseWallTime('2026-05-01 20:34:56.123', sh), ns('2026-05-01T12:34:56.123Z'))
  })

  test('Local is this process’s zone', () => {
    const t = ns('2026-05-01T12:34:56.123Z')
    assert.equal(parseWallTime(formatWallTime(t, 'Local'), 'Local'), t)
  })

  test('zone names as time.LoadLocation takes them', () => {
    assert.equal(parseZone(''), 'UTC')
    assert.equal(parseZone('UTC'), 'UTC')
    assert.equal(parseZone('Local'), 'Local')
    assert.equal(parseZone('Nowhere/Special'), null)
  })
})
