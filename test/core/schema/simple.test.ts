import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { seeded } from '../../../src/core/agent/score.js'
import { ajvCheck, type Draft } from '../../../src/core/schema/compile.js'
import { instanceValid, KNOWN_FORMATS, provenValid } from '../../../src/core/schema/simple.js'

/** mulberry32: a small seeded PRNG, so failures reproduce. */
function prng(seed: number) {
  const next = seeded(seed)
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)],
    chance: (p: number) => next() < p,
  }
}
type R = ReturnType<typeof prng>

const TYPES = ['string', 'integer', 'number', 'boolean', 'array', 'object', 'null'] as const

function value(r: R, depth = 0): unknown {
  switch (r.int(depth > 1 ? 5 : 7)) {
    case 0:
      return r.pick(['', 'a', 'abc', 'hello world', '/', 'x'.repeat(12), '2024-01-01'])
    case 1:
      return r.pick([0, 1, -1, 3, 2.5, 100, 65535])
    case 2:
      return r.chance(0.5)
    case 3:
      return null
    case 4:
      return r.pick(['json', 'text', 7])
    case 5:
      return Array.from({ length: r.int(3) }, () => value(r, depth + 1))
    default:
      return Object.fromEntries(Array.from({ length: r.int(3) }, (_, i) => [`k${i}`, value(r, depth + 1)]))
  }
}

function schema(r: R, draft: Draft, depth = 0): Record<string, unknown> {
  const s: Record<string, unknown> = {}
  const t = r.pick(TYPES)
  if (r.chance(0.85)) s.type = r.chance(0.1) ? [t, 'null'] : r.chance(0.02) ? 'objekt' : t
  if (r.chance(0.5)) s.description = r.chance(0.97) ? 'A thing.' : 5
  if (r.chance(0.15)) s.title = 'T'
  if (t === 'string') {
    if (r.chance(0.3)) s.minLength = r.pick([0, 1, 2, -1])
    if (r.chance(0.3)) s.maxLength = r.pick([3, 10, 1.5])
    if (r.chance(0.2)) s.pattern = r.pick(['^a', '^[a-z]+$', '(', '\\d+', 'a\\Z'])
    if (r.chance(0.15)) s.format = r.pick(['uri', 'date', 'email', 'hostname', 'no-such-format'])
    if (r.chance(0.2)) s.enum = r.pick([['json', 'text'], [], ['a', 'a']])
  }
  if (t === 'integer' || t === 'number') {
    if (r.chance(0.4)) s.minimum = r.pick([0, 1, 3])
    if (r.chance(0.4)) s.maximum = r.pick([10, 100, '5'])
    if (r.chance(0.15)) s.exclusiveMinimum = r.pick([0, true])
    if (r.chance(0.1)) s.multipleOf = r.pick([2, 0, 0.5])
  }
  if (t === 'array') {
    if (r.chance(0.6)) s.items = depth < 2 ? schema(r, draft, depth + 1) : { type: 'string' }
    if (r.chance(0.3)) s.minItems = r.pick([0, 1])
    if (r.chance(0.2)) s.uniqueItems = r.pick([true, false, 'yes'])
  }
  if (t === 'object' && depth < 2) {
    const props: Record<string, unknown> = {}
    for (let i = r.int(3); i > 0; i--) props[`p${i}`] = r.chance(0.05) ? true : schema(r, draft, depth + 1)
    s.properties = props
    if (r.chance(0.4)) s.required = r.pick([Object.keys(props), ['zz'], ['a', 'a']])
    if (r.chance(0.4)) s.additionalProperties = r.pick([false, true, { type: 'string' }])
  }
  if (r.chance(0.05)) s.deprecated = true
  if (r.chance(0.04))
    s[r.pick(['nullable', '$ref', 'oneOf', 'foo'])] = r.pick([true, '#/x', [{ type: 'string' }]])
  if (r.chance(0.1)) s.const = value(r)
  if (r.chance(0.45)) s.default = value(r)
  if (r.chance(0.15)) s.examples = [value(r), value(r)]
  return s
}

