import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { unquote } from '../../../../../src/core/go/encoding/json/decode.js'
import { appendJSONString } from '../../../../../src/core/go/encoding/json/encode.js'

// encoding/json's unquoteBytes on valid string literals (byte strings: '\xc3\xa9' is "é").
const U = (lit: string) => unquote(lit, 0, lit.length)

describe('unquote', () => {
  test('no escapes: the bytes between the quotes, also inside a larger input', () => {
    assert.equal(U('"abc"'), 'abc')
    assert.equal(U('""'), '')
    assert.equal(U('"\xc3\xa9\xe4\xb8\xad"'), '\xc3\xa9\xe4\xb8\xad')
    assert.equal(unquote('xx"ab"yy', 2, 6), 'ab')
  })

  test('every simple escape', () => {
    assert.equal(U('"\\"\\\\\\/\\b\\f\\n\\r\\t"'), '"\\/\b\f\n\r\t')
    assert.equal(U('"a\\nb"'), 'a\nb')
  })

  test('\\u escapes: hex of either case, surrogate pairs, unpaired surrogates as U+FFFD', () => {
    assert.equal(U('"a\\u00e9b"'), 'a\xc3\xa9b')
    assert.equal(U('"\\u00C9\\u00c9"'), '\xc3\x89\xc3\x89')
    assert.equal(U('"\\u0041\\u09aF"'), 'A\xe0\xa6\xaf')
    assert.equal(U('"\\uD83D\\uDE00"'), '\xf0\x9f\x98\x80')
    assert.equal(U('"\\ud800x"'), '\xef\xbf\xbdx')
    assert.equal(U('"\\ud800\\u0041"'), '\xef\xbf\xbdA')
    assert.equal(U('"\\ud800"'), '\xef\xbf\xbd')
    assert.equal(U('"\\udc00"'), '\xef\xbf\xbd')
    assert.equal(U('"\\ud800\\n"'), '\xef\xbf\xbd\n')
  })

  test('invalid UTF-8 becomes U+FFFD per byte, before and after an escape; valid UTF-8 is kept', () => {
    assert.equal(U('"a\xffb"'), 'a\xef\xbf\xbdb')
    assert.equal(U('"\xc3"'), '\xef\xbf\xbd')
    assert.equal(U('"\\n\xff\xc3\xa9"'), '\n\xef\xbf\xbd\xc3\xa9')
    assert.equal(U('"\\t\xc3\xa9\xe4\xb8\xad\x7f"'), '\t\xc3\xa9\xe4\xb8\xad\x7f')
    assert.equal(U('"\xe2\x82\\n"'), '\xef\xbf\xbd\xef\xbf\xbd\n')
  })
})

describe('appendJSONString, json.Marshal form', () => {
  test('\\b and \\f as such (Go 1.22+ json.Marshal); slog keeps \\u0008 \\u000c', () => {
    assert.equal(appendJSONString('a\bb\fc', false, true), '"a\\bb\\fc"')
    assert.equal(appendJSONString('a\bb\fc', false), '"a\\u0008b\\u000cc"')
    assert.equal(appendJSONString('\b', false, true), '"\\b"')
    assert.equal(appendJSONString('\f', false, true), '"\\f"')
  })
})
