import rule from '../../../../src/core/lint/rules/practice-timeout-ignored.js'
import { ECHO } from '../../../helpers/tree.js'
import { ruleTester } from '../rule-tester.js'
import { CLEAN_PACK, pack } from './fixtures.js'

ruleTester(rule, {
  valid: [
    { name: 'a clean pack', files: CLEAN_PACK },
    {
      name: '0 is the other rule’s (unset)',
      files: { 'skills/a/skill.json': pack({ timeout_seconds: 0 }), 'skills/a/run.sh': ECHO },
    },
  ],
  invalid: [
    {
      files: { 'skills/a/skill.json': pack({ timeout_seconds: -5 }), 'skills/a/run.sh': ECHO },
      findings: [
        {
          message: 'timeout_seconds -5 is negative: the manager silently uses 30s',
          line: 1,
          column: 115,
          file: 'skills/a/skill.json',
        },
      ],
    },
    {
      files: {
        'skills/a/skill.json': pack({ timeout_seconds: 1 }).replace(
          '"timeout_seconds":1',
          '"timeout_seconds":9223372037',
        ),
        'skills/a/run.sh': ECHO,
      },
      findings: [
        {
          message: 'timeout_seconds 9223372037 overflows int64 nanoseconds: the manager silently uses 30s',
          line: 1,
          column: 115,
          file: 'skills/a/skill.json',
        },
      ],
    },
  ],
})
