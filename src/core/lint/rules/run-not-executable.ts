import { toText } from '../../go/gostring.js'
import type { ManifestRule } from './util.js'

const rule: ManifestRule = {
  id: 'run/not-executable',
  severity: 'error',
  category: 'manager',
  kind: 'manifest',
  docs: 'The entry has no execute bit: every run fails (`subprocess skill: entry … not executable`).',
  check(ctx, report) {
    const p = ctx.entry()
    if (p?.kind !== 'not-executable') return
    report({
      at: ctx.keyAt('entry'),
      message: toText(p.message),
      hint: 'chmod +x it (and commit the mode: git update-index --chmod=+x).',
    })
  },
}
export default rule
