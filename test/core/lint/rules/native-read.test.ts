import rule from '../../../../src/core/lint/rules/native-read.js'
import { ruleTester } from '../rule-tester.js'
import { CLEAN_NATIVE } from './fixtures.js'

ruleTester(rule, {
  valid: [{ name: 'a clean SKILL.md', files: CLEAN_NATIVE }],
  invalid: [
    {
      files: { 'skills/n/SKILL.md': { link: 'nowhere' } },
      findings: [
        {
          message:
            'chatruntime: read $R/skills/n/SKILL.md: open $R/skills/n/SKILL.md: no such file or directory',
          line: 1,
          column: 1,
          file: 'skills/n/SKILL.md',
        },
      ],
    },
  ],
})
