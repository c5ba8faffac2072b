import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { stringify, stringifyDeep } from '../../src/core/json-text.js'

function nested(depth: number, leaf: unknown = 1): unknown {
  let v: unknown = leaf
  for (let d = 0; d < depth; d++) v = d % 2 === 0 ? [v, null] : { k: v, 'é"': 'x' }
  return v
}

function depthOf(v: unknown): number {
  let d = 0
  for (;;) {
    if (Array.isArray(v)) v = v[0]
    else if (v !== null && typeof v === 'object') v = (v as { k: unknown }).k
    else return d
    d++
  }
}

describe('stringify', () => {
  test('the iterative writer gives JSON.stringify’s text where that one manages', () => {
    const values: unknown[] = [
      null,
      0,
      -1.5e300,
      'a\u2028"\\\ud800',
      [],
      {},
      [undefined, () => 1, 'x'],
      { a: undefined, b: [1, { c: {} }], d: 'e', f: null, g: { toJSON: () => 'G' } },
      new Date(0),
      nested(40),
    ]
    for (const v of values) {
      for (const indent of [0, 2]) {
        assert.equal(
          stringifyDeep(v, indent),
          JSON.stringify(v, null, indent),
          `${JSON.stringify(v)} ${indent}`,
        )
      }
    }
  })
  test('depth 10000 (Go’s limit): no stack overflow, the same value back', () => {
    const v = nested(10000)
    assert.throws(() => JSON.stringify(v, null, 2), RangeError)
    for (const indent of [0, 2]) {
      const text = stringify(v, indent)
      assert.equal(depthOf(JSON.parse(text)), 10000)
      assert.equal(stringifyDeep(JSON.parse(text), 0), stringifyDeep(v, 0))
    }
    // Indented near the top, compact deep down: megabytes, not hundreds of them.
    assert.ok(stringify(v, 2).length < 2_000_000)
  })
})
