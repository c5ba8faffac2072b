import rule from '../../../../src/core/lint/rules/schema-duplicate-key.js'
import { ECHO } from '../../../helpers/tree.js'
import { ruleTester } from '../rule-tester.js'
import { CLEAN_PACK, pack } from './fixtures.js'

ruleTester(rule, {
  valid: [{ name: 'a clean pack', files: CLEAN_PACK }],
  invalid: [
    {
      files: {
        'skills/a/skill.json': pack().replace(
          '"additionalProperties":false',
          '"additionalProperties":true,"additionalProperties":false',
        ),
        'skills/a/run.sh': ECHO,
      },
      findings: [
        {
          message: '"additionalProperties" appears again in this object: the last one wins',
          line: 1,
          column: 289,
          file: 'skills/a/skill.json',
        },
      ],
    },
  ],
})
