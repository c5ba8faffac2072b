import rule from '../../../../src/core/lint/rules/schema-required-unknown.js'
import { ECHO } from '../../../helpers/tree.js'
import { ruleTester } from '../rule-tester.js'
import { CLEAN, CLEAN_PACK, colOf, pack } from './fixtures.js'

ruleTester(rule, {
  valid: [{ name: 'a clean pack', files: CLEAN_PACK }],
  invalid: [
    {
      files: {
        'skills/a/skill.json': pack({ schema: { ...CLEAN.schema, required: ['path', 'nope'] } }),
        'skills/a/run.sh': ECHO,
      },
      findings: [
        {
          message: 'required property "nope" is not declared in properties',
          line: 1,
          column: 309,
          file: 'skills/a/skill.json',
        },
      ],
    },
    {
      name: 'each undeclared name',
      files: {
        'skills/a/skill.json': pack({
          schema: { type: 'object', properties: {}, required: ['a', 'b'], additionalProperties: false },
        }),
        'skills/a/run.sh': ECHO,
      },
      findings: [
        {
          message: 'required property "a" is not declared in properties',
          line: 1,
          column: colOf(
            { schema: { type: 'object', properties: {}, required: ['a', 'b'], additionalProperties: false } },
            '"a"',
          ),
          file: 'skills/a/skill.json',
        },
        {
          message: 'required property "b" is not declared in properties',
          line: 1,
          column: colOf(
            { schema: { type: 'object', properties: {}, required: ['a', 'b'], additionalProperties: false } },
            '"b"',
          ),
          file: 'skills/a/skill.json',
        },
      ],
    },
  ],
})
