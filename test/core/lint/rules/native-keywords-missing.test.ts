import rule from '../../../../src/core/lint/rules/native-keywords-missing.js'
import { ruleTester } from '../rule-tester.js'
import { CLEAN_NATIVE } from './fixtures.js'

ruleTester(rule, {
  valid: [{ name: 'a clean SKILL.md', files: CLEAN_NATIVE }],
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
  ],
})
