import { pack } from '../rule-kit/examples.js'
import type { ManifestRule } from '../rule-kit/util.js'

const rule: ManifestRule = {
  id: 'practice/timeout-unset',
  severity: 'warn',
  category: 'best-practice',
  kind: 'manifest',
  docs: '`timeout_seconds` is unset (or 0): the manager uses 30 s; say how long the skill may run.',
  examples: { bad: [{ files: pack() }], good: [{ files: pack({ timeout_seconds: 10 }) }] },
  check(ctx, report) {
    if (!ctx.ok || ctx.parsed?.manifest.timeoutSeconds !== 0n) return
    report({
      at: ctx.keyAt('timeout_seconds'),
      message:
        'timeout_seconds is not set: the manager kills the skill after 30s (and the legacy agent cuts LLM calls at 15s); set it to what the skill needs',
    })
  },
}
export default rule
