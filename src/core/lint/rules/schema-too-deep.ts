import { MAX_TREE_DEPTH } from '../../json-tree.js'
import { pack, packText, skillJson } from './examples.js'
import type { ManifestRule } from './util.js'

const rule: ManifestRule = {
  id: 'schema/too-deep',
  severity: 'info',
  category: 'manager',
  kind: 'manifest',
  docs: `The schema nests deeper than ${MAX_TREE_DEPTH} levels: ongrid-skill does not analyse it.`,
  examples: {
    bad: [
      {
        files: packText(
          skillJson({
            name: 'disk_free',
            description: 'Reports free space.',
            entry: 'run.sh',
            schema: { type: 'object', x: '@' },
          }).replace('"@"', `${'['.repeat(1001)}${']'.repeat(1001)}`),
        ),
      },
    ],
    good: [{ files: pack({ schema: { type: 'object', x: [[[]]] } }) }],
  },
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
