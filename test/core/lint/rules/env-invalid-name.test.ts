import rule from '../../../../src/core/lint/rules/env-invalid-name.js'
import { ECHO } from '../../../helpers/tree.js'
import { ruleTester } from '../rule-tester.js'
import { CLEAN_PACK, pack } from './fixtures.js'

ruleTester(rule, {
  valid: [{ name: 'a clean pack', files: CLEAN_PACK }],
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
  ],
})
