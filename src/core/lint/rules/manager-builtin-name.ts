import { toText } from '../../go/gostring.js'
import { alreadyRegisteredText } from '../../loader/registry.js'
import { pack } from '../rule-kit/examples.js'
import type { ManifestRule } from '../rule-kit/util.js'

const rule: ManifestRule = {
  id: 'manager/builtin-name',
  severity: 'error',
  category: 'manager',
  kind: 'manifest',
  docs: 'The name is the key of a builtin manager skill, registered before any pack: the loader skips the pack.',
  examples: { bad: [{ files: pack({ name: 'web_search' }) }], good: [{ files: pack() }] },
  check(ctx, report) {
    if (ctx.taken?.by !== 'builtin') return
    const name = ctx.parsed?.manifest.name ?? ''
    report({
      at: ctx.keyAt('name'),
      message: toText(alreadyRegisteredText(name, ctx.path)),
      hint: `"${toText(name)}" is a builtin skill of the manager: rename this pack.`,
    })
  },
}
export default rule
