import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { bytesOf } from '../../../../src/core/go/gostring.js'
import {
  isGraphic,
  isPrint,
  quote,
  quoteRune,
  quoteRuneToASCII,
  quoteRuneToGraphic,
  quoteToASCII,
  quoteToGraphic,
  unquote,
  unquoteChar,
} from '../../../../src/core/go/strconv/quote.js'

// Byte strings in and out; expected values printed by Go 1.19's strconv.Quote.
const QUOTE: [string, string][] = [
  ['', '""'],
  ['hello', '"hello"'],
  ['skill-name_v2.yaml', '"skill-name_v2.yaml"'],
  [`a"b\\c'd`, `"a\\"b\\\\c'd"`],
  ['\x07\x08\x0c\n\r\t\x0b', '"\\a\\b\\f\\n\\r\\t\\v"'],
  ['\x00\x01\x1b\x1f', '"\\x00\\x01\\x1b\\x1f"'],
  ['\x7f', '"\\x7f"'],
  // Invalid UTF-8: one \xHH per byte.
  ['\xff', '"\\xff"'],
  ['\x80', '"\\x80"'],
  ['a\xffb\xfe', '"a\\xffb\\xfe"'],
  ['\xc0\x80', '"\\xc0\\x80"'], // overlong
  ['\xc1\xbf', '"\\xc1\\xbf"'],
  ['\xed\xa0\x80', '"\\xed\\xa0\\x80"'], // surrogate
  ['\xf4\x90\x80\x80', '"\\xf4\\x90\\x80\\x80"'], // above U+10FFFF
  ['\xf5\x80\x80\x80', '"\\xf5\\x80\\x80\\x80"'],
  ['\xe2\x82', '"\\xe2\\x82"'], // truncated
  ['\xe2\x82x', '"\\xe2\\x82x"'],
  ['\xf0\x9f\x98', '"\\xf0\\x9f\\x98"'],
  // Latin-1 fast path.
  ['\xc3\xa9 \xc3\xb1 \xc2\xa1 \xc3\xbf', '"\xc3\xa9 \xc3\xb1 \xc2\xa1 \xc3\xbf"'],
  ['\xc2\xa0', '"\\u00a0"'], // NBSP
  ['\xc2\xad', '"\\u00ad"'], // soft hyphen
  ['\xc2\x85', '"\\u0085"'], // NEL
  ['\xc2\x80\xc2\x9f', '"\\u0080\\u009f"'],
  ['\xe2\x80\xa8\xe2\x80\xa9', '"\\u2028\\u2029"'],
  ['\xf0\x9f\x98\x80', '"\xf0\x9f\x98\x80"'], // 😀
  ['\xee\x80\x80', '"\\ue000"'], // private use
  ['\xf3\xb0\x80\x80', '"\\U000f0000"'], // supplementary private use
  ['\xcd\xb8', '"\\u0378"'], // unassigned
  ['e\xcc\x81', '"e\xcc\x81"'], // combining acute
  ['\xf3\xa0\x80\x81', '"\\U000e0001"'], // LANGUAGE TAG (Cf)
  ['\xef\xbb\xbf', '"\\ufeff"'],
  ['\xef\xbf\xbd', '"\xef\xbf\xbd"'], // a real U+FFFD is printable
  ['\xe2\x80\x8b', '"\\u200b"'],
  ['\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e', '"\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e"'],
  ['\xe3\x80\x80', '"\\u3000"'],
  ['\xe0\xa2\x90', '"\\u0890"'], // Cf added in 14.0
  ['\xf0\x93\x90\xb9', '"\\U00013439"'], // Cf added in 15.0
  ['\xf0\x9f\xab\xa9', '"\\U0001fae9"'], // unassigned until 16.0
  ['\xf0\x90\xb5\x80', '"\\U00010d40"'], // unassigned until 16.0
]

// Printable since Unicode 14.0/15.0 (Go 1.21+). Go 1.19, on Unicode 13, escapes
// them (e.g. "\U0001fae8"); Go 1.25 copies them raw.
const QUOTE_UNICODE_15: [string, string][] = [
  ['\xf0\x9f\xab\xa8', '"\xf0\x9f\xab\xa8"'], // U+1FAE8 SHAKING FACE (15.0)
  ['\xf0\x9f\xab\xa0', '"\xf0\x9f\xab\xa0"'], // U+1FAE0 MELTING FACE (14.0)
  ['\xe0\xa1\xb0', '"\xe0\xa1\xb0"'], // U+0870 (14.0)
  ['\xf0\x91\xbc\x80', '"\xf0\x91\xbc\x80"'], // U+11F00 KAWI (15.0)
  ['\xf0\xb1\x8d\x90', '"\xf0\xb1\x8d\x90"'], // U+31350 CJK Ext. H (15.0)
  ['\xf0\x9e\x93\x90', '"\xf0\x9e\x93\x90"'], // U+1E4D0 NAG MUNDARI (15.0)
]

