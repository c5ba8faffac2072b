import { MAX_TREE_DEPTH } from '../../json-tree.js'
import type { ManifestRule } from './util.js'

const rule: ManifestRule = {
  id: 'schema/too-deep',
  severity: 'info',
  category: 'manager',
  kind: 'manifest',
  docs: `The schema nests deeper than ${MAX_TREE_DEPTH} levels: ongrid-skill does not analyse it.`,
  check(ctx, report) {
    const s = ctx.schema()
    if (!s || s.decode !== null) return
    report({
      at: s.key.offset,
      message: `the schema nests deeper than ${MAX_TREE_DEPTH} levels: not analysed`,
    })
  },
}
export default rule
