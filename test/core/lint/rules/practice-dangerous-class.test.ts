import rule from '../../../../src/core/lint/rules/practice-dangerous-class.js'
import { ECHO } from '../../../helpers/tree.js'
import { ruleTester } from '../rule-tester.js'
import { CLEAN_PACK, pack } from './fixtures.js'

ruleTester(rule, {
  valid: [
    { name: 'a clean pack', files: CLEAN_PACK },
    {
      name: 'mutating',
      files: { 'skills/a/skill.json': pack({ class: 'mutating' }), 'skills/a/run.sh': ECHO },
    },
  ],
  invalid: [
    {
      files: { 'skills/a/skill.json': pack({ class: 'dangerous' }), 'skills/a/run.sh': ECHO },
      findings: [
        {
          message:
            'dangerous skills are refused to every caller ("forbidden: dangerous skills require SOP signature (not implemented)") and never reach the LLM: this skill cannot run',
          line: 1,
          column: 100,
          file: 'skills/a/skill.json',
        },
      ],
    },
  ],
})
