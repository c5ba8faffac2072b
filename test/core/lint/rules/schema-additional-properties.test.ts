import rule from '../../../../src/core/lint/rules/schema-additional-properties.js'
import { ECHO } from '../../../helpers/tree.js'
import { ruleTester } from '../rule-tester.js'
import { CLEAN_PACK, pack } from './fixtures.js'

ruleTester(rule, {
  valid: [{ name: 'a clean pack', files: CLEAN_PACK }],
  invalid: [
    {
      files: {
        'skills/a/skill.json': pack({ schema: { type: 'object', properties: {} } }),
        'skills/a/run.sh': ECHO,
      },
      findings: [
        {
          message:
            'no additionalProperties decision: set "additionalProperties": false (or a schema) so unexpected arguments are refused',
          line: 1,
          column: 183,
          file: 'skills/a/skill.json',
        },
      ],
    },
  ],
})
