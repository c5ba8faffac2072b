import rule from '../../../../src/core/lint/rules/practice-unknown-key.js'
import { ECHO } from '../../../helpers/tree.js'
import { ruleTester } from '../rule-tester.js'
import { CLEAN_PACK, pack } from './fixtures.js'

ruleTester(rule, {
  valid: [{ name: 'a clean pack', files: CLEAN_PACK }],
  invalid: [
    {
      files: { 'skills/a/skill.json': pack({ author: 'me' }), 'skills/a/run.sh': ECHO },
      findings: [
        {
          message: 'unknown key "author" is ignored by the manager',
          line: 1,
          column: 291,
          file: 'skills/a/skill.json',
        },
      ],
    },
  ],
})
