import rule from '../../../../src/core/lint/rules/native-tool-class.js'
import { ruleTester } from '../rule-tester.js'
import { CLEAN_NATIVE } from './fixtures.js'

ruleTester(rule, {
  valid: [{ name: 'a clean SKILL.md', files: CLEAN_NATIVE }],
  invalid: [
    {
      files: {
        'skills/n/SKILL.md': '---\nname: a\ndescription: d\ntools:\n  - name: t\n    class: readonly\n---\n',
      },
      findings: [
        {
          message:
            'tool "t": class "readonly" is not read, write or destructive (the manager accepts any value without a word)',
          line: 6,
          column: 12,
          file: 'skills/n/SKILL.md',
        },
      ],
    },
  ],
})
