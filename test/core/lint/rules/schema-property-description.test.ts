import rule from '../../../../src/core/lint/rules/schema-property-description.js'
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
            properties: {
              a: {
                type: 'object',
                description: 'a',
                properties: { b: { type: 'string' } },
                additionalProperties: false,
              },
            },
            additionalProperties: false,
          },
        }),
        'skills/a/run.sh': ECHO,
      },
      findings: [
        {
          message: 'property "b" (at /properties/a) has no description: tell the LLM what to pass',
          line: 1,
          column: 250,
          file: 'skills/a/skill.json',
        },
      ],
    },
  ],
})