describe('simple.ts proves only what ajv accepts', () => {
  test('every schema proven valid is accepted by ajv in strict mode, defaults and examples included', async () => {
    const r = prng(20240501)
    let proven = 0
    let total = 0
    for (let i = 0; i < 1500; i++) {
      const draft: Draft = r.chance(0.3) ? 'draft-07' : '2020-12'
      const s = schema(r, draft)
      if (draft === 'draft-07') s.$schema = 'http://json-schema.org/draft-07/schema#'
      total++
      if (!provenValid(s, draft)) continue
      proven++
      const v = await ajvCheck(s, draft)
      assert.deepEqual(
        { invalid: v.invalid, compileError: v.compileError, defaults: v.defaults },
        { invalid: [], compileError: null, defaults: [] },
        `proven valid, but ajv disagrees on ${JSON.stringify(s)} (${draft})`,
      )
    }
    // The generator must exercise both outcomes, or this test proves nothing.
    assert.ok(proven > total * 0.2 && proven < total * 0.8, `${proven} of ${total} proven`)
  })

  test('what it refuses to vouch for (ajv decides)', () => {
    const no = (s: unknown, draft: Draft = '2020-12') =>
      assert.equal(provenValid(s, draft), false, JSON.stringify(s))
    no({ type: 'object', $ref: '#/$defs/x' })
    no({ type: 'objekt' })
    no({ type: 'string', format: 'no-such' })
    no({ type: 'string', pattern: 'a\\Z' })
    no({ type: 'integer', default: 'x' })
    no({ type: 'string', format: 'uri', default: 'x' })
    no({ type: 'number', multipleOf: 2, default: 3 })
    no({ enum: [] })
    no({ deprecated: true }, 'draft-07')
    no({ properties: { a: { type: 'string', nullable: true } } })
    assert.equal(
      provenValid(
        { type: 'object', properties: { a: { type: 'string', default: 'x', format: 'uri' } } },
        '2020-12',
      ),
      false,
    )
  })

  test('what it vouches for', () => {
    const yes = (s: unknown) => assert.equal(provenValid(s, '2020-12'), true, JSON.stringify(s))
    yes({ type: 'object', properties: {}, additionalProperties: false })
    yes({ type: 'object', properties: { path: { type: 'string', description: 'x', default: '/' } } })
    yes({
      type: 'object',
      properties: { n: { type: 'integer', minimum: 1, maximum: 100, default: 3 } },
      required: ['n'],
    })
    yes({ type: 'object', properties: { f: { type: 'string', enum: ['json', 'text'], default: 'json' } } })
    yes({ type: 'object', properties: { names: { type: 'array', items: { type: 'string' }, default: [] } } })
  })

  test('KNOWN_FORMATS is ajv-formats’ full list', async () => {
    const formats = (await import('ajv-formats/dist/formats.js')) as unknown as {
      fullFormats: Record<string, unknown>
    }
    assert.deepEqual([...KNOWN_FORMATS].sort(), Object.keys(formats.fullFormats).sort())
  })

  test('instanceValid: undecided on formats and multipleOf, decided otherwise', () => {
    assert.equal(instanceValid({ type: 'string', format: 'uri' }, 'x'), undefined)
    assert.equal(instanceValid({ type: 'number', multipleOf: 2 }, 3), undefined)
    assert.equal(instanceValid({ type: 'number', multipleOf: 2 }, 'x'), false)
    assert.equal(instanceValid({ type: 'string', maxLength: 1 }, '😀'), true)
    assert.equal(instanceValid({ type: 'object', required: ['a'] }, {}), false)
    assert.equal(instanceValid({ type: 'array', uniqueItems: true }, [{ a: 1 }, { a: 1 }]), false)
  })
})
