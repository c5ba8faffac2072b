import { pack } from '../rule-kit/examples.js'
import type { ManifestRule } from '../rule-kit/util.js'

const rule: ManifestRule = {
  id: 'practice/dangerous-class',
  severity: 'warn',
  category: 'best-practice',
  kind: 'manifest',
  docs: '`dangerous` skills can never run: the manager refuses them to every role, admin included.',
  examples: {
    bad: [{ files: pack({ class: 'dangerous' }) }],
    good: [{ files: pack({ class: 'mutating' }) }],
  },
  check(ctx, report) {
    if (!ctx.ok || ctx.parsed?.manifest.class !== 'dangerous') return
    report({
      at: ctx.keyAt('class'),
      message:
        'dangerous skills are refused to every caller ("forbidden: dangerous skills require SOP signature (not implemented)") and never reach the LLM: this skill cannot run',
    })
  },
}
export default rule
