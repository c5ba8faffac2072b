import rule from '../../../../src/core/lint/rules/schema-too-deep.js'
import { ECHO } from '../../../helpers/tree.js'
import { ruleTester } from '../rule-tester.js'
import { CLEAN_PACK, pack } from './fixtures.js'

ruleTester(rule, {
  valid: [{ name: 'a clean pack', files: CLEAN_PACK }],
  invalid: [
    {
      files: {
        'skills/a/skill.json': pack({ schema: { type: 'object' } }).replace(
          '"type":"object"',
          `"x":${'['.repeat(1100)}${']'.repeat(1100)}`,
        ),
        'skills/a/run.sh': ECHO,
      },
      findings: [
        {
          message: 'the schema nests deeper than 1000 levels: not analysed',
          line: 1,
          column: 157,
          file: 'skills/a/skill.json',
        },
      ],
    },
  ],
})
