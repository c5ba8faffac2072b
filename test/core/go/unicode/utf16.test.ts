import assert from 'node:assert/strict'
import { test } from 'node:test'
import { decodeRune, encodeRune, isSurrogate } from '../../../../src/core/go/unicode/utf16.js'

// Expected values from Go 1.19's unicode/utf16.

test('isSurrogate and encodeRune', () => {
  const cases: [number, boolean, number, number][] = [
    [0x0, false, 0xfffd, 0xfffd],
    [0xd7ff, false, 0xfffd, 0xfffd],
    [0xd800, true, 0xfffd, 0xfffd],
    [0xdbff, true, 0xfffd, 0xfffd],
    [0xdc00, true, 0xfffd, 0xfffd],
    [0xdfff, true, 0xfffd, 0xfffd],
    [0xe000, false, 0xfffd, 0xfffd],
    [0x10000, false, 0xd800, 0xdc00],
    [0x10ffff, false, 0xdbff, 0xdfff],
    [0x110000, false, 0xfffd, 0xfffd],
    [-1, false, 0xfffd, 0xfffd],
  ]
  for (const [r, surr, r1, r2] of cases) {
    assert.equal(isSurrogate(r), surr, r.toString(16))
    assert.deepEqual(encodeRune(r), [r1, r2], r.toString(16))
  }
})

test('decodeRune', () => {
  const cases: [number, number, number][] = [
    [0xd800, 0xdc00, 0x10000],
    [0xdbff, 0xdfff, 0x10ffff],
    [0xd83d, 0xde00, 0x1f600],
    [0xdc00, 0xd800, 0xfffd],
    [0xd800, 0x41, 0xfffd],
    [0xd800, 0xd800, 0xfffd],
    [0x41, 0xdc00, 0xfffd],
    [0xd800, -1, 0xfffd],
  ]
  for (const [r1, r2, want] of cases) assert.equal(decodeRune(r1, r2), want)
})
