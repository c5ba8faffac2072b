import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { fromText } from '../../../src/core/go/gostring.js'
import {
  decodeBridgeSchema,
  formatFloat,
  indentJSON,
  marshal,
  marshalString,
} from '../../../src/core/schema/go-any.js'

function roundTrip(json: string): string {
  const d = decodeBridgeSchema(fromText(json), 0)
  if (!d.ok) throw new Error(d.err.error())
  return marshal(d.value ?? new Map())
}

describe('json.Unmarshal into map[string]any, then json.Marshal (Go 1.25)', () => {
  test('keys sorted byte-wise at every level, compact', () => {
    assert.equal(
      roundTrip('{ "b": 1, "a": { "z": [ {"y":1,"x":2} ], "B": null }, "é": true, "Z": false }'),
      '{"Z":false,"a":{"B":null,"z":[{"x":2,"y":1}]},"b":1,"é":true}'.replace('é', '\xc3\xa9'),
    )
  })
  test('duplicate keys: the last one wins', () => {
    assert.equal(roundTrip('{"a":1,"a":2}'), '{"a":2}')
  })
  test('numbers go through float64', () => {
    assert.equal(
      roundTrip(
        '{"a":1.0,"b":1e21,"c":1e-7,"d":-0,"e":0.000001,"f":123456789012345678901,"g":1E+2,"h":-0.0}',
      ),
      '{"a":1,"b":1e+21,"c":1e-7,"d":-0,"e":0.000001,"f":123456789012345680000,"g":100,"h":-0}',
    )
    assert.equal(
      roundTrip('{"a":9007199254740993,"b":1.5e-10,"c":1e-400,"d":5e-324}'),
      '{"a":9007199254740992,"b":1.5e-10,"c":0,"d":5e-324}',
    )
  })
  test('strings: HTML-escaped, \\b and \\f short forms, U+2028/2029, invalid UTF-8 → \\ufffd', () => {
    assert.equal(
      marshalString('<a href="x">&\b\f\n\r\t\x01\x7f'),
      '"\\u003ca href=\\"x\\"\\u003e\\u0026\\b\\f\\n\\r\\t\\u0001\x7f"',
    )
    assert.equal(marshalString(fromText('\u2028\u2029é')), '"\\u2028\\u2029\xc3\xa9"')
    assert.equal(marshalString('\xff\xc3'), '"\\ufffd\\ufffd"')
    // escapes in the input are decoded first, lone surrogates become U+FFFD
    assert.equal(roundTrip('{"s":"\\u003c\\ud800\\/"}'), '{"s":"\\u003c\xef\xbf\xbd/"}')
  })
  test('formatFloat matches strconv thresholds', () => {
    assert.equal(formatFloat(1e20), '100000000000000000000')
    assert.equal(formatFloat(1e21), '1e+21')
    assert.equal(formatFloat(1e-6), '0.000001')
    assert.equal(formatFloat(1.2e-7), '1.2e-7')
    assert.equal(formatFloat(-1e100), '-1e+100')
    assert.equal(formatFloat(0), '0')
    assert.equal(formatFloat(-0), '-0')
  })
  test('what the bridge cannot decode, with encoding/json’s messages', () => {
    const cases: [string, string, string][] = [
      ['"x"', 'not-object', 'json: cannot unmarshal string into Go value of type map[string]interface {}'],
      ['[1]', 'not-object', 'json: cannot unmarshal array into Go value of type map[string]interface {}'],
      ['3', 'not-object', 'json: cannot unmarshal number into Go value of type map[string]interface {}'],
      ['true', 'not-object', 'json: cannot unmarshal bool into Go value of type map[string]interface {}'],
      [
        '{"a":{"b":[1e400]},"c":-1e999}',
        'number-range',
        'json: cannot unmarshal number 1e400 into Go value of type float64',
      ],
    ]
    for (const [json, kind, msg] of cases) {
      const d = decodeBridgeSchema(json, 0)
      assert.equal(d.ok, false, json)
      if (d.ok) continue
      assert.equal(d.kind, kind)
      assert.equal(d.err.error(), msg)
    }
    const n = decodeBridgeSchema('null', 0)
    assert.ok(n.ok && n.value === null)
  })
  test('any depth (Go allows 10000): decoded with its tree, and marshal writes it', () => {
    const d = 9998
    const text = `{"a":${'['.repeat(d)}{"z":1,"y":"<"}${']'.repeat(d)}}`
    const got = decodeBridgeSchema(text, 0)
    assert.ok(got.ok)
    assert.equal(got.tree.end, text.length)
    assert.equal(
      marshal(got.value ?? new Map()),
      `{"a":${'['.repeat(d)}{"y":"\\u003c","z":1}${']'.repeat(d)}}`,
    )
  })
  test('indentJSON is json.Indent: only white space changes', () => {
    assert.equal(
      indentJSON('{"a":[],"b":{},"c":[1,{"d":"x:,{"}]}'),
      '{\n  "a": [],\n  "b": {},\n  "c": [\n    1,\n    {\n      "d": "x:,{"\n    }\n  ]\n}',
    )
    assert.equal(indentJSON('"a\\"b"'), '"a\\"b"')
  })
})
