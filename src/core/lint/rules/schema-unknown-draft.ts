import { pack } from '../rule-kit/examples.js'
import type { ManifestRule } from '../rule-kit/util.js'
import { member } from '../rule-kit/util.js'

const rule: ManifestRule = {
  id: 'schema/unknown-draft',
  severity: 'warn',
  category: 'manager',
  notRefused: true,
  kind: 'manifest',
  docs: '`$schema` names a draft other than draft-07 or 2020-12: the schema is not checked (and an LLM provider may not support it).',
  examples: {
    bad: [
      { files: pack({ schema: { $schema: 'http://json-schema.org/draft-04/schema#', type: 'object' } }) },
    ],
    good: [
      {
        files: pack({ schema: { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object' } }),
      },
    ],
  },
  prepare: (ctx) => ctx.loadSchemaVerdict(),
  check(ctx, report) {
    const v = ctx.schemaVerdict
    if (!v || !('unsupported' in v)) return
    const tree = ctx.schema()?.tree
    const m = tree ? member(tree, '$schema') : undefined
    report({
      at: m?.keyStart ?? ctx.keyAt('schema'),
      message: `$schema ${JSON.stringify(v.unsupported)} is not a draft ongrid-skill checks (draft-07, 2020-12): the schema was not validated`,
    })
  },
}
export default rule
