import { toText } from '../../go/gostring.js'
import { pack } from '../rule-kit/examples.js'
import { eachSchemaObject, type ManifestRule, member } from '../rule-kit/util.js'

const rule: ManifestRule = {
  id: 'schema/additional-properties',
  severity: 'warn',
  category: 'best-practice',
  kind: 'manifest',
  docs: 'An object schema with `properties` makes no `additionalProperties` decision: any other key the LLM invents reaches the skill as is.',
  examples: {
    bad: [{ files: pack({ schema: { type: 'object', properties: {} } }) }],
    good: [{ files: pack({ schema: { type: 'object', properties: {}, additionalProperties: false } }) }],
  },
  check(ctx, report) {
    const tree = ctx.schema()?.tree
    if (!tree) return
    eachSchemaObject(tree, (o, pointer) => {
      const props = member(o, 'properties')
      if (!props) return
      if (
        member(o, 'additionalProperties') ||
        member(o, 'unevaluatedProperties') ||
        member(o, 'patternProperties')
      )
        return
      report({
        at: props.keyStart,
        message: `no additionalProperties decision${pointer ? ` at ${toText(pointer)}` : ''}: set "additionalProperties": false (or a schema) so unexpected arguments are refused`,
      })
    })
  },
}
export default rule
