import rule from '../../../../src/core/lint/rules/schema-missing.js'
import { ECHO } from '../../../helpers/tree.js'
import { ruleTester } from '../rule-tester.js'
import { CLEAN_PACK, pack } from './fixtures.js'

ruleTester(rule, {
  valid: [
    { name: 'a clean pack', files: CLEAN_PACK },
    {
      name: 'a null schema is a decision',
      files: { 'skills/a/skill.json': pack({ schema: null }), 'skills/a/run.sh': ECHO },
    },
  ],
  invalid: [
    {
      files: { 'skills/a/skill.json': pack({ schema: undefined }), 'skills/a/run.sh': ECHO },
      findings: [
        {
          message:
            'no schema: the LLM sees {"properties":{},"type":"object"} and can pass no arguments; describe the parameters, even as {"type":"object","properties":{},"additionalProperties":false}',
          line: 1,
          column: 1,
          file: 'skills/a/skill.json',
        },
      ],
    },
  ],
})
