import { pack } from './examples.js'
import { keyText, nearMiss } from './keys.js'
import type { ManifestRule } from './util.js'

const rule: ManifestRule = {
  id: 'practice/near-miss-key',
  severity: 'warn',
  category: 'best-practice',
  kind: 'manifest',
  docs: 'An unknown key looks like a real field (`timeout`, `env`, `args_schema`, `command`…): the manager ignores it.',
  examples: { bad: [{ files: pack({ timeout: 10 }) }], good: [{ files: pack({ timeout_seconds: 10 }) }] },
  check(ctx, report) {
    if (!ctx.ok) return
    for (const k of ctx.parsed?.keys ?? []) {
      if (k.field !== null) continue
      const want = nearMiss(keyText(k))
      if (!want) continue
      report({
        at: k.offset,
        message: `unknown key ${JSON.stringify(keyText(k))} is ignored by the manager: did you mean "${want}"?`,
      })
    }
  },
}
export default rule
