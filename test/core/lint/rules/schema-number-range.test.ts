import rule from '../../../../src/core/lint/rules/schema-number-range.js'
import { ECHO } from '../../../helpers/tree.js'
import { ruleTester } from '../rule-tester.js'
import { CLEAN_PACK, pack } from './fixtures.js'

ruleTester(rule, {
  valid: [{ name: 'a clean pack', files: CLEAN_PACK }],
  invalid: [
    {
      files: {
        'skills/a/skill.json': pack({ schema: { type: 'object', maximum: '@' } }).replace('"@"', '1e400'),
        'skills/a/run.sh': ECHO,
      },
      findings: [
        {
          message:
            'subprocess skill "clean": invalid manifest schema: json: cannot unmarshal number 1e400 into Go value of type float64',
          line: 1,
          column: 193,
          hint: 'the manager logs this as WARN "aiops/tools: skill schema build failed" and leaves the skill out of the LLM’s tools.',
          file: 'skills/a/skill.json',
        },
      ],
    },
  ],
})
