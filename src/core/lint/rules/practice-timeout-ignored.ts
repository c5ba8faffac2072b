import { pack } from '../rule-kit/examples.js'
import { effectiveTimeout } from '../rule-kit/timeouts.js'
import type { ManifestRule } from '../rule-kit/util.js'

const rule: ManifestRule = {
  id: 'practice/timeout-ignored',
  severity: 'warn',
  category: 'best-practice',
  kind: 'manifest',
  docs: '`timeout_seconds` is negative or so large that seconds overflow int64: the manager silently uses 30 s.',
  examples: {
    bad: [{ files: pack({ timeout_seconds: -5 }) }],
    good: [{ files: pack({ timeout_seconds: 10 }) }],
  },
  check(ctx, report) {
    const t = effectiveTimeout(ctx)
    if (!t?.defaulted || t.given === 0n) return
    report({
      at: ctx.keyAt('timeout_seconds'),
      message: `timeout_seconds ${t.given} ${t.given < 0n ? 'is negative' : 'overflows int64 nanoseconds'}: the manager silently uses 30s`,
    })
  },
}
export default rule
