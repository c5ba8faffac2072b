/**
 * Wall-clock times in a go-sql-driver `loc`: MySQL DATETIME columns store no zone, and the
 * manager's driver writes time.Time values converted to the DSN's `loc` (`UTC` when the DSN has
 * none, `Local` in the manager's default DSN, or an IANA name such as `Asia/Shanghai`). Reading
 * them back means interpreting the wall clock in that same zone.
 *
 * `Local` is this process's zone (TZ), which is the manager's only when both run with the same
 * zone — the help of `audit tail` says so.
 */

export type Zone = 'UTC' | 'Local' | { iana: string }

/** time.LoadLocation's names: "" and "UTC" are UTC, "Local" the local zone, else an IANA name. */
export function parseZone(name: string): Zone | null {
  if (name === '' || name === 'UTC') return 'UTC'
  if (name === 'Local') return 'Local'
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name })
  } catch {
    return null
  }
  return { iana: name }
}

const formatters = new Map<string, Intl.DateTimeFormat>()

/** The zone's offset from UTC, in minutes, at the instant `epochMs`. */
export function offsetMinutes(epochMs: number, z: Zone): number {
  if (z === 'UTC') return 0
  if (z === 'Local') return -new Date(epochMs).getTimezoneOffset()
  let f = formatters.get(z.iana)
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: z.iana,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    })
    formatters.set(z.iana, f)
  }
  const p: Record<string, number> = {}
  for (const part of f.formatToParts(new Date(epochMs))) p[part.type] = Number(part.value)
  const wall = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second)
  return Math.round((wall - Math.floor(epochMs / 1000) * 1000) / 60_000)
}

const WALL = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?$/

/**
 * A MySQL DATETIME as mysql2 returns it with `dateStrings` (`2026-05-01 12:34:56.789`), read in
 * zone `z`: nanoseconds since the epoch, or null when the text is not such a time. A wall time
 * that exists twice or not at all (DST changes) gets one of the two offsets, as with Go's time.Date.
 */
export function parseWallTime(text: string, z: Zone): bigint | null {
  const m = WALL.exec(text)
  if (!m) return null
  const wallMs = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6])
  if (Number.isNaN(wallMs)) return null
  const frac = BigInt((m[7] ?? '').padEnd(9, '0'))
  let t = wallMs - offsetMinutes(wallMs, z) * 60_000
  t = wallMs - offsetMinutes(t, z) * 60_000
  return BigInt(t) * 1_000_000n + frac
}

/** The instant `epochNs` as a wall-clock DATETIME literal in zone `z`, with `digits` fraction digits. */
export function formatWallTime(epochNs: bigint, z: Zone, digits = 3): string {
  const ms = Number(floorDiv(epochNs, 1_000_000n))
  const nanos = epochNs - floorDiv(epochNs, 1_000_000_000n) * 1_000_000_000n
  const d = new Date(ms + offsetMinutes(ms, z) * 60_000)
  const pad = (n: number, w = 2) => String(n).padStart(w, '0')
  const s = `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`
  if (digits <= 0) return s
  return `${s}.${String(nanos).padStart(9, '0').slice(0, digits)}`
}

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q
}
