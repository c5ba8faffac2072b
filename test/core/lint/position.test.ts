import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { fromText } from '../../../src/core/go/gostring.js'
import { LineIndex } from '../../../src/core/lint/position.js'

describe('LineIndex', () => {
  const raw = fromText('ab\n\u00e9t\u00e9 x\r\n\n€z')
  const ix = new LineIndex(raw)
  test('1-based line and column in characters', () => {
    assert.deepEqual(ix.position(0), { line: 1, column: 1 })
    assert.deepEqual(ix.position(2), { line: 1, column: 3 })
    assert.deepEqual(ix.position(3), { line: 2, column: 1 })
    // "été x": é is 2 bytes; the byte of "x" is at 3 + 2+1+2+1 = 9 → column 5
    assert.deepEqual(ix.position(9), { line: 2, column: 5 })
    // the CR counts as a character of its line
    assert.deepEqual(ix.position(10), { line: 2, column: 6 })
    assert.deepEqual(ix.position(12), { line: 3, column: 1 })
    // "€" is 3 bytes: "z" is column 2 of line 4
    assert.deepEqual(ix.position(16), { line: 4, column: 2 })
  })
  test('offsets past the end are clamped', () => {
    assert.deepEqual(ix.position(1000), { line: 4, column: 3 })
    assert.deepEqual(new LineIndex('').position(0), { line: 1, column: 1 })
  })
})
