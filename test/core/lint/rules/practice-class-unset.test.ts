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
      output: { 'skills/a/skill.json': pack({ class: undefined }).replace(/}$/, ',"class":"safe"}') },
    },
    {
      name: "a member added in the file's layout, numbers as written",
      files: {
        'skills/a/skill.json': '{\n    "name" :  "a",\n    "schema" :  {"maximum": 1.50}\n}\n',
        'skills/a/run.sh': ECHO,
      },
      findings: [{ message: /^class is not set/, line: 1, column: 1, file: 'skills/a/skill.json' }],
      output: {
        'skills/a/skill.json':
          '{\n    "name" :  "a",\n    "schema" :  {"maximum": 1.50},\n    "class" :  "safe"\n}\n',
      },
    },
    {
      name: 'an empty class made "safe" where it is',
      files: {
        'skills/a/skill.json': '{"class": "", "name": "a"}',
        'skills/a/run.sh': ECHO,
      },
      findings: [{ message: /^class is not set/, line: 1, column: 2, file: 'skills/a/skill.json' }],
      output: { 'skills/a/skill.json': '{"class": "safe", "name": "a"}' },
    },
    {
      name: 'an empty object',
      files: { 'skills/a/skill.json': ' { }', 'skills/a/run.sh': ECHO },
      findings: [{ message: /^class is not set/, line: 1, column: 1, file: 'skills/a/skill.json' }],
      output: { 'skills/a/skill.json': ' {"class": "safe" }' },
    },
  ],
})
