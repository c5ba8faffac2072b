import rule from '../../../../src/core/lint/rules/practice-description-length.js'
import { ECHO } from '../../../helpers/tree.js'
import { ruleTester } from '../rule-tester.js'
import { CLEAN_PACK, pack } from './fixtures.js'

ruleTester(rule, {
  valid: [
    { name: 'a clean pack', files: CLEAN_PACK },
    {
      name: '20 characters',
      files: { 'skills/a/skill.json': pack({ description: 'x'.repeat(20) }), 'skills/a/run.sh': ECHO },
    },
    {
      name: '1024 characters',
      files: { 'skills/a/skill.json': pack({ description: 'é'.repeat(1024) }), 'skills/a/run.sh': ECHO },
    },
  ],
  invalid: [
    {
      files: { 'skills/a/skill.json': pack({ description: 'Too short' }), 'skills/a/run.sh': ECHO },
      findings: [
        {
          message:
            'the description has 9 characters: say what the skill does and when to use it in at least 20',
          line: 1,
          column: 17,
          file: 'skills/a/skill.json',
        },
      ],
    },
    {
      files: { 'skills/a/skill.json': pack({ description: 'é'.repeat(1025) }), 'skills/a/run.sh': ECHO },
      findings: [
        {
          message: 'the description has 1025 characters: keep it under 1024, the LLM reads it on every turn',
          line: 1,
          column: 17,
          file: 'skills/a/skill.json',
        },
      ],
    },
  ],
})
