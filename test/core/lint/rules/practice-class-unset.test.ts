import rule from '../../../../src/core/lint/rules/practice-class-unset.js'
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
      files: { 'skills/a/skill.json': pack({ class: undefined }), 'skills/a/run.sh': ECHO },
      findings: [
        {
          message:
            'class is not set: the manager defaults it to "safe" without a word (offered to the LLM, runnable by every role); set "safe", "mutating" or "dangerous" explicitly',
          line: 1,
          column: 1,
          file: 'skills/a/skill.json',
        },
      ],
    },
  ],
})
