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
            'the frontmatter is not valid YAML: Flow sequence in block collection must be sufficiently indented and end with a ] (the manager rejects the file with “chatruntime: parse $R/skills/n/SKILL.md frontmatter: yaml: …” in yaml.v3’s own words, not reproduced here)',
          line: 2,
          column: 9,
          file: 'skills/n/SKILL.md',
        },
      ],
    },
  ],
})
