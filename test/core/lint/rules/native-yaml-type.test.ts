import rule from '../../../../src/core/lint/rules/native-yaml-type.js'
import { ruleTester } from '../rule-tester.js'
import { CLEAN_NATIVE } from './fixtures.js'

ruleTester(rule, {
  valid: [{ name: 'a clean SKILL.md', files: CLEAN_NATIVE }],
  invalid: [
    {
      files: { 'skills/n/SKILL.md': '---\nname: [a]\n---\n' },
      findings: [
        {
          message:
            'chatruntime: parse $R/skills/n/SKILL.md frontmatter: yaml: unmarshal errors:\n  line 1: cannot unmarshal !!seq into string',
          line: 2,
          column: 1,
          file: 'skills/n/SKILL.md',
        },
      ],
    },
  ],
})
