import rule from '../../../../src/core/lint/rules/native-activation-mode.js'
import { ruleTester } from '../rule-tester.js'
import { CLEAN_NATIVE } from './fixtures.js'

ruleTester(rule, {
  valid: [
    { name: 'a clean SKILL.md', files: CLEAN_NATIVE },
    {
      // Go's strings.TrimSpace trims U+0085 (NEL), which JS's trim() keeps.
      name: 'a mode padded with U+0085 is "always" to the manager',
      files: {
        'skills/n/SKILL.md': '---\nname: a\ndescription: d\nactivation: {mode: "\\Nalways\\N"}\n---\n',
      },
    },
  ],
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
    {
      // U+FEFF is not white space to Go (JS's trim() removes it): an unknown mode.
      name: 'a mode behind U+FEFF is not "always" to the manager',
      files: {
        'skills/n/SKILL.md': '---\nname: a\ndescription: d\nactivation: {mode: "\\uFEFFalways"}\n---\n',
      },
      findings: [
        {
          message:
            'activation.mode "\ufeffalways" is not "always" or "keyword": the manager treats it as always, silently',
          line: 4,
          column: 20,
          file: 'skills/n/SKILL.md',
        },
      ],
    },
  ],
})
