import rule from '../../../../src/core/lint/rules/practice-timeout-llm-deadline.js'
import { ECHO } from '../../../helpers/tree.js'
import { ruleTester } from '../rule-tester.js'
import { CLEAN_PACK, pack } from './fixtures.js'

ruleTester(rule, {
  valid: [
    { name: 'a clean pack', files: CLEAN_PACK },
    {
      name: 'exactly 15 s',
      files: { 'skills/a/skill.json': pack({ timeout_seconds: 15 }), 'skills/a/run.sh': ECHO },
    },
    {
      name: 'a mutating skill is not called by the LLM',
      files: {
        'skills/a/skill.json': pack({ class: 'mutating', timeout_seconds: 60 }),
        'skills/a/run.sh': ECHO,
      },
    },
  ],
  invalid: [
    {
      files: { 'skills/a/skill.json': pack({ timeout_seconds: 16 }), 'skills/a/run.sh': ECHO },
      findings: [
        {
          message:
            'the legacy agent gives each tool call 15s: an LLM call of this skill is cut there and reported as "timed out after 16s"',
          line: 1,
          column: 115,
          file: 'skills/a/skill.json',
        },
      ],
    },
  ],
})
