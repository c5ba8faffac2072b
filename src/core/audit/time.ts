import { formatRFC3339Nano } from '../go/time/format.js'

/**
 * How the manager's SQLite driver stores a time.Time: `2006-01-02 15:04:05.999999999-07:00`
 * (space separator, trailing zeros of the fraction trimmed, numeric offset — `+00:00`, never Z).
 * The manager writes its own audit times in UTC (the default here); `created_at` is filled by
 * its ORM with the local time (pass the local offset, see `localOffsetMinutes`).
 */
export function sqliteTime(epochNs: bigint, offsetMinutes = 0): string {
  const s = formatRFC3339Nano(epochNs, offsetMinutes)
  return `${s.slice(0, 10)} ${s.slice(11).replace(/Z$/, '+00:00')}`
}

/** The process's zone offset at that instant, in minutes east of UTC. */
export function localOffsetMinutes(epochNs: bigint): number {
  const off = -new Date(Number(epochNs / 1_000_000n)).getTimezoneOffset()
  return off === 0 ? 0 : off
}

const STORED =
  /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:(Z)|([+-])(\d{2}):?(\d{2}))?$/

/**
 * Reads back a time as the manager's SQLite driver stores it (`sqliteTime`'s format, any offset;
 * also `T` for the space and `Z` for the offset, and no offset at all, read as UTC):
 * nanoseconds since the epoch, or null when the text is not such a time.
 */
export function parseSqliteTime(text: string): bigint | null {
  const m = STORED.exec(text)
  if (!m) return null
  const wallMs = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6])
  if (Number.isNaN(wallMs)) return null
  const off = m[9] ? (m[9] === '-' ? -1 : 1) * (Number(m[10]) * 60 + Number(m[11])) : 0
  return BigInt(wallMs - off * 60_000) * 1_000_000n + BigInt((m[7] ?? '').padEnd(9, '0'))
}
