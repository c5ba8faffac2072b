import { toText } from '../../go/gostring.js'
import { pack } from '../rule-kit/examples.js'
import { eachSchemaObject, type ManifestRule, member } from '../rule-kit/util.js'

const rule: ManifestRule = {
  id: 'schema/required-unknown',
  severity: 'warn',
  category: 'best-practice',
  kind: 'manifest',
  docs: 'A name in `required` is not in `properties`: the LLM is asked for an argument it knows nothing about.',
  examples: {
    bad: [
      {
        files: pack({
          schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path', 'mount'] },
        }),
      },
    ],
    good: [
      {
        files: pack({
          schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
        }),
      },
    ],
  },
  check(ctx, report) {
    const tree = ctx.schema()?.tree
    if (!tree) return
    eachSchemaObject(tree, (o) => {
      const req = member(o, 'required')
      if (req?.value.kind !== 'array') return
      const props = member(o, 'properties')?.value
      for (const item of req.value.items) {
        if (item.kind !== 'string') continue
        if (props?.kind === 'object' && member(props, item.value)) continue
        report({
          at: item.start,
          message: `required property ${JSON.stringify(toText(item.value))} is not declared in properties`,
        })
      }
    })
  },
}
export default rule
