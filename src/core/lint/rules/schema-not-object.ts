import { pack } from '../rule-kit/examples.js'
import { bridgeDecodeRule } from '../rule-kit/families.js'
export default bridgeDecodeRule({
  id: 'schema/not-object',
  severity: 'error',
  docs: 'The schema is not a JSON object (nor null): the LLM bridge skips the skill with a WARN, so the LLM never sees it.',
  examples: {
    bad: [{ files: pack({ schema: 'a mount point' }) }],
    good: [{ files: pack({ schema: { type: 'object' } }) }],
  },
  failure: 'not-object',
  advice: 'schema must be a JSON Schema object',
})
