import rule from '../../../../src/core/lint/rules/schema-invalid.js'
import { ECHO } from '../../../helpers/tree.js'
import { ruleTester } from '../rule-tester.js'
import { CLEAN_PACK, pack } from './fixtures.js'

/** The manager's verdict beside each finding: it never checks a schema. */
const OFFERED = 'the manager does not check the schema: it offers the tool with it as written (--show-tool).'

const TYPE_LIST = pack({ schema: { type: 'object', properties: { a: { type: ['string', 'nul'] } } } })
const TYPE_NUMBER = pack({ schema: { type: 'object', properties: { b: { type: 5 } } } })

ruleTester(rule, {
  valid: [{ name: 'a clean pack', files: CLEAN_PACK }],
  invalid: [
    {
      files: {
        'skills/a/skill.json': pack({ schema: { type: 'object', properties: { a: { type: 'strin' } } } }),
        'skills/a/run.sh': ECHO,
      },
      findings: [
        {
          message:
            'schema/properties/a/type: must be equal to one of the allowed values: ["array","boolean","integer","null","number","object","string"]; did you mean "string"?',
          line: 1,
          column: 202,
          file: 'skills/a/skill.json',
        },
      ],
    },
    {
      name: 'a type list with a slip: one finding, at the item',
      files: {
        'skills/a/skill.json': TYPE_LIST,
        'skills/a/run.sh': ECHO,
      },
      findings: [
        {
          message:
            'schema/properties/a/type/1: must be equal to one of the allowed values: ["array","boolean","integer","null","number","object","string"]; did you mean "null"?',
          line: 1,
          column: TYPE_LIST.indexOf('"nul"') + 1,
          file: 'skills/a/skill.json',
        },
      ],
    },
    {
      name: 'a type that is no string: one finding, no suggestion',
      files: {
        'skills/a/skill.json': TYPE_NUMBER,
        'skills/a/run.sh': ECHO,
      },
      findings: [
        {
          message:
            'schema/properties/b/type: must be equal to one of the allowed values: ["array","boolean","integer","null","number","object","string"]',
          line: 1,
          column: TYPE_NUMBER.indexOf('"type":5') + 1,
          file: 'skills/a/skill.json',
        },
      ],
    },
    {
      files: {
        'skills/a/skill.json': pack({
          schema: { type: 'object', properties: {}, additionalProperties: false, bogus: 1 },
        }),
        'skills/a/run.sh': ECHO,
      },
      findings: [
        {
          message: 'schema: strict mode: unknown keyword: "bogus"',
          line: 1,
          column: 228,
          hint: `${OFFERED} ajv’s strict mode refuses keywords and formats it does not know: fix the spelling, or drop it.`,
          file: 'skills/a/skill.json',
        },
      ],
    },
  ],
})

const POINTING = pack({
  schema: {
    type: 'object',
    properties: {
      bogus: { type: 'string', description: 'd' },
      u: { type: 'string', description: 'u', format: 'nope' },
    },
    additionalProperties: false,
    bogus: 1,
  },
})
const FORMAT_ONLY = POINTING.replace(',"bogus":1', '')

ruleTester(rule, {
  valid: [],
  invalid: [
    {
      name: 'an unknown keyword: at the keyword, not at a property of the same name',
      files: { 'skills/a/skill.json': POINTING, 'skills/a/run.sh': ECHO },
      findings: [
        {
          message: 'schema: strict mode: unknown keyword: "bogus"',
          line: 1,
          column: POINTING.indexOf('"bogus":1') + 1,
          hint: `${OFFERED} ajv’s strict mode refuses keywords and formats it does not know: fix the spelling, or drop it.`,
          file: 'skills/a/skill.json',
        },
      ],
    },
    {
      name: 'an unknown format: at its subschema’s format',
      files: { 'skills/a/skill.json': FORMAT_ONLY, 'skills/a/run.sh': ECHO },
      findings: [
        {
          message: /unknown format "nope"/,
          line: 1,
          column: FORMAT_ONLY.indexOf('"format"') + 1,
          file: 'skills/a/skill.json',
        },
      ],
    },
  ],
})

const NOT_A_STRING = pack({
  schema: { $schema: 1, type: 'object', properties: {}, additionalProperties: false },
})
// A schema no other case checks (ajv's verdicts are memoised per schema).
const AFTER = pack({ schema: { type: 'object', properties: { after: { type: 'strin' } } } })
const METAS_ID = pack({
  schema: { $id: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: {} },
})

ruleTester(rule, {
  valid: [],
  invalid: [
    {
      name: 'a $schema that is not a string: the meta-schema says so (ajv itself throws on it)',
      files: { 'skills/a/skill.json': NOT_A_STRING, 'skills/a/run.sh': ECHO },
      findings: [
        {
          message: 'schema/$schema: must be string',
          line: 1,
          column: NOT_A_STRING.indexOf('"$schema"') + 1,
          hint: OFFERED,
          file: 'skills/a/skill.json',
        },
      ],
    },
    {
      name: 'the meta-schema’s own $id: refused, and the packs after it are still checked',
      files: {
        'skills/a/skill.json': METAS_ID,
        'skills/a/run.sh': ECHO,
        'skills/b/skill.json': AFTER,
        'skills/b/run.sh': ECHO,
      },
      findings: [
        {
          message:
            'schema: schema with key or id "https://json-schema.org/draft/2020-12/schema" already exists',
          line: 1,
          column: METAS_ID.indexOf('"schema"') + 1,
          hint: OFFERED,
          file: 'skills/a/skill.json',
        },
        ...[
          'schema/properties/after/type: must be equal to one of the allowed values: ["array","boolean","integer","null","number","object","string"]; did you mean "string"?',
        ].map((message) => ({
          message,
          line: 1,
          column: AFTER.indexOf('"type":"strin"') + 1,
          file: 'skills/b/skill.json',
        })),
      ],
    },
  ],
})

const UNRESOLVED = pack({
  schema: { type: 'object', properties: { a: { $ref: '#/$defs/nope', description: 'a' } } },
})
const MUTATING = pack({ class: 'mutating', schema: { type: 'object', $id: 5, properties: {} } })

ruleTester(rule, {
  valid: [],
  invalid: [
    {
      name: 'a $ref ajv cannot resolve (ajv throws): a finding, the manager’s verdict beside it',
      files: { 'skills/a/skill.json': UNRESOLVED, 'skills/a/run.sh': ECHO },
      findings: [
        {
          message: /^schema: can't resolve reference #\/\$defs\/nope from id /,
          line: 1,
          column: UNRESOLVED.indexOf('"schema"') + 1,
          hint: OFFERED,
          file: 'skills/a/skill.json',
        },
      ],
    },
    {
      name: 'a skill the bridge does not offer: the verdict says so',
      files: { 'skills/a/skill.json': MUTATING, 'skills/a/run.sh': ECHO },
      findings: [
        {
          message: 'schema/$id: must be string',
          line: 1,
          column: MUTATING.indexOf('"$id"') + 1,
          hint: 'the manager does not check the schema (and offers only safe skills to the LLM, not this mutating one).',
          file: 'skills/a/skill.json',
        },
      ],
    },
  ],
})
