import rule from '../../../../src/core/lint/rules/practice-timeout-too-long.js'
import { ECHO } from '../../../helpers/tree.js'
import { ruleTester } from '../rule-tester.js'
import { CLEAN_PACK, pack } from './fixtures.js'

ruleTester(rule, {
  valid: [
    { name: 'a clean pack', files: CLEAN_PACK },
    {
      name: 'exactly 5 minutes',
      files: { 'skills/a/skill.json': pack({ timeout_seconds: 300 }), 'skills/a/run.sh': ECHO },
    },
  ],
  invalid: [
    {
      files: { 'skills/a/skill.json': pack({ timeout_seconds: 301 }), 'skills/a/run.sh': ECHO },
      findings: [
        {
          message: 'timeout_seconds gives 5m1s, above 5m0s: keep skills short, or split the work',
          line: 1,
          column: 115,
          file: 'skills/a/skill.json',
        },
      ],
    },
  ],
})
