/**
 * time.Time.Format(time.RFC3339Nano) for an instant in the process's local zone:
 * `2006-01-02T15:04:05.999999999Z07:00` — fraction trimmed of trailing zeros (and
 * dropped when zero), `Z` when the zone offset is zero, else `±hh:mm`.
 */
export function formatRFC3339Nano(epochNs: bigint, offsetMinutes?: number): string {
  const ms = Number(epochNs / 1_000_000n)
  const nanos = Number(((epochNs % 1_000_000_000n) + 1_000_000_000n) % 1_000_000_000n)
  const off = offsetMinutes ?? -new Date(ms).getTimezoneOffset()
  const local = new Date(ms + off * 60_000)
  const pad = (n: number, w = 2) => String(n).padStart(w, '0')
  let s = `${pad(local.getUTCFullYear(), 4)}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}T${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}`
  if (nanos !== 0) s += `.${pad(nanos, 9).replace(/0+$/, '')}`
  if (off === 0) return `${s}Z`
  const a = Math.abs(off)
  return `${s}${off < 0 ? '-' : '+'}${pad(Math.floor(a / 60))}:${pad(a % 60)}`
}

let base: { wallNs: bigint; hr: bigint } | undefined

/** time.Now() in nanoseconds since the epoch, with sub-millisecond precision from the monotonic clock. */
export function nowNs(): bigint {
  if (!base) base = { wallNs: BigInt(Date.now()) * 1_000_000n, hr: process.hrtime.bigint() }
  return base.wallNs + (process.hrtime.bigint() - base.hr)
}
