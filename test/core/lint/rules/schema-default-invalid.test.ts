import rule from '../../../../src/core/lint/rules/schema-default-invalid.js'
import { ECHO } from '../../../helpers/tree.js'
import { ruleTester } from '../rule-tester.js'
import { CLEAN_PACK, pack } from './fixtures.js'

ruleTester(rule, {
  valid: [{ name: 'a clean pack', files: CLEAN_PACK }],
  invalid: [
    {
      files: {
        'skills/a/skill.json': pack({
          schema: {
            type: 'object',
            properties: { n: { type: 'integer', description: 'n', default: 'x' } },
            additionalProperties: false,
          },
        }),
        'skills/a/run.sh': ECHO,
      },
      findings: [
        {
          message: 'schema/properties/n/default: the default does not match its schema: must be integer',
          line: 1,
          column: 247,
          file: 'skills/a/skill.json',
        },
      ],
    },
  ],
})
