import rule from '../../../../src/core/lint/rules/practice-unknown-key.js'
import { ECHO } from '../../../helpers/tree.js'
import { ruleTester } from '../rule-tester.js'
import { CLEAN_PACK, pack } from './fixtures.js'

ruleTester(rule, {
  valid: [
    { name: 'a clean pack', files: CLEAN_PACK },
    {
      name: '$schema names the file’s JSON Schema',
      files: { 'skills/a/skill.json': pack({ $schema: 'x.json' }), 'skills/a/run.sh': ECHO },
    },
    {
      name: 'a near miss is the other rule’s',
      files: { 'skills/a/skill.json': pack({ timeout: 3 }), 'skills/a/run.sh': ECHO },
    },
  ],
  invalid: [
    {
      files: { 'skills/a/skill.json': pack({ author: 'me' }), 'skills/a/run.sh': ECHO },
      findings: [
        {
          message: 'unknown key "author" is ignored by the manager',
          line: 1,
          column: 291,
          file: 'skills/a/skill.json',
        },
      ],
    },
    {
      name: 'each unknown key',
      files: { 'skills/a/skill.json': pack({ author: 'me', license: 'MIT' }), 'skills/a/run.sh': ECHO },
      findings: [
        {
          message: 'unknown key "author" is ignored by the manager',
          line: 1,
          column: 291,
          file: 'skills/a/skill.json',
        },
        {
          message: 'unknown key "license" is ignored by the manager',
          line: 1,
          column: 305,
          file: 'skills/a/skill.json',
        },
      ],
    },
  ],
})
