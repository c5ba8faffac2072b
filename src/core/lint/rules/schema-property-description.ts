import { toText } from '../../go/gostring.js'
import { pack } from '../rule-kit/examples.js'
import { eachSchemaObject, effectiveMembers, type ManifestRule, member } from '../rule-kit/util.js'

const rule: ManifestRule = {
  id: 'schema/property-description',
  severity: 'warn',
  category: 'best-practice',
  kind: 'manifest',
  docs: 'A property has no `description`: the LLM guesses what to pass from its name alone.',
  examples: {
    bad: [{ files: pack({ schema: { type: 'object', properties: { path: { type: 'string' } } } }) }],
    good: [
      {
        files: pack({
          schema: { type: 'object', properties: { path: { type: 'string', description: 'A mount point.' } } },
        }),
      },
    ],
  },
  check(ctx, report) {
    const tree = ctx.schema()?.tree
    if (!tree) return
    eachSchemaObject(tree, (o, pointer) => {
      const props = member(o, 'properties')
      if (props?.value.kind !== 'object') return
      for (const p of effectiveMembers(props.value)) {
        if (p.value.kind !== 'object' || member(p.value, 'description') || member(p.value, '$ref')) continue
        report({
          at: p.keyStart,
          message: `property ${JSON.stringify(toText(p.key))}${pointer ? ` (at ${toText(pointer)})` : ''} has no description: tell the LLM what to pass`,
        })
      }
    })
  },
}
export default rule
