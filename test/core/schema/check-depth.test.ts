/**
 * The schema checker's helpers over JSON values take any depth Go's decoder accepts (10000):
 * the decode into Go values, their conversion for ajv, equality and the pattern search never
 * overflow the stack.
 */
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { hasPatterns } from '../../../src/core/schema/bounded.js'
import { checkSchema, goToJs } from '../../../src/core/schema/check.js'
import { decodeBridgeSchema, marshal } from '../../../src/core/schema/go-any.js'
import { jsonEqual } from '../../../src/core/schema/simple.js'

const DEPTHS = [1001, 5000, 9990]
const nested = (n: number, leaf: string) => `${'{"a":['.repeat(n / 2)}${leaf}${']}'.repeat(n / 2)}`

describe('schema values nested up to Go’s 10000 levels', () => {
  for (const n of [1000, 5000, 9990]) {
    test(`${n} levels: decoded, converted for ajv with the deepest key and value kept`, () => {
      const text = `{"x":${nested(n - 2, '{"__proto__":"deep","n":1e3}')}}`
      const d = decodeBridgeSchema(text, 0)
      assert.ok(d.ok)
      assert.equal(marshal(d.value), text.replace('1e3', '1000'))
      let v = goToJs(d.value) as Record<string, unknown>
      v = v.x as Record<string, unknown>
      for (let i = 0; i < (n - 2) / 2; i++) v = (v.a as Record<string, unknown>[])[0]
      assert.deepEqual(Object.keys(v), ['__proto__', 'n'])
      assert.equal(Object.getPrototypeOf(v), Object.prototype)
      assert.equal(Object.getOwnPropertyDescriptor(v, '__proto__')?.value, 'deep')
      assert.equal(v.n, 1000)
    })
  }
  for (const n of DEPTHS) {
    test(`${n} levels: jsonEqual tells equal and different values apart`, () => {
      const a = JSON.parse(nested(n, '1'))
      assert.equal(jsonEqual(a, JSON.parse(nested(n, '1'))), true)
      assert.equal(jsonEqual(a, JSON.parse(nested(n, '2'))), false)
      assert.equal(jsonEqual(a, JSON.parse(nested(n, '[1]'))), false)
    })
    test(`${n} levels: hasPatterns finds the deepest pattern`, () => {
      assert.equal(hasPatterns(JSON.parse(nested(n, '{"pattern":"^a$"}'))), true)
      assert.equal(hasPatterns(JSON.parse(nested(n, '{"patternx":"^a$"}'))), false)
    })
    test(`${n} levels: checkSchema gives a verdict on a deep enum (ajv is not given it)`, async () => {
      const deep = nested(n - 4, '1')
      const v = await checkSchema(JSON.parse(`{"type":"object","enum":[${deep},${deep}]}`))
      assert.ok(!('unsupported' in v))
      assert.match(v.unchecked ?? '', /deeper than the 100 ajv is given/)
    })
  }
})
