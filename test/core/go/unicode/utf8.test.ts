import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { bytesOf } from '../../../../src/core/go/gostring.js'
import {
  decodeLastRune,
  decodeRune,
  encodeRune,
  fullRune,
  RUNE_ERROR,
  runeCount,
  runeLen,
  validRune,
  validString,
} from '../../../../src/core/go/unicode/utf8.js'

// [input, DecodeRuneInString r/size, DecodeLastRuneInString r/size, ValidString, RuneCountInString,
// FullRuneInString], as printed by Go 1.19 (unicode/utf8 is unchanged through Go 1.25).
const CASES: [string, number, number, number, number, boolean, number, boolean][] = [
  ['', 0xfffd, 0, 0xfffd, 0, true, 0, false],
  ['a', 0x61, 1, 0x61, 1, true, 1, true],
  ['\xc3\xa9', 0xe9, 2, 0xe9, 2, true, 1, true],
  ['\xff', 0xfffd, 1, 0xfffd, 1, false, 1, true],
  ['\xc0\x80', 0xfffd, 1, 0xfffd, 1, false, 2, true],
  ['\xe0\x80\x80', 0xfffd, 1, 0xfffd, 1, false, 3, true],
  ['\xe0\xa0\x80', 0x800, 3, 0x800, 3, true, 1, true],
  ['\xed\x9f\xbf', 0xd7ff, 3, 0xd7ff, 3, true, 1, true],
  ['\xed\xa0\x80', 0xfffd, 1, 0xfffd, 1, false, 3, true],
  ['\xef\xbf\xbd', 0xfffd, 3, 0xfffd, 3, true, 1, true],
  ['\xf0\x8f\xbf\xbf', 0xfffd, 1, 0xfffd, 1, false, 4, true],
  ['\xf0\x90\x80\x80', 0x10000, 4, 0x10000, 4, true, 1, true],
  ['\xf4\x8f\xbf\xbf', 0x10ffff, 4, 0x10ffff, 4, true, 1, true],
  ['\xf4\x90\x80\x80', 0xfffd, 1, 0xfffd, 1, false, 4, true],
  ['\xf0\x9f\x98', 0xfffd, 1, 0xfffd, 1, false, 3, false],
  ['\xe2\x82', 0xfffd, 1, 0xfffd, 1, false, 2, false],
  ['a\x80', 0x61, 1, 0xfffd, 1, false, 2, true],
  ['\x80\x80\x80\x80\xe2\x82\xac', 0xfffd, 1, 0x20ac, 3, false, 5, true],
  ['\xe2\x82\xac\x80', 0x20ac, 3, 0xfffd, 1, false, 2, true],
]

describe('utf8 decoding', () => {
  for (const [s, r, n, lr, ln, valid, count, full] of CASES) {
    test(JSON.stringify(s), () => {
      assert.deepEqual(decodeRune(s, 0), [r, n])
      assert.deepEqual(decodeLastRune(bytesOf(s)), [lr, ln])
      assert.equal(validString(s), valid)
      assert.equal(runeCount(bytesOf(s)), count)
      assert.equal(fullRune(s), full)
    })
  }

  test('decodeRune at an offset and within an end bound', () => {
    const s = 'x\xe2\x82\xacy'
    assert.deepEqual(decodeRune(s, 1), [0x20ac, 3])
    assert.deepEqual(decodeRune(s, 4), [0x79, 1])
    assert.deepEqual(decodeRune(s, 5), [RUNE_ERROR, 0])
    assert.deepEqual(decodeRune(s, 1, 3), [RUNE_ERROR, 1]) // "\xe2\x82" cut short
    assert.deepEqual(decodeLastRune(bytesOf(s), 4), [0x20ac, 3])
    assert.deepEqual(decodeLastRune(bytesOf(s), 4, 2), [RUNE_ERROR, 1]) // s[2:4] = "\x82\xac"
  })

  test('fullRune on short prefixes', () => {
    assert.equal(fullRune('\xf0\x9f'), false)
    assert.equal(fullRune('\xf0\x80'), true) // second byte already invalid for F0
    assert.equal(fullRune('\xf0\x9f\x41'), true) // third byte not a continuation
    assert.equal(fullRune('\xe0\x9f'), true) // overlong lead-in
    assert.equal(fullRune('\xed\xa0'), true) // surrogate lead-in
    assert.equal(fullRune('\xc2'), false)
    assert.equal(fullRune('ab\xc2', 2), false)
  })
})

describe('utf8 encoding', () => {
  // [rune, string(rune) bytes, utf8.RuneLen] from Go 1.19.
  const RUNES: [number, string, number][] = [
    [0x0, '\x00', 1],
    [0x7f, '\x7f', 1],
    [0x80, '\xc2\x80', 2],
    [0x7ff, '\xdf\xbf', 2],
    [0x800, '\xe0\xa0\x80', 3],
    [0xd7ff, '\xed\x9f\xbf', 3],
    [0xd800, '\xef\xbf\xbd', -1],
    [0xdfff, '\xef\xbf\xbd', -1],
    [0xe000, '\xee\x80\x80', 3],
    [0xffff, '\xef\xbf\xbf', 3],
    [0x10000, '\xf0\x90\x80\x80', 4],
    [0x10ffff, '\xf4\x8f\xbf\xbf', 4],
    [0x110000, '\xef\xbf\xbd', -1],
    [-1, '\xef\xbf\xbd', -1],
  ]
  for (const [r, bytes, len] of RUNES) {
    test(`U+${r.toString(16)}`, () => {
      assert.equal(encodeRune(r), bytes)
      assert.equal(runeLen(r), len)
      assert.equal(validRune(r), len > 0)
    })
  }

  test('encodeRune agrees with Node for every valid rune, and decodeRune inverts it', () => {
    for (let r = 0; r <= 0x10ffff; r++) {
      if (r >= 0xd800 && r <= 0xdfff) continue
      const bytes = encodeRune(r)
      if (r % 4099 === 0) assert.equal(bytes, Buffer.from(String.fromCodePoint(r), 'utf8').toString('latin1'))
      const [got, n] = decodeRune(bytes, 0)
      if (got !== r || n !== bytes.length) assert.fail(`U+${r.toString(16)}: got ${got} ${n}`)
    }
  })
})
