import rule from '../../../../src/core/lint/rules/env-duplicate.js'
import { ECHO } from '../../../helpers/tree.js'
import { ruleTester } from '../rule-tester.js'
import { CLEAN_PACK, pack } from './fixtures.js'

ruleTester(rule, {
  valid: [{ name: 'a clean pack', files: CLEAN_PACK }],
  invalid: [
    {
      files: { 'skills/a/skill.json': pack({ env_allow: ['PATH', 'PATH '] }), 'skills/a/run.sh': ECHO },
      findings: [{ message: '"PATH" is already listed', line: 1, column: 156, file: 'skills/a/skill.json' }],
    },
  ],
})
