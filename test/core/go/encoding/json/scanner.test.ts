import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import {
  checkValid,
  SyntaxError as JSONSyntaxError,
  quoteChar,
  Scanner,
  scanArrayValue,
  scanBeginArray,
  scanBeginLiteral,
  scanBeginObject,
  scanContinue,
  scanEnd,
  scanEndArray,
  scanEndObject,
  scanError,
  scanObjectKey,
  scanObjectValue,
  scanSkipSpace,
  valid,
} from '../../../../../src/core/go/encoding/json/scanner.js'

// [input, SyntaxError text or null, SyntaxError.Offset]: json.Unmarshal's and
// json.Valid's answers from Go 1.19 (byte strings as latin1 escapes).
const cases: [string, string | null, number][] = [
  ['', 'unexpected end of JSON input', 0],
  [' ', 'unexpected end of JSON input', 1],
  ['\x09\x0a\x0d', 'unexpected end of JSON input', 3],
  ['x', "invalid character 'x' looking for beginning of value", 1],
  ['}', "invalid character '}' looking for beginning of value", 1],
  [']', "invalid character ']' looking for beginning of value", 1],
  [',', "invalid character ',' looking for beginning of value", 1],
  [':', "invalid character ':' looking for beginning of value", 1],
  ['\xef\xbb\xbf{}', "invalid character '\xc3\xaf' looking for beginning of value", 1],
  ['\xef\xbb\xbf', "invalid character '\xc3\xaf' looking for beginning of value", 1],
  ['[,]', "invalid character ',' looking for beginning of value", 2],
  ['[1,]', "invalid character ']' looking for beginning of value", 4],
  ['{"a":}', "invalid character '}' looking for beginning of value", 6],
  ['{"a":,}', "invalid character ',' looking for beginning of value", 6],
  ['+1', "invalid character '+' looking for beginning of value", 1],
  ['.5', "invalid character '.' looking for beginning of value", 1],
  ["'a'", "invalid character '\\'' looking for beginning of value", 1],
  ['\x00', "invalid character '\\x00' looking for beginning of value", 1],
  ['\x7f', "invalid character '\\x7f' looking for beginning of value", 1],
  ['\x80', "invalid character '\\u0080' looking for beginning of value", 1],
  ['\xff', "invalid character '\xc3\xbf' looking for beginning of value", 1],
  ['\xc3\xa9', "invalid character '\xc3\x83' looking for beginning of value", 1],
  ['\x0b{}', "invalid character '\\v' looking for beginning of value", 1],
  ['\x0c{}', "invalid character '\\f' looking for beginning of value", 1],
  ['\xc2\xa0{}', "invalid character '\xc3\x82' looking for beginning of value", 1],
  ['[\x0b]', "invalid character '\\v' looking for beginning of value", 2],
  ['{', 'unexpected end of JSON input', 1],
  ['[', 'unexpected end of JSON input', 1],
  ['"abc', 'unexpected end of JSON input', 4],
  ['"', 'unexpected end of JSON input', 1],
  ['{"a"', 'unexpected end of JSON input', 4],
  ['{"a":', 'unexpected end of JSON input', 5],
  ['{"a":1', 'unexpected end of JSON input', 6],
  ['{"a":1,', 'unexpected end of JSON input', 7],
  ['[1', 'unexpected end of JSON input', 2],
  ['[1,', 'unexpected end of JSON input', 3],
  ['-', "invalid character ' ' in numeric literal", 1],
  ['t', "invalid character ' ' in literal true (expecting 'r')", 1],
  ['tr', "invalid character ' ' in literal true (expecting 'u')", 2],
  ['tru', "invalid character ' ' in literal true (expecting 'e')", 3],
  ['f', "invalid character ' ' in literal false (expecting 'a')", 1],
  ['fals', "invalid character ' ' in literal false (expecting 'e')", 4],
  ['n', "invalid character ' ' in literal null (expecting 'u')", 1],
  ['nul', "invalid character ' ' in literal null (expecting 'l')", 3],
  ['"\\', "invalid character ' ' in string escape code", 2],
  ['"\\u12', "invalid character ' ' in \\u hexadecimal character escape", 5],
  ['1e', "invalid character ' ' in exponent of numeric literal", 2],
  ['1e+', "invalid character ' ' in exponent of numeric literal", 3],
  ['1E-', "invalid character ' ' in exponent of numeric literal", 3],
  ['[[[[', 'unexpected end of JSON input', 4],
  ['{"a":[{"b":', 'unexpected end of JSON input', 11],
  ['{,}', "invalid character ',' looking for beginning of object key string", 2],
  ['{1:2}', "invalid character '1' looking for beginning of object key string", 2],
  ['{"a":1,}', "invalid character '}' looking for beginning of object key string", 8],
  ["{'a':1}", "invalid character '\\'' looking for beginning of object key string", 2],
  ['{a:1}', "invalid character 'a' looking for beginning of object key string", 2],
  ['{"a":1, }', "invalid character '}' looking for beginning of object key string", 9],
  ['{ ]', "invalid character ']' looking for beginning of object key string", 3],
  ['{"a" 1}', "invalid character '1' after object key", 6],
  ['{"a",}', "invalid character ',' after object key", 5],
  ['{"a"}', "invalid character '}' after object key", 5],
  ['{"a" "b"}', "invalid character '\"' after object key", 6],
  ['{"a"=1}', "invalid character '=' after object key", 5],
  ['{"a":1 "b":2}', "invalid character '\"' after object key:value pair", 8],
  ['{"a":1]', "invalid character ']' after object key:value pair", 7],
  ['{"a":1:2}', "invalid character ':' after object key:value pair", 7],
  ['{"a":"b" ,, }', "invalid character ',' looking for beginning of object key string", 11],
  ['{"a":{}]', "invalid character ']' after object key:value pair", 8],
  ['[1 2]', "invalid character '2' after array element", 4],
  ['[1}', "invalid character '}' after array element", 3],
  ['[1:2]', "invalid character ':' after array element", 3],
  ['["a" "b"]', "invalid character '\"' after array element", 6],
  ['[[] []]', "invalid character '[' after array element", 5],
  ['[null x]', "invalid character 'x' after array element", 7],
  ['1 2', "invalid character '2' after top-level value", 3],
  ['{}x', "invalid character 'x' after top-level value", 3],
  ['[]]', "invalid character ']' after top-level value", 3],
  ['{}}', "invalid character '}' after top-level value", 3],
  ['"a""b"', "invalid character '\"' after top-level value", 4],
  ['null,', "invalid character ',' after top-level value", 5],
  ['1 x', "invalid character 'x' after top-level value", 3],
  ['1 xy', "invalid character 'x' after top-level value", 3],
  ['1  x', "invalid character 'x' after top-level value", 4],
  ['truex', "invalid character 'x' after top-level value", 5],
  ['01', "invalid character '1' after top-level value", 2],
  ['-01', "invalid character '1' after top-level value", 3],
  ['00', "invalid character '0' after top-level value", 2],
  ['1.5.2', "invalid character '.' after top-level value", 4],
  ['0x10', "invalid character 'x' after top-level value", 2],
  ['1e5e', "invalid character 'e' after top-level value", 4],
  ['{} {}', "invalid character '{' after top-level value", 4],
  ['[] \xef\xbb\xbf', "invalid character '\xc3\xaf' after top-level value", 4],
  ['{}\x00', "invalid character '\\x00' after top-level value", 3],
  ['{}\xc2\xa0', "invalid character '\xc3\x82' after top-level value", 3],
  ['"a"\xff', "invalid character '\xc3\xbf' after top-level value", 4],
  ['"a\x0ab"', "invalid character '\\n' in string literal", 3],
  ['"\x00"', "invalid character '\\x00' in string literal", 2],
  ['"\x1f"', "invalid character '\\x1f' in string literal", 2],
  ['"\x09"', "invalid character '\\t' in string literal", 2],
  ['["x\x0d"]', "invalid character '\\r' in string literal", 4],
  ['{"a\x0a":1}', "invalid character '\\n' in string literal", 4],
  ['"\\x"', "invalid character 'x' in string escape code", 3],
  ['"\\a"', "invalid character 'a' in string escape code", 3],
  ['"\\\'"', "invalid character '\\'' in string escape code", 3],
  ['"\\U0041"', "invalid character 'U' in string escape code", 3],
  ['"\\0"', "invalid character '0' in string escape code", 3],
  ['"\\\xff"', "invalid character '\xc3\xbf' in string escape code", 3],
  ['"\\\x0a"', "invalid character '\\n' in string escape code", 3],
  ['{"\\v":1}', "invalid character 'v' in string escape code", 4],
  ['"\\u"', "invalid character '\"' in \\u hexadecimal character escape", 4],
  ['"\\uG000"', "invalid character 'G' in \\u hexadecimal character escape", 4],
  ['"\\u0G00"', "invalid character 'G' in \\u hexadecimal character escape", 5],
  ['"\\u00G0"', "invalid character 'G' in \\u hexadecimal character escape", 6],
  ['"\\u000G"', "invalid character 'G' in \\u hexadecimal character escape", 7],
  ['"\\u12"x', "invalid character '\"' in \\u hexadecimal character escape", 6],
  ['"\\u\xff"', "invalid character '\xc3\xbf' in \\u hexadecimal character escape", 4],
  ['"\\u00e"', "invalid character '\"' in \\u hexadecimal character escape", 7],
  ['-a', "invalid character 'a' in numeric literal", 2],
  ['- 1', "invalid character ' ' in numeric literal", 2],
  ['--1', "invalid character '-' in numeric literal", 2],
  ['-.5', "invalid character '.' in numeric literal", 2],
  ['-"', "invalid character '\"' in numeric literal", 2],
  ['-\xff', "invalid character '\xc3\xbf' in numeric literal", 2],
  ['[-]', "invalid character ']' in numeric literal", 3],
  ['1.', "invalid character ' ' after decimal point in numeric literal", 2],
  ['1.a', "invalid character 'a' after decimal point in numeric literal", 3],
  ['1.e5', "invalid character 'e' after decimal point in numeric literal", 3],
  ['0.]', "invalid character ']' after decimal point in numeric literal", 3],
  ['[1.]', "invalid character ']' after decimal point in numeric literal", 4],
  ['-0.', "invalid character ' ' after decimal point in numeric literal", 3],
  ['1. ', "invalid character ' ' after decimal point in numeric literal", 3],
  ['{"a":1.}', "invalid character '}' after decimal point in numeric literal", 8],
  ['1ea', "invalid character 'a' in exponent of numeric literal", 3],
  ['1e+a', "invalid character 'a' in exponent of numeric literal", 4],
  ['1E-}', "invalid character '}' in exponent of numeric literal", 4],
  ['[1e]', "invalid character ']' in exponent of numeric literal", 4],
  ['1e ', "invalid character ' ' in exponent of numeric literal", 3],
  ['1.5e-x', "invalid character 'x' in exponent of numeric literal", 6],
  ['0e', "invalid character ' ' in exponent of numeric literal", 2],
  ['tx', "invalid character 'x' in literal true (expecting 'r')", 2],
  ['trx', "invalid character 'x' in literal true (expecting 'u')", 3],
  ['trux', "invalid character 'x' in literal true (expecting 'e')", 4],
  ['fx', "invalid character 'x' in literal false (expecting 'a')", 2],
  ['fax', "invalid character 'x' in literal false (expecting 'l')", 3],
  ['falx', "invalid character 'x' in literal false (expecting 's')", 4],
  ['falsx', "invalid character 'x' in literal false (expecting 'e')", 5],
  ['nx', "invalid character 'x' in literal null (expecting 'u')", 2],
  ['nux', "invalid character 'x' in literal null (expecting 'l')", 3],
  ['nulx', "invalid character 'x' in literal null (expecting 'l')", 4],
  ['True', "invalid character 'T' looking for beginning of value", 1],
  ['nil', "invalid character 'i' in literal null (expecting 'u')", 2],
  ['NaN', "invalid character 'N' looking for beginning of value", 1],
  ['Infinity', "invalid character 'I' looking for beginning of value", 1],
  ['[tru]', "invalid character ']' in literal true (expecting 'e')", 5],
  ['{"a":nul}', "invalid character '}' in literal null (expecting 'l')", 9],
  ['t\xff', "invalid character '\xc3\xbf' in literal true (expecting 'r')", 2],
  ['{}', null, 0],
  ['3.14', null, 0],
  ['[1.25,1.5E3,2.0e-1]', null, 0],
  ['[]', null, 0],
  [' 1 ', null, 0],
  ['"\\u00e9"', null, 0],
  ['-0', null, 0],
  ['-0.0e-0', null, 0],
  ['1E+10', null, 0],
  ['0.5', null, 0],
  ['123456789012345678901234567890', null, 0],
  ['"\\ud800"', null, 0],
  ['"\xff"', null, 0],
  ['"\xc3("', null, 0],
  ['\x09\x0a\x0d {} \x09\x0a\x0d', null, 0],
  ['null', null, 0],
  ['true', null, 0],
  ['false', null, 0],
  ['""', null, 0],
  ['"\\"\\\\\\/\\b\\f\\n\\r\\t\\u0041\\uABCD\\uabcd"', null, 0],
  ['{"a":[1,{"b":null}],"c":"d"}', null, 0],
  ['[[[[]]]]', null, 0],
  ['"\x7f"', null, 0],
]

