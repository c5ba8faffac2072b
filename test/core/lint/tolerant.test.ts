import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { checkValid } from '../../../src/core/go/encoding/json/scanner.js'
import { repairJson, TOLERANT_MAX_BYTES, tolerantRead } from '../../../src/core/lint/tolerant.js'
import { decodeManifest } from '../../../src/core/loader/manifest.js'

/** The repairs replace bytes one for one and append: the file's lines and lengths are kept. */
function sameOffsets(data: string, text: string): void {
  assert.ok(text.length >= data.length)
  for (let i = 0; i < data.length; i++)
    if (data[i] === '\n') assert.equal(text[i], '\n', `newline at ${i} kept`)
}

describe('repairJson: syntax errors read as meant, each byte at its offset', () => {
  const cases: [string, string, string[]][] = [
    ['trailing comma', '{\n  "a": 1,\n}\n', ['a trailing comma skipped']],
    ['trailing comma in an array', '{"a": [1, 2,]}', ['a trailing comma skipped']],
    ['line comment', '{\n  // note\n  "a": 1\n}', ['comments skipped']],
    ['block comment', '{ /* x\n y */ "a": 1 }', ['comments skipped']],
    [
      'every comment in one repair, none in a string',
      '{\n  // one\n  "a": "http://x/*y*/", // two\n  /* three */ "b": 1 // four\n}',
      ['comments skipped'],
    ],
    ['missing comma', '{\n  "a": 1\n  "b": 2\n}', ['a missing comma read']],
    ['single quotes', "{'a': 'b'}", ['a single-quoted string read', 'a single-quoted string read']],
    ['byte order mark', '\xef\xbb\xbf{"a": 1}', ['a byte order mark skipped']],
    ['unclosed object', '{"a": {"b": 1', ['an unclosed object closed', 'an unclosed object closed']],
    ['unclosed string', '{"a": "b', ['an unclosed string closed', 'an unclosed object closed']],
  ]
  for (const [name, data, what] of cases)
    test(name, () => {
      const r = repairJson(data)
      assert.ok(r, name)
      assert.equal(checkValid(r.text), null)
      assert.deepEqual(
        r.repairs.map((x) => x.what),
        what,
      )
      sameOffsets(data, r.text)
      // The key keeps its offset: a finding on it points at the file's own bytes.
      const k = data.search(/["']a["']/)
      assert.equal(r.text.slice(k + 1, k + 2), 'a')
    })

  test("a comment's marks inside a string are the string's", () => {
    const r = repairJson('{"a": "http://x/*y*/", // note\n "b": "//"}')
    assert.ok(r)
    assert.equal(r.text, '{"a": "http://x/*y*/",        \n "b": "//"}')
  })

  test('no known repair: null (the manager verdict alone)', () => {
    assert.equal(repairJson('{"a": x}'), null)
    assert.equal(repairJson(''), null)
    assert.equal(repairJson('{"a"}'), null)
  })
})

describe('tolerantRead', () => {
  test('a syntax error: the repaired text decoded by Go, no error', () => {
    const t = tolerantRead(decodeManifest('{"name": "a", "class": "Safe",}'))
    assert.ok(t)
    assert.equal(t.parsed.err, null)
    assert.equal(t.parsed.manifest.class, 'Safe')
  })

  test('a value of the wrong type read as meant where that is plain; the other fields are Go’s', () => {
    const p = decodeManifest('{"name": 12, "timeout_seconds": "30", "env_allow": "PATH", "entry": "run.sh"}')
    assert.notEqual(p.err, null)
    const t = tolerantRead(p)
    assert.ok(t)
    assert.equal(t.parsed.manifest.name, '12')
    assert.equal(t.parsed.manifest.timeoutSeconds, 30n)
    assert.deepEqual(t.parsed.manifest.envAllow, ['PATH'])
    assert.equal(t.parsed.manifest.entry, 'run.sh')
    assert.deepEqual(
      t.repairs.map((r) => r.what),
      [
        'name: a number read as a string',
        'env_allow: a string read as a list of one',
        'timeout_seconds: a string of digits read as a number',
      ],
    )
  })

  test('no plain reading (an object where a string goes, not an object at all): null', () => {
    assert.equal(tolerantRead(decodeManifest('{"name": {"x": 1}}')), null)
    assert.equal(tolerantRead(decodeManifest('{"timeout_seconds": "soon"}')), null)
    assert.equal(tolerantRead(decodeManifest('[1]')), null)
    assert.equal(tolerantRead(decodeManifest('{"name": "a"}')), null)
  })
})

test('a file over the bound is not read tolerantly (each repair scans it again)', () => {
  const big = `{"a": "${'x'.repeat(TOLERANT_MAX_BYTES)}",}`
  assert.equal(repairJson(big), null)
  assert.equal(tolerantRead(decodeManifest(big)), null)
})
