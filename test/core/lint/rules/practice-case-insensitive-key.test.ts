import rule from '../../../../src/core/lint/rules/practice-case-insensitive-key.js'
import { ECHO } from '../../../helpers/tree.js'
import { ruleTester } from '../rule-tester.js'
import { CLEAN_PACK, pack } from './fixtures.js'

ruleTester(rule, {
  valid: [{ name: 'a clean pack', files: CLEAN_PACK }],
  invalid: [
    {
      files: { 'skills/a/skill.json': pack({ entry: undefined, Entry: 'run.sh' }), 'skills/a/run.sh': ECHO },
      findings: [
        {
          message:
            'key "Entry" was read as "entry": Go matches keys to fields case-insensitively; spell it "entry"',
          line: 1,
          column: 274,
          file: 'skills/a/skill.json',
        },
      ],
    },
  ],
})
