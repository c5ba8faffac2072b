import rule from '../../../../src/core/lint/rules/practice-not-offered-to-llm.js'
import { ECHO } from '../../../helpers/tree.js'
import { ruleTester } from '../rule-tester.js'
import { CLEAN_PACK, pack } from './fixtures.js'

ruleTester(rule, {
  valid: [{ name: 'a clean pack', files: CLEAN_PACK }],
  invalid: [
    {
      files: { 'skills/a/skill.json': pack({ class: 'mutating' }), 'skills/a/run.sh': ECHO },
      findings: [
        {
          message:
            'mutating skills are never offered to the LLM (the bridge takes safe skills only); they run through the REST API, for the admin and user roles',
          line: 1,
          column: 100,
          file: 'skills/a/skill.json',
        },
      ],
    },
  ],
})