describe('strconv.Quote', () => {
  for (const [input, want] of [...QUOTE, ...QUOTE_UNICODE_15]) {
    test(JSON.stringify(input), () => assert.equal(quote(input), want))
  }

  test('long mixed input', () => {
    const s = 'name: '.repeat(1000) + '\n\xff\xc3\xa9'
    assert.equal(quote(s), '"' + 'name: '.repeat(1000) + '\\n\\xff\xc3\xa9"')
  })
})

describe('strconv quoting variants', () => {
  test('QuoteToASCII', () => {
    assert.equal(
      quoteToASCII(bytesOf('h\xc3\xa9llo\n\xf0\x9f\x98\x80\xff')),
      '"h\\u00e9llo\\n\\U0001f600\\xff"',
    )
  })

  test('QuoteToGraphic', () => {
    assert.equal(
      quoteToGraphic(bytesOf('a\xc2\xa0b\xe3\x80\x80\t\xe2\x80\xa8')),
      '"a\xc2\xa0b\xe3\x80\x80\\t\\u2028"',
    )
  })

  test('QuoteRune', () => {
    const cases: [number, string][] = [
      [0x61, "'a'"],
      [0x27, "'\\''"],
      [0x22, `'"'`],
      [0x5c, "'\\\\'"],
      [0x0a, "'\\n'"],
      [0x7f, "'\\x7f'"],
      [0xe9, "'\xc3\xa9'"],
      [0xad, "'\\u00ad'"],
      [0x2028, "'\\u2028'"],
      [0x1f600, "'\xf0\x9f\x98\x80'"],
      [0xe0001, "'\\U000e0001'"],
      [0xd800, "'\xef\xbf\xbd'"],
      [0x110000, "'\xef\xbf\xbd'"],
      [-1, "'\xef\xbf\xbd'"],
      [0xfffd, "'\xef\xbf\xbd'"],
    ]
    for (const [r, want] of cases) assert.equal(quoteRune(r), want, r.toString(16))
    assert.equal(quoteRuneToASCII(0xe9), "'\\u00e9'")
    assert.equal(quoteRuneToGraphic(0x3000), "'\xe3\x80\x80'")
  })

  test('IsPrint / IsGraphic', () => {
    assert.equal(isPrint(0x20), true)
    assert.equal(isPrint(0xa0), false)
    assert.equal(isPrint(0xad), false)
    assert.equal(isPrint(0x1fae8), true) // Unicode 15.0; Go 1.19 says false
    assert.equal(isGraphic(0xa0), true)
    assert.equal(isGraphic(0x2028), false)
  })
})

describe('strconv.Unquote', () => {
  // [input, output or null for ErrSyntax], from Go 1.19.
  const cases: [string, string | null][] = [
    ['"abc"', 'abc'],
    ['"a\\nb"', 'a\nb'],
    ['"\\x41\\u00e9\\U0001F600\\101"', 'A\xc3\xa9\xf0\x9f\x98\x80A'],
    ["'a'", 'a'],
    ["'\\''", "'"],
    ["''", ''], // Go accepts an empty rune literal here
    ["'ab'", null],
    ['`raw\\n\r`', 'raw\\n'],
    ['"unterminated', null],
    ['"a"b', null],
    ['"\\q"', null],
    ['"\\ud800"', null],
    ['"\\400"', null],
    ['"\xff"', '\xef\xbf\xbd'],
    ['"\xff\\n"', '\xef\xbf\xbd\n'],
    ["'\xff'", '\xef\xbf\xbd'],
    ['"a"\n', null],
    ['"a\nb"', null],
    [`"\\'"`, null],
    [`'\\"'`, null],
    ['x', null],
    ['"', null],
    ["'\xc3\xa9'", '\xc3\xa9'],
    ['"\\xff"', '\xff'],
  ]
  for (const [input, want] of cases) {
    test(JSON.stringify(input), () => {
      const res = unquote(bytesOf(input))
      if (want === null) {
        assert.equal(res.ok, false)
        if (!res.ok) assert.equal(res.err.error(), 'invalid syntax')
      } else {
        assert.deepEqual(res, { ok: true, value: want })
      }
    })
  }

  test('unquoteChar', () => {
    assert.deepEqual(unquoteChar('\\"Fran', 0x22), {
      ok: true,
      value: { value: 0x22, multibyte: false, tail: 'Fran' },
    })
    assert.deepEqual(unquoteChar('\xc3\xa9x', 0x22), {
      ok: true,
      value: { value: 0xe9, multibyte: true, tail: 'x' },
    })
    assert.equal(unquoteChar('"', 0x22).ok, false)
    assert.equal(unquoteChar('', 0x22).ok, false)
  })

  test('round trip through quote', () => {
    for (const [input] of QUOTE) {
      if (input.includes('\xff') || !/^[\x00-\xff]*$/.test(input)) continue
      const res = unquote(bytesOf(quote(input)))
      assert.ok(res.ok)
    }
    assert.deepEqual(unquote(bytesOf(quote('a\xffb'))), { ok: true, value: 'a\xffb' })
  })
})
