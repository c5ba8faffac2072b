import { pack } from '../rule-kit/examples.js'
import type { ManifestRule } from '../rule-kit/util.js'

const rule: ManifestRule = {
  id: 'practice/not-offered-to-llm',
  severity: 'info',
  category: 'best-practice',
  kind: 'manifest',
  docs: '`mutating` and `dangerous` skills are never offered to the LLM: only `safe` ones are bridged.',
  examples: { bad: [{ files: pack({ class: 'mutating' }) }], good: [{ files: pack({ class: 'safe' }) }] },
  check(ctx, report) {
    const c = ctx.parsed?.manifest.class
    if (!ctx.ok || (c !== 'mutating' && c !== 'dangerous')) return
    report({
      at: ctx.keyAt('class'),
      message: `${c} skills are never offered to the LLM (the bridge takes safe skills only); ${
        c === 'mutating'
          ? 'they run through the REST API, for the admin and user roles'
          : 'see practice/dangerous-class'
      }`,
    })
  },
}
export default rule
