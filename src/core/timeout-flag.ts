import { fromText, toText } from './go/gostring.js'
import { parseDuration } from './go/time/duration.js'

/**
 * A --timeout as typed, the same in every command: a Go duration (`90s`, `1m30s`, `500ms`), or a
 * bare number, which means seconds (`30`, `1.5`). Returns nanoseconds, or Go's error text.
 */
export function parseTimeoutText(text: string): { ok: true; ns: bigint } | { ok: false; problem: string } {
  const t = text.trim()
  const d = parseDuration(fromText(/^\d+(\.\d+)?$/.test(t) ? `${t}s` : t))
  if (!d.ok) return { ok: false, problem: toText(d.err.error()) }
  return { ok: true, ns: d.value }
}
