import { pack } from '../rule-kit/examples.js'
import type { ManifestRule } from '../rule-kit/util.js'

const rule: ManifestRule = {
  id: 'schema/missing',
  severity: 'info',
  category: 'best-practice',
  kind: 'manifest',
  docs: 'No `schema`: the LLM gets `{"properties":{},"type":"object"}` and can pass no arguments.',
  examples: {
    bad: [{ files: pack() }],
    good: [{ files: pack({ schema: { type: 'object', properties: {}, additionalProperties: false } }) }],
  },
  check(ctx, report) {
    if (!ctx.ok || ctx.lastKey('schema')) return
    report({
      at: null,
      message:
        'no schema: the LLM sees {"properties":{},"type":"object"} and can pass no arguments; describe the parameters, even as {"type":"object","properties":{},"additionalProperties":false}',
    })
  },
}
export default rule
