import rule from '../../../../src/core/lint/rules/env-duplicate.js'
import { ECHO } from '../../../helpers/tree.js'
import { ruleTester } from '../rule-tester.js'
import { CLEAN_PACK, colOf, pack } from './fixtures.js'

ruleTester(rule, {
  valid: [
    { name: 'a clean pack', files: CLEAN_PACK },
    {
      name: 'different names',
      files: { 'skills/a/skill.json': pack({ env_allow: ['PATH', 'HOME'] }), 'skills/a/run.sh': ECHO },
    },
  ],
  invalid: [
    {
      files: { 'skills/a/skill.json': pack({ env_allow: ['PATH', 'PATH '] }), 'skills/a/run.sh': ECHO },
      findings: [{ message: '"PATH" is already listed', line: 1, column: 156, file: 'skills/a/skill.json' }],
    },
    {
      name: 'each repeat, after trimming',
      files: {
        'skills/a/skill.json': pack({ env_allow: ['PATH', 'HOME', ' PATH', 'PATH'] }),
        'skills/a/run.sh': ECHO,
      },
      findings: [
        {
          message: '"PATH" is already listed',
          line: 1,
          column: colOf({ env_allow: ['PATH', 'HOME', ' PATH', 'PATH'] }, '" PATH"'),
          file: 'skills/a/skill.json',
        },
        {
          message: '"PATH" is already listed',
          line: 1,
          column: colOf({ env_allow: ['PATH', 'HOME', ' PATH', 'PATH'] }, '"PATH"', 2),
          file: 'skills/a/skill.json',
        },
      ],
    },
  ],
})
