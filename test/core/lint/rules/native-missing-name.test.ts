import rule from '../../../../src/core/lint/rules/native-missing-name.js'
import { ruleTester } from '../rule-tester.js'
import { CLEAN_NATIVE } from './fixtures.js'

ruleTester(rule, {
  valid: [{ name: 'a clean SKILL.md', files: CLEAN_NATIVE }],
  invalid: [
    {
      files: { 'skills/n/SKILL.md': '# no frontmatter\n' },
      findings: [
        {
          message: "chatruntime: $R/skills/n/SKILL.md: frontmatter missing required field 'name'",
          line: 1,
          column: 1,
          hint: 'no frontmatter: the first non-blank line must be exactly "---" (it is "# no frontmatter")',
          file: 'skills/n/SKILL.md',
        },
      ],
    },
  ],
})
