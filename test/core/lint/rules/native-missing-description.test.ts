import rule from '../../../../src/core/lint/rules/native-missing-description.js'
import { ruleTester } from '../rule-tester.js'
import { CLEAN_NATIVE } from './fixtures.js'

ruleTester(rule, {
  valid: [{ name: 'a clean SKILL.md', files: CLEAN_NATIVE }],
  invalid: [
    {
      files: { 'skills/n/SKILL.md': '---\nname: a\n---\n' },
      findings: [
        {
          message: "chatruntime: $R/skills/n/SKILL.md: frontmatter missing required field 'description'",
          line: 1,
          column: 1,
          file: 'skills/n/SKILL.md',
        },
      ],
    },
  ],
})
