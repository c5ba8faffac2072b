import { fromSeconds, SECOND } from '../../go/time/duration.js'
import type { ManifestContext } from '../context.js'

/** The timeout as the manager computes it: timeout_seconds * 1s (int64 wrap), 30s when <= 0. */
export function effectiveTimeout(
  ctx: ManifestContext,
): { given: bigint; ns: bigint; defaulted: boolean } | null {
  const m = ctx.parsed?.manifest
  if (!ctx.ok || !m) return null
  const ns = fromSeconds(m.timeoutSeconds)
  return ns <= 0n
    ? { given: m.timeoutSeconds, ns: 30n * SECOND, defaulted: true }
    : { given: m.timeoutSeconds, ns, defaulted: false }
}
