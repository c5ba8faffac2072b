import { toText, trimSpace } from '../../go/gostring.js'
import { envElements } from '../rule-kit/env.js'
import { pack } from '../rule-kit/examples.js'
import type { ManifestRule } from '../rule-kit/util.js'

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/

const rule: ManifestRule = {
  id: 'env/invalid-name',
  severity: 'error',
  category: 'manager',
  kind: 'manifest',
  docs: 'An env_allow name (after trimming) is not an environment variable name `[A-Za-z_][A-Za-z0-9_]*`.',
  examples: {
    bad: [{ files: pack({ env_allow: ['PATH', 'MY-VAR'] }) }],
    good: [{ files: pack({ env_allow: ['PATH', 'MY_VAR'] }) }],
  },
  check(ctx, report) {
    for (const e of envElements(ctx)) {
      const name = trimSpace(e.value)
      if (name === '' || NAME.test(name)) continue
      report({
        at: e.at,
        message: `${JSON.stringify(toText(name))} is not a valid environment variable name ([A-Za-z_][A-Za-z0-9_]*): shells cannot set such a name, so the manager will not find it in its environment`,
      })
    }
  },
}
export default rule
