import { pack } from '../rule-kit/examples.js'
import type { ManifestRule } from '../rule-kit/util.js'
import { member } from '../rule-kit/util.js'

const rule: ManifestRule = {
  id: 'schema/top-type',
  severity: 'error',
  category: 'best-practice',
  kind: 'manifest',
  docs: 'The schema’s top-level `type` is not "object": function parameters are an object of named arguments (the bridge only adds `type` when it is missing).',
  examples: {
    bad: [{ files: pack({ schema: { type: 'string' } }) }],
    good: [{ files: pack({ schema: { type: 'object' } }) }],
  },
  check(ctx, report) {
    const tree = ctx.schema()?.tree
    if (tree?.kind !== 'object') return
    const t = member(tree, 'type')
    if (!t) return
    if (t.value.kind === 'string' && t.value.value === 'object') return
    report({
      at: t.keyStart,
      message:
        'the top-level type is not "object": the LLM receives it as the function’s parameters, which must be an object of named arguments',
    })
  },
}
export default rule
