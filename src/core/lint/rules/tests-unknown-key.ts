import { CASE_OK, pack } from './examples.js'
import { caseProblemRule } from './families.js'
export default caseProblemRule({
  id: 'tests/unknown-key',
  severity: 'error',
  docs: 'A key a case (or its `expect`) does not know: a typo that would silently assert nothing.',
  examples: {
    bad: [
      {
        files: pack(
          {},
          { 'tests/root.json': '{\n  "name": "root",\n  "expect": {"ok": true, "stdout": "x"}\n}\n' },
        ),
      },
    ],
    good: [{ files: pack({}, { 'tests/root.json': CASE_OK }) }],
  },
  problem: 'unknown-key',
})
