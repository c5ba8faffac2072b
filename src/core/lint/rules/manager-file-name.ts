import { pack, RUN_SH, skillJson } from '../rule-kit/examples.js'
import type { ManifestRule } from '../rule-kit/util.js'

const rule: ManifestRule = {
  id: 'manager/file-name',
  severity: 'warn',
  category: 'manager',
  kind: 'manifest',
  docs: 'A manifest given by path is not named skill.json: the loader only reads files named exactly that.',
  examples: {
    bad: [
      {
        files: {
          'skills/disk_free/manifest.json': skillJson({
            name: 'disk_free',
            description: 'Reports free space.',
            entry: 'run.sh',
          }),
          'skills/disk_free/run.sh': RUN_SH,
        },
        path: 'skills/disk_free/manifest.json',
      },
    ],
    good: [{ files: pack(), path: 'skills/disk_free/skill.json' }],
  },
  check(ctx, report) {
    if (ctx.namedSkillJson) return
    report({
      at: null,
      message: 'the loader only reads files named skill.json: the manager never loads this file',
    })
  },
}
export default rule