describe('checkValid', () => {
  for (const [input, msg, offset] of cases) {
    test(JSON.stringify(input), () => {
      const err = checkValid(input)
      if (msg === null) {
        assert.equal(err, null)
        assert.equal(valid(input), true)
        return
      }
      assert.ok(err instanceof JSONSyntaxError)
      assert.equal(err.error(), msg)
      assert.equal(err.msg, msg)
      assert.equal(err.offset, offset)
      assert.equal(valid(input), false)
    })
  }
})

describe('maxNestingDepth', () => {
  // Offsets from Go 1.19.
  const deep: [string, string, string | null, number][] = [
    ['10000 arrays', '['.repeat(10000) + ']'.repeat(10000), null, 0],
    [
      '10001 arrays',
      '['.repeat(10001) + ']'.repeat(10001),
      "invalid character '[' exceeded max depth",
      10001,
    ],
    ['10001 open arrays', '['.repeat(10001), "invalid character '[' exceeded max depth", 10001],
    ['10000 objects', '{"a":'.repeat(10000) + '1' + '}'.repeat(10000), null, 0],
    [
      '10001 objects',
      '{"a":'.repeat(10001) + '1' + '}'.repeat(10001),
      "invalid character '{' exceeded max depth",
      50001,
    ],
    [
      '9999 arrays, an object, an array',
      '['.repeat(9999) + '{"a":[]}' + ']'.repeat(9999),
      "invalid character '[' exceeded max depth",
      10005,
    ],
  ]
  for (const [name, input, msg, offset] of deep) {
    test(name, () => {
      const err = checkValid(input)
      if (msg === null) {
        assert.equal(err, null)
      } else {
        assert.equal(err?.error(), msg)
        assert.equal(err?.offset, offset)
      }
    })
  }
})

