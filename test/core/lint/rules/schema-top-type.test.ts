import rule from '../../../../src/core/lint/rules/schema-top-type.js'
import { ECHO } from '../../../helpers/tree.js'
import { ruleTester } from '../rule-tester.js'
import { CLEAN_PACK, pack } from './fixtures.js'

ruleTester(rule, {
  valid: [{ name: 'a clean pack', files: CLEAN_PACK }],
  invalid: [
    {
      files: { 'skills/a/skill.json': pack({ schema: { type: 'string' } }), 'skills/a/run.sh': ECHO },
      findings: [
        {
          message:
            'the top-level type is not "object": the LLM receives it as the function’s parameters, which must be an object of named arguments',
          line: 1,
          column: 167,
          file: 'skills/a/skill.json',
        },
      ],
    },
  ],
})
