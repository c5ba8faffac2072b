import { writeFileSync } from 'node:fs'
import rule from '../../../../src/core/lint/rules/practice-absolute-entry.js'
import { ECHO } from '../../../helpers/tree.js'
import { ruleTester } from '../rule-tester.js'
import { CLEAN_PACK, pack } from './fixtures.js'

ruleTester(rule, {
  valid: [{ name: 'a clean pack', files: CLEAN_PACK }],
  invalid: [
    {
      files: { 'skills/a/skill.json': pack(), 'skills/a/run.sh': ECHO },
      setup: (R) => writeFileSync(`${R}/skills/a/skill.json`, pack({ entry: `${R}/skills/a/run.sh` })),
      findings: [
        {
          message:
            'entry is an absolute path: use a path relative to the directory of skill.json so the pack can move',
          line: 1,
          column: 83,
          file: 'skills/a/skill.json',
        },
      ],
    },
  ],
})
