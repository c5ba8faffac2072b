import { toText, trimSpace } from '../../go/gostring.js'
import { envElements } from '../rule-kit/env.js'
import { pack } from '../rule-kit/examples.js'
import type { ManifestRule } from '../rule-kit/util.js'

const rule: ManifestRule = {
  id: 'env/duplicate',
  severity: 'info',
  category: 'best-practice',
  kind: 'manifest',
  docs: 'An env_allow name is listed twice.',
  examples: {
    bad: [{ files: pack({ env_allow: ['PATH', 'PATH'] }) }],
    good: [{ files: pack({ env_allow: ['PATH', 'HOME'] }) }],
  },
  check(ctx, report) {
    const seen = new Set<string>()
    for (const e of envElements(ctx)) {
      const t = trimSpace(e.value)
      if (t === '') continue
      if (seen.has(t)) report({ at: e.at, message: `${JSON.stringify(toText(t))} is already listed` })
      seen.add(t)
    }
  },
}
export default rule
