import rule from '../../../../src/core/lint/rules/native-yaml.js'
import { ruleTester } from '../rule-tester.js'
import { CLEAN_NATIVE } from './fixtures.js'

ruleTester(rule, {
  valid: [{ name: 'a clean SKILL.md', files: CLEAN_NATIVE }],
  invalid: [
    {
      files: { 'skills/n/SKILL.md': '---\nname: [a\n---\n' },
      findings: [
        {
          message:
            "chatruntime: parse $R/skills/n/SKILL.md frontmatter: yaml: line 1: did not find expected ',' or ']'",
          line: 2,
          column: 9,
          file: 'skills/n/SKILL.md',
        },
      ],
    },
  ],
})
