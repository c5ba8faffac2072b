/**
 * How the manager's SQLite driver stores a time.Time: `2006-01-02 15:04:05.999999999-07:00`
 * (space separator, trailing zeros of the fraction trimmed, numeric offset — `+00:00`, never Z).
 * The manager writes audit times in UTC.
 */
export function sqliteTime(epochNs: bigint): string {
  const ms = Number(epochNs / 1_000_000n)
  const nanos = Number(((epochNs % 1_000_000_000n) + 1_000_000_000n) % 1_000_000_000n)
  const iso = new Date(ms).toISOString() // 2006-01-02T15:04:05.000Z
  let s = `${iso.slice(0, 10)} ${iso.slice(11, 19)}`
  if (nanos !== 0) s += `.${String(nanos).padStart(9, '0').replace(/0+$/, '')}`
  return `${s}+00:00`
}
