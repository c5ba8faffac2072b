import rule from '../../../../src/core/lint/rules/practice-duplicate-key.js'
import { ECHO } from '../../../helpers/tree.js'
import { ruleTester } from '../rule-tester.js'
import { CLEAN_PACK, pack } from './fixtures.js'

ruleTester(rule, {
  valid: [{ name: 'a clean pack', files: CLEAN_PACK }],
  invalid: [
    {
      files: {
        'skills/a/skill.json': pack().replace('"class":"safe"', '"class":"mutating","CLASS":"safe"'),
        'skills/a/run.sh': ECHO,
      },
      findings: [
        {
          message: '"class" is set again (first as "class"): Go keeps the last value',
          line: 1,
          column: 119,
          file: 'skills/a/skill.json',
        },
      ],
    },
  ],
})