test('quoteChar matches Go for every byte', () => {
  // Go 1.19's quoteChar(c) for c = 0..255, hex of its bytes, from the error
  // texts of json.Unmarshal([]byte{'t', c}).
  const want =
    '275c78303027 275c78303127 275c78303227 275c78303327 275c78303427 275c78303527 275c78303627 275c6127 275c6227 275c7427 275c6e27 275c7627 275c6627 275c7227 275c78306527 275c78306627 275c78313027 275c78313127 275c78313227 275c78313327 275c78313427 275c78313527 275c78313627 275c78313727 275c78313827 275c78313927 275c78316127 275c78316227 275c78316327 275c78316427 275c78316527 275c78316627 272027 272127 272227 272327 272427 272527 272627 275c2727 272827 272927 272a27 272b27 272c27 272d27 272e27 272f27 273027 273127 273227 273327 273427 273527 273627 273727 273827 273927 273a27 273b27 273c27 273d27 273e27 273f27 274027 274127 274227 274327 274427 274527 274627 274727 274827 274927 274a27 274b27 274c27 274d27 274e27 274f27 275027 275127 275227 275327 275427 275527 275627 275727 275827 275927 275a27 275b27 275c5c27 275d27 275e27 275f27 276027 276127 276227 276327 276427 276527 276627 276727 276827 276927 276a27 276b27 276c27 276d27 276e27 276f27 277027 277127 277227 277327 277427 277527 277627 277727 277827 277927 277a27 277b27 277c27 277d27 277e27 275c78376627 275c753030383027 275c753030383127 275c753030383227 275c753030383327 275c753030383427 275c753030383527 275c753030383627 275c753030383727 275c753030383827 275c753030383927 275c753030386127 275c753030386227 275c753030386327 275c753030386427 275c753030386527 275c753030386627 275c753030393027 275c753030393127 275c753030393227 275c753030393327 275c753030393427 275c753030393527 275c753030393627 275c753030393727 275c753030393827 275c753030393927 275c753030396127 275c753030396227 275c753030396327 275c753030396427 275c753030396527 275c753030396627 275c753030613027 27c2a127 27c2a227 27c2a327 27c2a427 27c2a527 27c2a627 27c2a727 27c2a827 27c2a927 27c2aa27 27c2ab27 27c2ac27 275c753030616427 27c2ae27 27c2af27 27c2b027 27c2b127 27c2b227 27c2b327 27c2b427 27c2b527 27c2b627 27c2b727 27c2b827 27c2b927 27c2ba27 27c2bb27 27c2bc27 27c2bd27 27c2be27 27c2bf27 27c38027 27c38127 27c38227 27c38327 27c38427 27c38527 27c38627 27c38727 27c38827 27c38927 27c38a27 27c38b27 27c38c27 27c38d27 27c38e27 27c38f27 27c39027 27c39127 27c39227 27c39327 27c39427 27c39527 27c39627 27c39727 27c39827 27c39927 27c39a27 27c39b27 27c39c27 27c39d27 27c39e27 27c39f27 27c3a027 27c3a127 27c3a227 27c3a327 27c3a427 27c3a527 27c3a627 27c3a727 27c3a827 27c3a927 27c3aa27 27c3ab27 27c3ac27 27c3ad27 27c3ae27 27c3af27 27c3b027 27c3b127 27c3b227 27c3b327 27c3b427 27c3b527 27c3b627 27c3b727 27c3b827 27c3b927 27c3ba27 27c3bb27 27c3bc27 27c3bd27 27c3be27 27c3bf27'
  const hex = want.split(' ')
  assert.equal(hex.length, 256)
  for (let c = 0; c < 256; c++) {
    assert.equal(Buffer.from(quoteChar(c), 'latin1').toString('hex'), hex[c], `byte ${c}`)
  }
  // Spot checks in readable form.
  assert.equal(quoteChar(0x27), "'\\''")
  assert.equal(quoteChar(0x22), `'"'`)
  assert.equal(quoteChar(0x5c), "'\\\\'")
  assert.equal(quoteChar(0x07), "'\\a'")
  assert.equal(quoteChar(0x7f), "'\\x7f'")
  assert.equal(quoteChar(0x1b), "'\\x1b'")
  assert.equal(quoteChar(0x85), "'\\u0085'")
  assert.equal(quoteChar(0xa0), "'\\u00a0'")
  assert.equal(quoteChar(0xad), "'\\u00ad'")
  assert.equal(quoteChar(0xef), "'\xc3\xaf'")
})

test('Scanner opcodes follow Go', () => {
  const s = new Scanner()
  s.reset()
  const ops = [...'{"a" : [1, "x"], "b":{}} '].map((ch) => s.step(s, ch.charCodeAt(0)))
  assert.deepEqual(ops, [
    scanBeginObject,
    scanBeginLiteral,
    scanContinue,
    scanContinue,
    scanSkipSpace,
    scanObjectKey,
    scanSkipSpace,
    scanBeginArray,
    scanBeginLiteral,
    scanArrayValue,
    scanSkipSpace,
    scanBeginLiteral,
    scanContinue,
    scanContinue,
    scanEndArray,
    scanObjectValue,
    scanSkipSpace,
    scanBeginLiteral,
    scanContinue,
    scanContinue,
    scanObjectKey,
    scanBeginObject,
    scanEndObject,
    scanEndObject,
    scanEnd,
  ])
  assert.equal(s.eof(), scanEnd)
  // After an error every step returns scanError.
  s.reset()
  assert.equal(s.step(s, 0x78), scanError)
  assert.equal(s.step(s, 0x7b), scanError)
  assert.equal(s.eof(), scanError)
})
