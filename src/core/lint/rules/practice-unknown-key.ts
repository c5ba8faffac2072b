import { keyText, nearMiss } from './keys.js'
import type { ManifestRule } from './util.js'

const rule: ManifestRule = {
  id: 'practice/unknown-key',
  severity: 'info',
  category: 'best-practice',
  kind: 'manifest',
  docs: 'A key that is no manifest field (and no near miss of one): the manager ignores it.',
  check(ctx, report) {
    if (!ctx.ok) return
    for (const k of ctx.parsed?.keys ?? []) {
      if (k.field !== null || nearMiss(keyText(k))) continue
      report({ at: k.offset, message: `unknown key ${JSON.stringify(keyText(k))} is ignored by the manager` })
    }
  },
}
export default rule
