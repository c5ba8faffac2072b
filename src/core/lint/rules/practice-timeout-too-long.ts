import { durationString } from '../../go/time/duration.js'
import { MAX_TIMEOUT_NS } from '../../practice.js'
import { pack } from '../rule-kit/examples.js'
import { effectiveTimeout } from '../rule-kit/timeouts.js'
import type { ManifestRule } from '../rule-kit/util.js'

const rule: ManifestRule = {
  id: 'practice/timeout-too-long',
  severity: 'warn',
  category: 'best-practice',
  kind: 'manifest',
  docs: 'The timeout is above 5 minutes: a hung run holds a process (and a caller) that long.',
  examples: {
    bad: [{ files: pack({ timeout_seconds: 301 }) }],
    good: [{ files: pack({ timeout_seconds: 300 }) }],
  },
  check(ctx, report) {
    const t = effectiveTimeout(ctx)
    if (!t || t.defaulted || t.ns <= MAX_TIMEOUT_NS) return
    report({
      at: ctx.keyAt('timeout_seconds'),
      message: `timeout_seconds gives ${durationString(t.ns)}, above 5m0s: keep skills short, or split the work`,
    })
  },
}
export default rule
