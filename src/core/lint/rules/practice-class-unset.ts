import { pack } from './examples.js'
import type { ManifestRule } from './util.js'

const rule: ManifestRule = {
  id: 'practice/class-unset',
  severity: 'warn',
  category: 'best-practice',
  kind: 'manifest',
  docs: '`class` is unset: the manager silently makes the skill `safe` (offered to the LLM, runnable by every role).',
  examples: { bad: [{ files: pack() }], good: [{ files: pack({ class: 'safe' }) }] },
  check(ctx, report) {
    if (!ctx.ok || ctx.parsed?.manifest.class !== '') return
    report({
      at: ctx.keyAt('class'),
      message:
        'class is not set: the manager defaults it to "safe" without a word (offered to the LLM, runnable by every role); set "safe", "mutating" or "dangerous" explicitly',
    })
  },
}
export default rule
