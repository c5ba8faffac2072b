import { toText } from '../../go/gostring.js'
import type { ManifestRule } from './util.js'

const rule: ManifestRule = {
  id: 'run/entry-directory',
  severity: 'error',
  category: 'manager',
  kind: 'manifest',
  docs: 'The entry is a directory: every run fails (`subprocess skill: entry … is a directory`).',
  check(ctx, report) {
    const p = ctx.entry()
    if (p?.kind !== 'directory') return
    report({
      at: ctx.keyAt('entry'),
      message: toText(p.message),
    })
  },
}
export default rule
