import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { globToRegExp, matchesAny } from '../../../src/core/glob.js'
import { fromText } from '../../../src/core/go/gostring.js'
import { nodeAt, parseTree, TooDeepError } from '../../../src/core/json-tree.js'
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

describe('glob', () => {
  const m = (pattern: string, path: string) => matchesAny(path, [globToRegExp(pattern)])
  test('* and ? stay within a segment', () => {
    assert.ok(m('*.json', 'skill.json'))
    assert.ok(!m('*.json', 'a/skill.json'))
    assert.ok(m('a/?/skill.json', 'a/b/skill.json'))
    assert.ok(!m('a/?/skill.json', 'a/bc/skill.json'))
  })
  test('** spans any number of segments, none included', () => {
    assert.ok(m('**/skill.json', 'skill.json'))
    assert.ok(m('**/skill.json', 'a/b/c/skill.json'))
    assert.ok(m('a/**/skill.json', 'a/skill.json'))
    assert.ok(m('a/**/skill.json', 'a/x/y/skill.json'))
    assert.ok(!m('a/**/skill.json', 'b/a/skill.json'))
  })
  test('a dir pattern covers everything below it; ./ and / prefixes are dropped', () => {
    assert.ok(m('vendor', 'vendor/x/skill.json'))
    assert.ok(m('vendor/', 'vendor/x/skill.json'))
    assert.ok(m('./vendor/**', 'vendor/x/skill.json'))
    assert.ok(m('/vendor', 'vendor/skill.json'))
    assert.ok(!m('vendor', 'myvendor/skill.json'))
    assert.ok(!m('vendor', 'a/vendor/skill.json'))
  })
  test('regex characters are literal', () => {
    assert.ok(m('a+b(1)/[x].json', 'a+b(1)/[x].json'))
    assert.ok(!m('a.b', 'aXb'))
  })
})

describe('json tree', () => {
  const raw = fromText('{"a": [1, {"b": "x\\u00e9"}], "a": {"c~/d": true}, "n": null}')
  const tree = parseTree(raw)
  test('members keep duplicates and offsets; nodeAt follows the last', () => {
    assert.equal(tree.kind, 'object')
    if (tree.kind !== 'object') return
    assert.deepEqual(
      tree.members.map((m) => [m.key, m.keyStart]),
      [
        ['a', 1],
        ['a', 29],
        ['n', 50],
      ],
    )
    const hit = nodeAt(tree, '/a/c~0~1d')
    assert.equal(hit?.node.kind, 'true')
    assert.equal(hit?.keyStart, 35)
    assert.equal(nodeAt(tree, '/a/0'), undefined)
    assert.equal(nodeAt(tree, '/zz'), undefined)
  })
  test('strings are decoded as Go decodes them', () => {
    const t = parseTree(raw, 0)
    if (t.kind !== 'object' || t.members[0].value.kind !== 'array') throw new Error('shape')
    const inner = t.members[0].value.items[1]
    if (inner.kind !== 'object' || inner.members[0].value.kind !== 'string') throw new Error('shape')
    assert.equal(inner.members[0].value.value, fromText('xé'))
  })
  test('any depth Go accepts (10000) is parsed, offsets and members kept; past it, TooDeepError', () => {
    for (const n of [1001, 5000, 10000]) {
      const text = `${'{"a":['.repeat(n / 2)}"x"${']}'.repeat(n / 2)}`
      const t = parseTree(text)
      assert.equal(t.end, text.length)
      const leaf = nodeAt(t, '/a/0'.repeat(n / 2))
      assert.equal(leaf?.node.kind, 'string')
      assert.equal(leaf?.node.start, text.indexOf('"x"'))
    }
    assert.throws(() => parseTree('['.repeat(10001) + ']'.repeat(10001)), TooDeepError)
  })
})
