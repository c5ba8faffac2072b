import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { lineDiff, pretty, project, subsetMismatches } from '../../../src/core/testcases/match.js'

describe('result matching', () => {
  test('objects match as subsets, recursively', () => {
    assert.deepEqual(subsetMismatches({ a: 1, b: { c: 2 } }, { a: 1, b: { c: 2, d: 3 }, e: 4 }), [])
    assert.deepEqual(subsetMismatches({ b: { c: 2 } }, { b: { c: 3 } }), [
      { pointer: '/b/c', message: 'expected 2, got 3' },
    ])
    assert.deepEqual(subsetMismatches({ x: 1 }, {}), [{ pointer: '/x', message: 'missing' }])
    assert.deepEqual(subsetMismatches({ x: {} }, { x: [] }), [
      { pointer: '/x', message: 'expected an object, got an array' },
    ])
    assert.deepEqual(subsetMismatches({ 'a/b': 1 }, { 'a/b': 2 })[0].pointer, '/a~1b')
  })

  test('arrays and scalars match exactly', () => {
    assert.deepEqual(subsetMismatches([{ a: 1 }], [{ a: 1, b: 2 }]).length, 1)
    assert.deepEqual(subsetMismatches([1, 2], [1, 2, 3]).length, 1)
    assert.deepEqual(subsetMismatches([1, 2], [1, 2]), [])
    assert.deepEqual(subsetMismatches('a', 'a'), [])
    assert.deepEqual(subsetMismatches(null, 0).length, 1)
    assert.deepEqual(subsetMismatches(1, '1').length, 1)
  })

  test('the diff shows only the expected keys of the actual value', () => {
    const e = { used: 10, path: '/tmp' }
    const a = { used: 11, path: '/tmp', free: 5 }
    assert.deepEqual(project(e, a), { used: 11, path: '/tmp' })
    assert.deepEqual(lineDiff(pretty(e), pretty(project(e, a))), [
      '  {',
      '-   "used": 10,',
      '+   "used": 11,',
      '    "path": "/tmp"',
      '  }',
    ])
  })

  test('a __proto__ key is shown like any other', () => {
    const e = JSON.parse('{"__proto__":1,"a":{"__proto__":[1]}}')
    const a = JSON.parse('{"__proto__":2,"a":{"__proto__":[2]},"b":3}')
    assert.equal(JSON.stringify(project(e, a)), '{"__proto__":2,"a":{"__proto__":[2]}}')
  })

  test('long unchanged runs are elided', () => {
    const a = Array.from({ length: 20 }, (_, i) => `l${i}`)
    const b = [...a]
    b[10] = 'X'
    const d = lineDiff(a.join('\n'), b.join('\n'), 1)
    assert.deepEqual(d, ['  …', '  l9', '- l10', '+ X', '  l11', '  …'])
  })
})
