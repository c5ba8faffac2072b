import { toText } from '../../go/gostring.js'
import { alreadyRegisteredText } from '../../loader/registry.js'
import { pack } from '../rule-kit/examples.js'
import type { ManifestRule } from '../rule-kit/util.js'

const rule: ManifestRule = {
  id: 'manager/duplicate-name',
  severity: 'error',
  category: 'manager',
  kind: 'manifest',
  docs: 'An earlier pack in the same set (earlier PATH, or earlier in walk order) already registered this name.',
  examples: {
    bad: [{ files: { ...pack(), ...pack({}, {}, 'disk_free_copy') } }],
    good: [{ files: { ...pack(), ...pack({ name: 'disk_used' }, {}, 'disk_used') } }],
  },
  check(ctx, report) {
    const t = ctx.taken
    if (t?.by !== 'pack') return
    const name = ctx.parsed?.manifest.name ?? ''
    report({
      at: ctx.keyAt('name'),
      message: toText(alreadyRegisteredText(name, ctx.path)),
      hint: `first registered from ${toText(t.path)}; the manager keeps the first dir and the first path in walk order.`,
    })
  },
}
export default rule
