import rule from '../../../../src/core/lint/rules/schema-unknown-draft.js'
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
            $schema: 'http://json-schema.org/draft-04/schema#',
            type: 'object',
            properties: {},
            additionalProperties: false,
          },
        }),
        'skills/a/run.sh': ECHO,
      },
      findings: [
        {
          message:
            '$schema "http://json-schema.org/draft-04/schema#" is not a draft ongrid-skill checks (draft-07, 2020-12): the schema was not validated',
          line: 1,
          column: 167,
          file: 'skills/a/skill.json',
        },
      ],
    },
  ],
})
