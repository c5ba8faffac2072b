import rule from '../../../../src/core/lint/rules/native-keywords-missing.js'
import { ruleTester } from '../rule-tester.js'
import { CLEAN_NATIVE } from './fixtures.js'

ruleTester(rule, {
  valid: [
    { name: 'a clean SKILL.md', files: CLEAN_NATIVE },
    {
      // U+FEFF is not white space to Go: the mode is unknown (always), not keyword.
      name: 'a keyword mode behind U+FEFF is not keyword to the manager',
      files: {
        'skills/n/SKILL.md':
          '---\nname: a\ndescription: d\nactivation: {mode: "\\uFEFFkeyword", keywords: [" "]}\n---\n',
      },
    },
  ],
  invalid: [
    {
      files: {
        'skills/n/SKILL.md':
          '---\nname: a\ndescription: d\nactivation: {mode: Keyword, keywords: [" "]}\n---\n',
      },
      findings: [
        {
          message:
            'activation.mode is "keyword" but there are no keywords: the skill is never included in a turn',
          line: 4,
          column: 20,
          file: 'skills/n/SKILL.md',
        },
      ],
    },
    {
      // Go's strings.TrimSpace trims U+0085 (NEL), which JS's trim() keeps.
      name: 'a keyword mode padded with U+0085 is keyword to the manager',
      files: {
        'skills/n/SKILL.md':
          '---\nname: a\ndescription: d\nactivation: {mode: "keyword\\N", keywords: ["\\N"]}\n---\n',
      },
      findings: [
        {
          message:
            'activation.mode is "keyword" but there are no keywords: the skill is never included in a turn',
          line: 4,
          column: 20,
          file: 'skills/n/SKILL.md',
        },
      ],
    },
  ],
})
