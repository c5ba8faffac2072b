import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { describe, test } from 'node:test'
import { checkSchema } from '../../../src/core/schema/check.js'
import {
  AJV_MAX_DEPTH,
  ajvCheck,
  compileSchema,
  draftOf,
  issues,
  jsonDepth,
  selectDraft,
} from '../../../src/core/schema/compile.js'

/** A schema that nests `levels` subschemas of one kind around `{"type":"string"}`. */
const NESTERS: Record<string, (s: Record<string, unknown>) => Record<string, unknown>> = {
  items: (s) => ({ type: 'array', items: s }),
  properties: (s) => ({ type: 'object', properties: { a: s } }),
  anyOf: (s) => ({ anyOf: [s] }),
  allOf: (s) => ({ allOf: [s, { type: 'object' }] }),
  not: (s) => ({ not: s }),
  $defs: (s) => ({ $defs: { a: s } }),
  additionalProperties: (s) => ({ type: 'object', additionalProperties: s }),
  'items with defaults': (s) => ({ type: 'array', items: s, default: [] }),
}
function nested(kind: string, levels: number): Record<string, unknown> {
  let s: Record<string, unknown> = { type: 'string' }
  for (let i = 0; i < levels; i++) s = NESTERS[kind](s)
  return s
}

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

describe('depth: what ajv is given', () => {
  test('jsonDepth counts objects and arrays, iteratively (Go allows 10000 levels)', () => {
    assert.equal(jsonDepth(1), 0)
    assert.equal(jsonDepth({}), 1)
    assert.equal(jsonDepth({ a: [1, { b: [] }], c: 2 }), 4)
    assert.equal(jsonDepth(nested('items', 20000)), 20001)
  })
  for (const kind of Object.keys(NESTERS)) {
    test(`10000 levels of ${kind}: not given to ajv, said so, no throw`, async () => {
      const s = nested(kind, 10000)
      const v = await ajvCheck(s, '2020-12')
      assert.equal(v.unchecked, `it nests ${jsonDepth(s)} levels, deeper than the 100 ajv is given`)
      assert.deepEqual([v.invalid, v.compileError, v.defaults], [[], null, []])
      const c = await compileSchema(s, { strict: false })
      assert.deepEqual(c, { ok: false, error: v.unchecked })
    })
  }
  test('up to AJV_MAX_DEPTH (100) ajv checks it; one level more, it does not', async () => {
    assert.equal(AJV_MAX_DEPTH, 100)
    // {"type":"string"} is one level: 99 around it make 100.
    const at = await ajvCheck(nested('items', 99), '2020-12')
    assert.equal(at.unchecked, null)
    const past = await ajvCheck(nested('items', 100), '2020-12')
    assert.equal(past.unchecked, 'it nests 101 levels, deeper than the 100 ajv is given')
    assert.equal((await compileSchema(nested('items', 99), { strict: false })).ok, true)
  })
  test('ajv running out of stack within 100 levels (a small stack): an unchecked verdict, not a throw', () => {
    // 49 levels of anyOf (99 JSON levels) on stacks small enough for ajv to overflow on them.
    const script = `
      import { ajvCheck } from ${JSON.stringify(new URL('../../../src/core/schema/compile.js', import.meta.url).href)}
      let s = { type: 'string' }
      for (let i = 0; i < 49; i++) s = { anyOf: [s] }
      const v = await ajvCheck(s, '2020-12')
      console.log(JSON.stringify(v.unchecked))`
    const seen = new Set<string>()
    for (let kb = 80; kb <= 400; kb += 20) {
      const r = spawnSync(process.execPath, [`--stack-size=${kb}`, '--input-type=module', '-e', script], {
        encoding: 'utf8',
      })
      // Too small a stack fails in the import already: not ajv.
      if (
        r.status !== 0 &&
        /at async ModuleLoader|ModuleJob|Maximum call stack/.test(r.stderr) &&
        r.stdout === ''
      )
        continue
      assert.equal(r.status, 0, r.stderr)
      seen.add(JSON.parse(r.stdout) ?? 'checked')
    }
    assert.ok(seen.has('ajv ran out of stack on it (Maximum call stack size exceeded)'), [...seen].join(', '))
  })
  test('between 100 and 1000 levels (where ajv overflows the stack, ~390), no throw', async () => {
    for (const kind of ['anyOf', 'items']) {
      const v = await ajvCheck(nested(kind, 500), '2020-12')
      assert.match(v.unchecked ?? '', /deeper than the 100 ajv is given/)
    }
  })
})

