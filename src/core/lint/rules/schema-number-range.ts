import { pack, packText, skillJsonRaw } from '../rule-kit/examples.js'
import { bridgeDecodeRule } from '../rule-kit/families.js'
export default bridgeDecodeRule({
  id: 'schema/number-range',
  severity: 'error',
  docs: 'A number in the schema is out of float64’s range (e.g. 1e400): the LLM bridge cannot decode the schema and skips the skill.',
  examples: {
    bad: [
      {
        files: packText(skillJsonRaw({ type: 'object', maximum: '@' }, '1e400')),
      },
    ],
    good: [{ files: pack({ schema: { type: 'object', maximum: 1e300 } }) }],
  },
  failure: 'number-range',
})
