import { isAbs } from '../../go/path/filepath/path.js'
import { pack } from '../rule-kit/examples.js'
import type { ManifestRule } from '../rule-kit/util.js'

const rule: ManifestRule = {
  id: 'practice/absolute-entry',
  severity: 'info',
  category: 'best-practice',
  kind: 'manifest',
  docs: 'The entry is an absolute path: the pack only works where that path exists; a path relative to skill.json travels with it.',
  examples: { bad: [{ files: pack({ entry: '/opt/skills/disk_free/run.sh' }) }], good: [{ files: pack() }] },
  check(ctx, report) {
    const e = ctx.parsed?.manifest.entry ?? ''
    if (!ctx.ok || !isAbs(e)) return
    report({
      at: ctx.keyAt('entry'),
      message:
        'entry is an absolute path: use a path relative to the directory of skill.json so the pack can move',
    })
  },
}
export default rule
