import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { fromText } from '../../../../src/core/go/gostring.js'
import {
  DoubleQuotedStyle,
  FlowStyle,
  Kind,
  LiteralStyle,
  type Node,
  parseFirstDocument,
  SingleQuotedStyle,
  TaggedStyle,
  YamlError,
} from '../../../../src/core/go/yaml/node.js'

/** yaml.v3's failure text for `input` (a byte string), or null when it parses. */
function failure(input: string): string | null {
  try {
    parseFirstDocument(input)
    return null
  } catch (e) {
    if (e instanceof YamlError) return e.message
    throw e
  }
}

function doc(input: string): Node {
  const n = parseFirstDocument(fromText(input))
  assert.ok(n !== null)
  assert.equal(n.kind, Kind.Document)
  return n.content[0]
}

describe('yaml.v3 parse (reader, scanner, parser, node builder)', () => {
  // Each text below is what gopkg.in/yaml.v3 v3.0.1 answers (measured with the Go harness).
  const cases: [string, string | null][] = [
    // The `yaml` package accepted these; yaml.v3 refuses them.
    ['name: a\ndescription: {: 1}', 'yaml: line 1: did not find expected node content'],
    ['name: [&aa, b]:\ndescription: x', 'yaml: mapping values are not allowed in this context'],
    [': a\ndiption:\t b', 'yaml: did not find expected key'],
    // ...and the reverse: an anchor glued to a key is an anchor on the key.
    ['&aname: "a"\ndescription: b', null],
    ['a: b\n\tc: d', 'yaml: line 2: found a tab character that violates indentation'],
    ['a: \x07', 'yaml: control characters are not allowed'],
    ['a: *x', "yaml: unknown anchor 'x' referenced"],
    ["a: 'unterminated", 'yaml: found unexpected end of stream'],
    ['a: "\\q"', 'yaml: found unknown escape character'],
    ['a: |0\n  x', 'yaml: found an indentation indicator equal to 0'],
    ['%FOO\n--- a', 'yaml: found unknown directive name'],
    ['%YAML 2.0\n--- a', 'yaml: found incompatible YAML document'],
    ['!e!x a', 'yaml: found undefined tag handle'],
    ['a:\n- b\nc', "yaml: line 3: could not find expected ':'"],
    ['[a, b', "yaml: line 1: did not find expected ',' or ']'"],
    ['{a: b', "yaml: line 1: did not find expected ',' or '}'"],
    ['- a\nb: c', "yaml: line 1: did not find expected '-' indicator"],
    ['? a\n? b\n: c\n- d', 'yaml: line 3: did not find expected key'],
    ['key: value\n  bad: indent', 'yaml: line 2: mapping values are not allowed in this context'],
    ['', null],
    ['# only a comment', null],
    // The reader checks 512-byte chunks as the scanner needs them: an early syntax error wins over a
    // bad byte in a later chunk, not over one in the same chunk.
    [`a: b: c\n${'x'.repeat(1000)}\xff`, 'yaml: mapping values are not allowed in this context'],
    [`a: b: c\n${'x'.repeat(100)}\xff`, 'yaml: invalid leading UTF-8 octet'],
    [`a: b\n${'c: d\n'.repeat(200)}e: \x01`, 'yaml: control characters are not allowed'],
  ]
  for (const [input, want] of cases) {
    test(`${JSON.stringify(input.length > 60 ? `${input.slice(0, 60)}…` : input)}`, () => {
      assert.equal(failure(input), want)
    })
  }

  test('only the first document is parsed', () => {
    assert.equal(failure('a: b\n--- [\n'), null)
    assert.equal(failure('a: b\n...\n{{{'), null)
  })

  test('nodes: kinds, tags, styles, positions', () => {
    const root = doc('name: "a"\nlist: [1, x]\nblock: |\n  t\nt: !!str 3\nq: \'s\'\n')
    assert.equal(root.kind, Kind.Mapping)
    assert.equal(root.tag, '!!map')
    const [k0, v0, , v1, , v2, , v3, , v4] = root.content
    assert.deepEqual([k0.value, k0.tag, k0.line, k0.column], ['name', '!!str', 1, 1])
    assert.deepEqual([v0.value, v0.tag, v0.style, v0.column], ['a', '!!str', DoubleQuotedStyle, 7])
    assert.equal(v1.kind, Kind.Sequence)
    assert.equal(v1.style, FlowStyle)
    assert.deepEqual(
      v1.content.map((n) => n.tag),
      ['!!int', '!!str'],
    )
    assert.deepEqual([v2.value, v2.style, v2.line], ['t\n', LiteralStyle, 3])
    assert.deepEqual([v3.value, v3.tag, v3.style], ['3', '!!str', TaggedStyle])
    assert.deepEqual([v4.value, v4.style], ['s', SingleQuotedStyle])
  })

  test('aliases point at their anchored node; merge keys are tagged !!merge', () => {
    const root = doc('a: &x {b: c}\n<<: *x\n')
    const [, anchored, merge, alias] = root.content
    assert.equal(anchored.anchor, 'x')
    assert.equal(merge.tag, '!!merge')
    assert.equal(alias.kind, Kind.Alias)
    assert.equal(alias.alias, anchored)
  })

  test('escapes and folding in scalars', () => {
    const root = doc('a: "\\x41\\u00e9\\n\\\n  b"\nb: >\n  x\n  y\n\n  z\n')
    assert.equal(root.content[1].value, fromText('Aé\nb'))
    assert.equal(root.content[3].value, 'x y\nz\n')
  })
})
