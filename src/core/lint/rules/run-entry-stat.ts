import { toText } from '../../go/gostring.js'
import type { ManifestRule } from './util.js'

const rule: ManifestRule = {
  id: 'run/entry-stat',
  severity: 'error',
  category: 'manager',
  kind: 'manifest',
  docs: "The entry cannot be stat'ed: every run fails before it starts (`subprocess skill: stat …`).",
  check(ctx, report) {
    const p = ctx.entry()
    if (p?.kind !== 'stat') return
    report({
      at: ctx.keyAt('entry'),
      message: toText(p.message),
    })
  },
}
export default rule
