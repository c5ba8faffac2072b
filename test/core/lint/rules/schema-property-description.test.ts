import rule from '../../../../src/core/lint/rules/schema-property-description.js'
import { ECHO } from '../../../helpers/tree.js'
import { ruleTester } from '../rule-tester.js'
import { CLEAN_PACK, colOf, pack } from './fixtures.js'

ruleTester(rule, {
  valid: [
    { name: 'a clean pack', files: CLEAN_PACK },
    {
      name: 'a $ref carries its own description',
      files: {
        'skills/a/skill.json': pack({
          schema: {
            type: 'object',
            properties: { a: { $ref: '#/$defs/a' } },
            $defs: { a: { type: 'string' } },
            additionalProperties: false,
          },
        }),
        'skills/a/run.sh': ECHO,
      },
    },
  ],
  invalid: [
    {
      files: {
        'skills/a/skill.json': pack({
          schema: {
            type: 'object',
            properties: {
              a: {
                type: 'object',
                description: 'a',
                properties: { b: { type: 'string' } },
                additionalProperties: false,
              },
            },
            additionalProperties: false,
          },
        }),
        'skills/a/run.sh': ECHO,
      },
      findings: [
        {
          message: 'property "b" (at /properties/a) has no description: tell the LLM what to pass',
          line: 1,
          column: 250,
          file: 'skills/a/skill.json',
        },
      ],
    },
    {
      name: 'each property without one',
      files: {
        'skills/a/skill.json': pack({
          schema: {
            type: 'object',
            properties: { a: { type: 'string' }, b: { type: 'string' } },
            additionalProperties: false,
          },
        }),
        'skills/a/run.sh': ECHO,
      },
      findings: [
        {
          message: 'property "a" has no description: tell the LLM what to pass',
          line: 1,
          column: colOf(
            {
              schema: {
                type: 'object',
                properties: { a: { type: 'string' }, b: { type: 'string' } },
                additionalProperties: false,
              },
            },
            '"a"',
          ),
          file: 'skills/a/skill.json',
        },
        {
          message: 'property "b" has no description: tell the LLM what to pass',
          line: 1,
          column: colOf(
            {
              schema: {
                type: 'object',
                properties: { a: { type: 'string' }, b: { type: 'string' } },
                additionalProperties: false,
              },
            },
            '"b"',
          ),
          file: 'skills/a/skill.json',
        },
      ],
    },
  ],
})

/** Properties nested `n` levels (each described), the innermost `deep` without a description. */
const DEEP_LEVELS = 400
const DEEP = pack({ schema: { type: 'object', properties: { a: '@' } } }).replace(
  '"@"',
  `${'{"type":"object","description":"d","properties":{"a":'.repeat(DEEP_LEVELS - 1)}{"type":"object","description":"d","properties":{"deep":{"type":"string"}}}${'}}'.repeat(DEEP_LEVELS - 1)}`,
)

ruleTester(rule, {
  valid: [],
  invalid: [
    {
      name: 'a property 800 levels deep (past the 200 the walk once stopped at, silently)',
      files: { 'skills/a/skill.json': DEEP, 'skills/a/run.sh': ECHO },
      findings: [
        {
          message: `property "deep" (at ${'/properties/a'.repeat(DEEP_LEVELS)}) has no description: tell the LLM what to pass`,
          line: 1,
          column: DEEP.indexOf('"deep"') + 1,
          file: 'skills/a/skill.json',
        },
      ],
    },
  ],
})
