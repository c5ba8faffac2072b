import rule from '../../../../src/core/lint/rules/native-activation-mode.js'
import { ruleTester } from '../rule-tester.js'
import { CLEAN_NATIVE } from './fixtures.js'

ruleTester(rule, {
  valid: [{ name: 'a clean SKILL.md', files: CLEAN_NATIVE }],
  invalid: [
    {
      files: { 'skills/n/SKILL.md': '---\nname: a\ndescription: d\nactivation: {mode: sometimes}\n---\n' },
      findings: [
        {
          message:
            'activation.mode "sometimes" is not "always" or "keyword": the manager treats it as always, silently',
          line: 4,
          column: 20,
          file: 'skills/n/SKILL.md',
        },
      ],
    },
  ],
})
