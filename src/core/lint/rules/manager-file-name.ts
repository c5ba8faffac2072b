import type { ManifestRule } from './util.js'

const rule: ManifestRule = {
  id: 'manager/file-name',
  severity: 'warn',
  category: 'manager',
  kind: 'manifest',
  docs: 'A manifest given by path is not named skill.json: the loader only reads files named exactly that.',
  check(ctx, report) {
    if (ctx.namedSkillJson) return
    report({
      at: null,
      message: 'the loader only reads files named skill.json: the manager never loads this file',
    })
  },
}
export default rule
