import { durationString } from '../../go/time/duration.js'
import { LLM_CALL_DEADLINE_NS } from '../../practice.js'
import { pack } from '../rule-kit/examples.js'
import { effectiveTimeout } from '../rule-kit/timeouts.js'
import type { ManifestRule } from '../rule-kit/util.js'

const rule: ManifestRule = {
  id: 'practice/timeout-llm-deadline',
  severity: 'info',
  category: 'best-practice',
  kind: 'manifest',
  docs: 'A `safe` skill’s timeout_seconds lets it run longer than the legacy agent’s 15 s per tool call: LLM calls are cut there.',
  examples: {
    bad: [{ files: pack({ timeout_seconds: 16 }) }],
    good: [{ files: pack({ timeout_seconds: 15 }) }],
  },
  check(ctx, report) {
    const t = effectiveTimeout(ctx)
    const c = ctx.parsed?.manifest.class
    if (!t || t.defaulted || (c !== '' && c !== 'safe') || t.ns <= LLM_CALL_DEADLINE_NS) return
    report({
      at: ctx.keyAt('timeout_seconds'),
      message: `the legacy agent gives each tool call 15s: an LLM call of this skill is cut there and reported as "timed out after ${durationString(t.ns)}"`,
    })
  },
}
export default rule
