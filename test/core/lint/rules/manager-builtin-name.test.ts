import rule from '../../../../src/core/lint/rules/manager-builtin-name.js'
import { ECHO } from '../../../helpers/tree.js'
import { ruleTester } from '../rule-tester.js'
import { CLEAN_PACK, pack } from './fixtures.js'

ruleTester(rule, {
  valid: [{ name: 'a clean pack', files: CLEAN_PACK }],
  invalid: [
    {
      files: { 'skills/a/skill.json': pack({ name: 'web_search' }), 'skills/a/run.sh': ECHO },
      findings: [
        {
          message: 'skill "web_search" already registered, skipping $R/skills/a/skill.json',
          line: 1,
          column: 2,
          hint: '"web_search" is a builtin skill of the manager: rename this pack.',
          file: 'skills/a/skill.json',
        },
      ],
    },
  ],
})
