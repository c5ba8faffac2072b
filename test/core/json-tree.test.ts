import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { fromText } from '../../src/core/go/gostring.js'
import { nodeAt, parseTree, TooDeepError } from '../../src/core/json-tree.js'

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
