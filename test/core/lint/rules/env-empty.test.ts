import rule from '../../../../src/core/lint/rules/env-empty.js'
import { ECHO } from '../../../helpers/tree.js'
import { ruleTester } from '../rule-tester.js'
import { CLEAN_PACK, colOf, pack } from './fixtures.js'

ruleTester(rule, {
  valid: [{ name: 'a clean pack', files: CLEAN_PACK }],
  invalid: [
    {
      files: { 'skills/a/skill.json': pack({ env_allow: ['PATH', null] }), 'skills/a/run.sh': ECHO },
      findings: [
        {
          message: 'empty env_allow entry: the manager skips it',
          line: 1,
          column: 156,
          file: 'skills/a/skill.json',
        },
      ],
    },
    {
      name: 'an empty string and a blank one',
      files: { 'skills/a/skill.json': pack({ env_allow: ['', 'PATH', '  '] }), 'skills/a/run.sh': ECHO },
      findings: [
        {
          message: 'empty env_allow entry: the manager skips it',
          line: 1,
          column: colOf({ env_allow: ['', 'PATH', '  '] }, '""'),
          file: 'skills/a/skill.json',
        },
        {
          message: 'empty env_allow entry: the manager skips it',
          line: 1,
          column: colOf({ env_allow: ['', 'PATH', '  '] }, '"  "'),
          file: 'skills/a/skill.json',
        },
      ],
    },
  ],
})
