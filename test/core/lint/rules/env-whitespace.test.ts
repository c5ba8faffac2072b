import rule from '../../../../src/core/lint/rules/env-whitespace.js'
import { ECHO } from '../../../helpers/tree.js'
import { ruleTester } from '../rule-tester.js'
import { CLEAN_PACK, colOf, pack } from './fixtures.js'

ruleTester(rule, {
  valid: [{ name: 'a clean pack', files: CLEAN_PACK }],
  invalid: [
    {
      files: { 'skills/a/skill.json': pack({ env_allow: [' PATH'] }), 'skills/a/run.sh': ECHO },
      findings: [
        {
          message: '" PATH" has surrounding white space: write "PATH"',
          line: 1,
          column: 149,
          file: 'skills/a/skill.json',
        },
      ],
      output: { 'skills/a/skill.json': pack({ env_allow: ['PATH'] }) },
    },
    {
      name: 'before and after',
      files: { 'skills/a/skill.json': pack({ env_allow: ['PATH ', '\tHOME'] }), 'skills/a/run.sh': ECHO },
      findings: [
        {
          message: '"PATH " has surrounding white space: write "PATH"',
          line: 1,
          column: colOf({ env_allow: ['PATH ', '\tHOME'] }, '"PATH "'),
          file: 'skills/a/skill.json',
        },
        {
          message: '"\\tHOME" has surrounding white space: write "HOME"',
          line: 1,
          column: colOf({ env_allow: ['PATH ', '\tHOME'] }, '"\\tHOME"'),
          file: 'skills/a/skill.json',
        },
      ],
      output: { 'skills/a/skill.json': pack({ env_allow: ['PATH', 'HOME'] }) },
    },
    {
      name: 'escapes and layout',
      files: {
        'skills/a/skill.json': '{\n  "name": "a",\n  "env_allow": [ "PATH" ,\n    "\\u0020HOME\\t" ]\n}\n',
        'skills/a/run.sh': ECHO,
      },
      findings: [{ message: '" HOME\\t" has surrounding white space: write "HOME"', line: 4, column: 5 }],
      output: { 'skills/a/skill.json': '{\n  "name": "a",\n  "env_allow": [ "PATH" ,\n    "HOME" ]\n}\n' },
    },
  ],
})
