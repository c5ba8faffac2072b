import rule from '../../../../src/core/lint/rules/run-entry-directory.js'
import { ruleTester } from '../rule-tester.js'
import { CLEAN_PACK, pack } from './fixtures.js'

ruleTester(rule, {
  valid: [{ name: 'a clean pack', files: CLEAN_PACK }],
  invalid: [
    {
      files: { 'skills/a/skill.json': pack({ entry: 'bin' }), 'skills/a/bin': { dir: true } },
      findings: [
        {
          message: 'subprocess skill: entry $R/skills/a/bin is a directory',
          line: 1,
          column: 83,
          file: 'skills/a/skill.json',
        },
      ],
    },
  ],
})