describe('ajvCheck (strict mode)', () => {
  test('a message depends on the schema alone, not on how many were checked before it', async () => {
    // ajv quotes the key a schema was added under; a counter there made the lsp server's message
    // differ from lint's for the same file.
    const first = await ajvCheck({ type: 'object', $ref: '#/nope', title: 'a' }, '2020-12')
    for (let i = 0; i < 5; i++) await ajvCheck({ type: 'object', title: `other ${i}` }, '2020-12')
    const again = await ajvCheck({ type: 'object', $ref: '#/nope', title: 'b' }, '2020-12')
    assert.match(first.compileError ?? '', /from id ongrid-skill:schema\b/)
    assert.equal(again.compileError, first.compileError)
  })
  test('a $schema that is not a string is a meta-schema violation, not a throw', async () => {
    for (const bad of [1, null, {}, true]) {
      const v = await ajvCheck({ $schema: bad, type: 'object' }, '2020-12')
      assert.deepEqual(v.invalid, [{ pointer: '/$schema', message: 'must be string' }])
      assert.equal(v.unchecked, null)
    }
    const v = await checkSchema({ $schema: 1, type: 'object' })
    assert.ok('invalid' in v)
    assert.deepEqual(v.invalid, [{ pointer: '/$schema', message: 'must be string' }])
  })
  test('an $id that is the meta-schema’s is refused, and the next schema is still checked', async () => {
    for (const [id, draft] of [
      ['https://json-schema.org/draft/2020-12/schema', '2020-12'],
      ['http://json-schema.org/draft-07/schema#', 'draft-07'],
    ] as const) {
      const v = await ajvCheck({ $id: id, type: 'object' }, draft)
      assert.match(v.compileError ?? '', /already exists/)
      const next = await ajvCheck({ type: 'object', properties: { a: { type: 'strin' } } }, draft)
      assert.ok(next.invalid.length > 0)
    }
  })
  test('other top-level keys ajv refuses are findings, never throws', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ $id: 1 }, /^\/\$id: must be string$/],
      [{ $id: 'x#y' }, /^\/\$id: must match pattern/],
      [{ $ref: 1 }, /^\/\$ref: must be string$/],
      [{ $ref: '#/nope' }, /^compile: can't resolve reference #\/nope/],
      [{ $ref: 'http://example.com/x' }, /^compile: can't resolve reference/],
      [{ $anchor: 1 }, /^\/\$anchor: must be string$/],
      [{ $vocabulary: 1 }, /^\/\$vocabulary: must be object$/],
      [{ $comment: 1 }, /^\/\$comment: must be string$/],
      [
        { $id: 'https://json-schema.org/draft/2020-12/schema' },
        /^compile: schema with key or id .* already exists$/,
      ],
      [{ pattern: '(' }, /^compile: Invalid regular expression/],
      [{ format: 'nope' }, /^compile: unknown format "nope"/],
    ]
    for (const [extra, want] of cases) {
      const v = await ajvCheck({ type: 'object', ...extra }, '2020-12')
      const got = [
        ...v.invalid.map((p) => `${p.pointer}: ${p.message}`),
        ...(v.compileError === null ? [] : [`compile: ${v.compileError}`]),
      ]
      assert.ok(
        got.some((g) => want.test(g)),
        `${JSON.stringify(extra)}: ${JSON.stringify(got)}`,
      )
    }
  })
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
  test('a default under a pattern that may backtrack for ever is not run on this thread; one recheck finds safe is', async () => {
    // 40 a's and a '!' take ^(a+)+$ about 2^40 steps: run here, the check would never end.
    const bad = { type: 'string', pattern: '^(a+)+$', default: `${'a'.repeat(40)}!`, examples: ['b'] }
    for (const v of [
      await checkSchema({ type: 'object', properties: { a: bad } }),
      await ajvCheck({ type: 'object', properties: { a: bad } }, '2020-12'),
    ]) {
      assert.ok(!('unsupported' in v))
      assert.deepEqual(v.defaults, [])
    }
    // Not proved linear (an alternation), but safe for recheck: checked as before.
    const alt = { type: 'string', pattern: '^(a|b)+$', default: 'c', examples: ['ab', 'x'] }
    const v = await checkSchema({ type: 'object', properties: { a: alt } })
    assert.ok(!('unsupported' in v))
    assert.deepEqual(
      v.defaults.map((d) => d.pointer),
      ['/properties/a/default', '/properties/a/examples/1'],
    )
    assert.match(v.defaults[0].message, /must match pattern/)
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

describe('issues: ajv’s errors on args, folded, with did-you-mean', () => {
  const check = async (schema: Record<string, unknown>, value: unknown) => {
    const c = await compileSchema(schema, { strict: false })
    assert.ok(c.ok)
    assert.equal(c.schema.validate(value), false)
    return issues(c.schema.validate.errors, schema, value)
  }
  test('a key not allowed that is a slip of a property; a required one missing beside it', async () => {
    const schema = { type: 'object', properties: { port: { type: 'integer' } }, required: ['port'] }
    assert.deepEqual(await check({ ...schema, additionalProperties: false }, { prt: 22 }), [
      {
        pointer: '/port',
        message: 'must have required property \'port\' (args has "prt": did you mean "port"?)',
      },
      { pointer: '/prt', message: 'is not allowed (additionalProperties: false); did you mean "port"?' },
    ])
    assert.deepEqual(await check(schema, { zzz: 22 }), [
      { pointer: '/port', message: "must have required property 'port'" },
    ])
  })
  test('a value off an enum of strings, nested', async () => {
    const schema = { type: 'object', properties: { mode: { enum: ['fast', 'slow'] } } }
    assert.deepEqual(await check(schema, { mode: 'fsat' }), [
      {
        pointer: '/mode',
        message: 'must be equal to one of the allowed values: ["fast","slow"]; did you mean "fast"?',
      },
    ])
  })
  test('one location, one line: an anyOf whose branch of the value’s type said why', async () => {
    const schema = { anyOf: [{ type: 'integer' }, { type: 'string', maxLength: 2 }] }
    assert.deepEqual(await check(schema, 'abc'), [
      { pointer: '/', message: 'must NOT have more than 2 characters' },
    ])
  })
})
