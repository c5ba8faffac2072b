import rule from '../../../../src/core/lint/rules/native-no-frontmatter.js'
import { ruleTester } from '../rule-tester.js'
import { CLEAN_NATIVE } from './fixtures.js'

ruleTester(rule, {
  valid: [{ name: 'a clean SKILL.md', files: CLEAN_NATIVE }],
  invalid: [
    {
      files: { 'skills/n/SKILL.md': ' ---\nname: a\n---\n' },
      findings: [
        {
          message:
            '" ---" is not a frontmatter fence for the manager: the line must be exactly "---" (trailing spaces allowed), with nothing before it',
          line: 1,
          column: 1,
          file: 'skills/n/SKILL.md',
        },
      ],
    },
  ],
})
