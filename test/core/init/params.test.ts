import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import {
  type Param,
  paramsCases,
  paramsCodeValues,
  paramsSchema,
  paramsTable,
  parseParamSpec,
  parseParams,
  sampleArgs,
} from '../../../src/core/init/params.js'
import { renderText } from '../../../src/core/init/render.js'
import { TemplateError } from '../../../src/core/init/templates.js'

describe('--param NAME:TYPE[:DESCRIPTION]', () => {
  test('the description may hold colons; blanks around the parts are dropped', () => {
    assert.deepEqual(parseParamSpec(' url : string : The URL: https://x:8080/ '), {
      ok: true,
      value: { name: 'url', type: 'string', description: 'The URL: https://x:8080/', required: false },
    })
    assert.deepEqual(parseParamSpec('n:integer'), {
      ok: true,
      value: { name: 'n', type: 'integer', description: '', required: false },
    })
  })

  test('a name is an identifier; a type one of six, with a did-you-mean', () => {
    for (const bad of [
      'a-b:string',
      '1a:string',
      'a b:string',
      ':string',
      `${'a'.repeat(65)}:string`,
      'é:string',
    ]) {
      const r = parseParamSpec(bad)
      assert.equal(r.ok, false, bad)
    }
    assert.ok(parseParamSpec(`_${'a'.repeat(63)}:string`).ok)
    const r = parseParamSpec('a:bool')
    assert.deepEqual(r, {
      ok: false,
      problem: 'param type "bool" is not one of string, integer, number, boolean, array, object',
      hint: 'did you mean "boolean"?',
    })
    assert.equal((parseParamSpec('a:float') as { hint?: string }).hint, undefined)
  })

  test('--required marks params, by name or NAME,NAME; an unknown one is refused', () => {
    const r = parseParams(['a:string:A', 'b:integer:B', 'c:boolean:C'], ['a', 'c,b'])
    assert.ok(r.ok)
    assert.deepEqual(
      r.value.map((p) => p.required),
      [true, true, true],
    )
    const bad = parseParams(['path:string'], ['pth'])
    assert.equal(bad.ok, false)
    assert.equal((bad as { hint?: string }).hint, 'did you mean "path"?')
    assert.equal(parseParams(['a:string', 'a:string'], []).ok, false)
  })
})

const PARAMS: Param[] = [
  { name: 'path', type: 'string', description: 'Where | to look', required: true },
  { name: 'n', type: 'integer', description: '', required: false },
  { name: 'not_a_param', type: 'boolean', description: 'B', required: false },
]

describe('what the params make', () => {
  test('the schema: a property per param (a description when given), required when marked', () => {
    assert.deepEqual(paramsSchema(PARAMS), {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: {
        path: { type: 'string', description: 'Where | to look' },
        n: { type: 'integer' },
        not_a_param: { type: 'boolean', description: 'B' },
      },
      required: ['path'],
      additionalProperties: false,
    })
    assert.equal(paramsSchema([PARAMS[1]]).required, undefined)
  })

  test('the sample args and the cases; the unknown field never collides with a param', () => {
    assert.deepEqual(sampleArgs(PARAMS), { path: 'example', n: 1, not_a_param: true })
    const cases = paramsCases('s', PARAMS) as {
      name: string
      args: Record<string, unknown>
      expect: unknown
    }[]
    assert.deepEqual(
      cases.map((c) => c.name),
      [
        'answers the sample args',
        'refuses an unknown field',
        'refuses args without path',
        'refuses path of the wrong type',
      ],
    )
    assert.deepEqual(cases[1].args.not_a_param_, 1)
    assert.deepEqual(cases[1].expect, {
      error: 'subprocess skill s: exit 1 (stderr: s: invalid args: not_a_param_: unknown field)',
    })
    assert.deepEqual(cases[3].args.path, 1)
  })

  test('the code gets names and types only; descriptions stay in Markdown', () => {
    const code = Object.values(paramsCodeValues(PARAMS)).join('\n')
    assert.ok(!code.includes('Where'))
    assert.equal(
      paramsCodeValues(PARAMS).params_json,
      '{"path":"string","n":"integer","not_a_param":"boolean"}',
    )
    assert.equal(paramsCodeValues(PARAMS).params_bash, '[path]=string [n]=integer [not_a_param]=boolean')
    assert.match(paramsTable(PARAMS), /\| `path` \| string, required \| Where \\\| to look \|/)
    assert.throws(
      () => renderText('x = "{{params_table}}"', 'run.py', { params_table: 't' }),
      (e: unknown) => e instanceof TemplateError && /never into code/.test((e as Error).message),
    )
    assert.equal(
      renderText('P = {{params_json}}', 'run.py', paramsCodeValues(PARAMS)),
      `P = ${paramsCodeValues(PARAMS).params_json}`,
    )
  })
})
