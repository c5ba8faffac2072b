import rule from '../../../../src/core/lint/rules/practice-timeout-unset.js'
import { ECHO } from '../../../helpers/tree.js'
import { ruleTester } from '../rule-tester.js'
import { CLEAN_PACK, colOf, pack } from './fixtures.js'

ruleTester(rule, {
  valid: [{ name: 'a clean pack', files: CLEAN_PACK }],
  invalid: [
    {
      files: { 'skills/a/skill.json': pack({ timeout_seconds: undefined }), 'skills/a/run.sh': ECHO },
      findings: [
        {
          message:
            'timeout_seconds is not set: the manager kills the skill after 30s (and the legacy agent cuts LLM calls at 15s); set it to what the skill needs',
          line: 1,
          column: 1,
          file: 'skills/a/skill.json',
        },
      ],
    },
    {
      name: '0 counts as unset',
      files: { 'skills/a/skill.json': pack({ timeout_seconds: 0 }), 'skills/a/run.sh': ECHO },
      findings: [
        {
          message:
            'timeout_seconds is not set: the manager kills the skill after 30s (and the legacy agent cuts LLM calls at 15s); set it to what the skill needs',
          line: 1,
          column: colOf({ timeout_seconds: 0 }, '"timeout_seconds"'),
          file: 'skills/a/skill.json',
        },
      ],
    },
  ],
})
