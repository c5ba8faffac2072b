import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { checkSchema } from '../../../src/core/schema/check.js'
import { ajvCheck, compileSchema, draftOf, selectDraft } from '../../../src/core/schema/compile.js'

describe('selectDraft', () => {
  test('$schema picks the draft; none → 2020-12; others unsupported', () => {
    assert.deepEqual(selectDraft({}), { draft: '2020-12' })
    assert.deepEqual(selectDraft({ $schema: 5 }), { draft: '2020-12' })
    assert.deepEqual(selectDraft({ $schema: 'http://json-schema.org/draft-07/schema#' }), {
      draft: 'draft-07',
    })
    assert.deepEqual(selectDraft({ $schema: 'https://json-schema.org/draft-07/schema' }), {
      draft: 'draft-07',
    })
    assert.deepEqual(selectDraft({ $schema: 'https://json-schema.org/draft/2020-12/schema' }), {
      draft: '2020-12',
    })
    assert.deepEqual(selectDraft({ $schema: 'http://json-schema.org/draft-04/schema#' }), {
      unsupported: 'http://json-schema.org/draft-04/schema#',
    })
    assert.equal(draftOf({ $schema: 'http://json-schema.org/draft-07/schema#' }), 'draft-07')
  })
})

describe('ajvCheck (strict mode)', () => {
  test('meta-schema violations come with a pointer into the schema', async () => {
    const v = await ajvCheck({ type: 'object', properties: { a: { type: 'strin' } } }, '2020-12')
    assert.ok(v.invalid.length > 0)
    assert.ok(v.invalid.every((p) => p.pointer === '/properties/a/type'))
    assert.equal(v.compileError, null)
  })
  test('unknown keywords and formats are compile errors', async () => {
    assert.match(
      (await ajvCheck({ type: 'object', foo: 1 }, '2020-12')).compileError ?? '',
      /unknown keyword: "foo"/,
    )
    assert.match(
      (await ajvCheck({ type: 'string', format: 'nope' }, '2020-12')).compileError ?? '',
      /unknown format "nope"/,
    )
  })
  test('draft-07 and 2020-12 differ (items as an array)', async () => {
    const s = { type: 'array', items: [{ type: 'string' }] }
    const d7 = await ajvCheck({ $schema: 'http://json-schema.org/draft-07/schema#', ...s }, 'draft-07')
    assert.deepEqual([d7.invalid, d7.compileError], [[], null])
    const d20 = await ajvCheck(s, '2020-12')
    assert.ok(d20.invalid.length > 0 || d20.compileError !== null)
  })
  test('defaults and examples are checked against their own subschema, also after a strict error', async () => {
    const v = await ajvCheck(
      {
        type: 'object',
        properties: {
          n: { type: 'integer', minimum: 1, default: 0, examples: [2, 'x'] },
          s: { type: 'string', bogus: true, default: 3 },
        },
      },
      '2020-12',
    )
    assert.match(v.compileError ?? '', /bogus/)
    assert.deepEqual(
      v.defaults.map((d) => d.pointer),
      ['/properties/n/default', '/properties/n/examples/1', '/properties/s/default'],
    )
    assert.match(v.defaults[0].message, /must be >= 1/)
  })
  test('the same $id in many schemas does not collide (one ajv instance is reused)', async () => {
    for (let i = 0; i < 3; i++) {
      const v = await ajvCheck(
        { $id: 'https://example.com/s.json', type: 'object', properties: {} },
        '2020-12',
      )
      assert.equal(v.compileError, null)
    }
  })
  test('checkSchema skips ajv for schemas it can prove, and reports unsupported drafts', async () => {
    assert.equal(Object.hasOwn(await checkSchema({ type: 'object', properties: {} }), 'via'), true)
    const v = await checkSchema({ type: 'object', properties: {} })
    assert.ok('via' in v && v.via === 'builtin')
    const w = await checkSchema({
      type: 'object',
      properties: { a: { $ref: '#/$defs/x' } },
      $defs: { x: { type: 'string' } },
    })
    assert.ok('via' in w && w.via === 'ajv' && w.compileError === null)
    assert.deepEqual(await checkSchema({ $schema: 'http://json-schema.org/draft-04/schema#' }), {
      unsupported: 'http://json-schema.org/draft-04/schema#',
    })
  })
  test('compileSchema (used by run) still works', async () => {
    const c = await compileSchema(
      { type: 'object', properties: { a: { type: 'integer' } } },
      { strict: false },
    )
    assert.ok(c.ok)
    if (c.ok) assert.equal(c.schema.validate({ a: 'x' }), false)
  })
})
