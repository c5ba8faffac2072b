import rule from '../../../../src/core/lint/rules/env-invalid-name.js'
import { ECHO } from '../../../helpers/tree.js'
import { ruleTester } from '../rule-tester.js'
import { CLEAN_PACK, colOf, pack } from './fixtures.js'

ruleTester(rule, {
  valid: [
    { name: 'a clean pack', files: CLEAN_PACK },
    {
      name: 'names with underscores and digits',
      files: { 'skills/a/skill.json': pack({ env_allow: ['_X', 'A1', ' PATH'] }), 'skills/a/run.sh': ECHO },
    },
  ],
  invalid: [
    {
      files: { 'skills/a/skill.json': pack({ env_allow: ['PATH', 'MY-VAR'] }), 'skills/a/run.sh': ECHO },
      findings: [
        {
          message:
            '"MY-VAR" is not a valid environment variable name ([A-Za-z_][A-Za-z0-9_]*): shells cannot set such a name, so the manager will not find it in its environment',
          line: 1,
          column: 156,
          file: 'skills/a/skill.json',
        },
      ],
    },
    {
      name: 'every bad name',
      files: { 'skills/a/skill.json': pack({ env_allow: ['1X', 'A.B'] }), 'skills/a/run.sh': ECHO },
      findings: [
        {
          message: /^"1X" is not a valid environment variable name/,
          line: 1,
          column: colOf({ env_allow: ['1X', 'A.B'] }, '"1X"'),
          file: 'skills/a/skill.json',
        },
        {
          message: /^"A\.B" is not a valid environment variable name/,
          line: 1,
          column: colOf({ env_allow: ['1X', 'A.B'] }, '"A.B"'),
          file: 'skills/a/skill.json',
        },
      ],
    },
  ],
})
