import { toText, trimSpace } from '../../go/gostring.js'
import { envElements } from './env-invalid-name.js'
import { pack } from './examples.js'
import type { ManifestRule } from './util.js'

const rule: ManifestRule = {
  id: 'env/whitespace',
  severity: 'warn',
  category: 'best-practice',
  kind: 'manifest',
  docs: 'An env_allow name has leading or trailing white space (the manager trims it; other tools may not).',
  examples: {
    bad: [{ files: pack({ env_allow: [' PATH'] }) }],
    good: [{ files: pack({ env_allow: ['PATH'] }) }],
  },
  check(ctx, report) {
    for (const e of envElements(ctx)) {
      const t = trimSpace(e.value)
      if (t === '' || t === e.value) continue
      report({
        at: e.at,
        message: `${JSON.stringify(toText(e.value))} has surrounding white space: write "${toText(t)}"`,
      })
    }
  },
}
export default rule
