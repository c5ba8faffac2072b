import rule from '../../../../src/core/lint/rules/practice-near-miss-key.js'
import { ECHO } from '../../../helpers/tree.js'
import { ruleTester } from '../rule-tester.js'
import { CLEAN_PACK, pack } from './fixtures.js'

ruleTester(rule, {
  valid: [{ name: 'a clean pack', files: CLEAN_PACK }],
  invalid: [
    {
      files: { 'skills/a/skill.json': pack({ args_schema: {} }), 'skills/a/run.sh': ECHO },
      findings: [
        {
          message: 'unknown key "args_schema" is ignored by the manager: did you mean "schema"?',
          line: 1,
          column: 291,
          file: 'skills/a/skill.json',
        },
      ],
    },
    {
      files: { 'skills/a/skill.json': pack({ env: ['PATH'] }), 'skills/a/run.sh': ECHO },
      findings: [
        {
          message: 'unknown key "env" is ignored by the manager: did you mean "env_allow"?',
          line: 1,
          column: 291,
          file: 'skills/a/skill.json',
        },
      ],
    },
    {
      files: { 'skills/a/skill.json': pack({ timeoutSeconds: 3 }), 'skills/a/run.sh': ECHO },
      findings: [
        {
          message: 'unknown key "timeoutSeconds" is ignored by the manager: did you mean "timeout_seconds"?',
          line: 1,
          column: 291,
          file: 'skills/a/skill.json',
        },
      ],
    },
  ],
})
