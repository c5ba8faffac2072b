import { CASE_OK, pack } from '../rule-kit/examples.js'
import { caseProblemRule } from '../rule-kit/families.js'
export default caseProblemRule({
  id: 'tests/shape',
  severity: 'error',
  docs: 'A case file that is not JSON, or a case whose fields have the wrong type, a missing `name` or `expect`, a bad Go duration or regular expression, contradictory expectations, or a name used twice: `test` cannot run it.',
  examples: {
    bad: [{ files: pack({}, { 'tests/root.json': '{\n  "name": "root"\n}\n' }) }],
    good: [{ files: pack({}, { 'tests/root.json': CASE_OK }) }],
  },
  problem: 'shape',
})
