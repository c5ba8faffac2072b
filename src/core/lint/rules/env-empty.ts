import { trimSpace } from '../../go/gostring.js'
import { envElements } from '../rule-kit/env.js'
import { pack } from '../rule-kit/examples.js'
import type { ManifestRule } from '../rule-kit/util.js'

const rule: ManifestRule = {
  id: 'env/empty',
  severity: 'info',
  category: 'best-practice',
  kind: 'manifest',
  docs: 'An env_allow entry is empty or null: the manager skips it.',
  examples: {
    bad: [{ files: pack({ env_allow: ['PATH', ''] }) }],
    good: [{ files: pack({ env_allow: ['PATH'] }) }],
  },
  check(ctx, report) {
    for (const e of envElements(ctx)) {
      if (trimSpace(e.value) !== '') continue
      report({ at: e.at, message: 'empty env_allow entry: the manager skips it' })
    }
  },
}
export default rule
