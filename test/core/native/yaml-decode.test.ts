import assert from 'node:assert/strict'
import { test } from 'node:test'
import { fromText } from '../../../src/core/go/gostring.js'
import { unmarshalErrors } from '../../../src/core/native/skill-md.js'
import {
  decodeNode,
  parseFrontmatterYaml,
  RAW_MAP_TYPE,
  SKILL_TYPE,
} from '../../../src/core/native/yaml-decode.js'

/** What yaml.Unmarshal returns for the typed decode, then the raw one (as ParseSkillMd runs them). */
function unmarshal(fm: string): string | null {
  const p = parseFrontmatterYaml(fromText(fm))
  if (p.syntax) return p.syntax.message
  for (const type of [SKILL_TYPE, RAW_MAP_TYPE]) {
    const d = decodeNode(p.root, type, p.at)
    if (d.panic !== null) return `panic: ${d.panic}`
    const err = d.failure ?? (d.terrors.length > 0 ? unmarshalErrors(d.terrors) : null)
    if (err !== null) return err
  }
  return null
}

// The expected texts are yaml.v3 v3.0.1's (measured with the Go harness).
test('a scalar tagged !!map or !!seq shows its value bare in a type error', () => {
  assert.equal(
    unmarshal('!!map ---'),
    'yaml: unmarshal errors:\n  line 1: cannot unmarshal !!map--- into chatruntime.Skill',
  )
  assert.equal(
    unmarshal('!!seq [a]\n'),
    'yaml: unmarshal errors:\n  line 1: cannot unmarshal !!seq into chatruntime.Skill',
  )
  assert.equal(unmarshal('name: !!map x\ndescription: d'), null)
})

test('a collection as a key of a nested map: invalid map key, in fmt’s %#v', () => {
  assert.equal(
    unmarshal('x: {? [1.5e6, .inf, 0.5, 1000, -2.25e-7, 7, "s", true, ~]: 1}'),
    'yaml: invalid map key: []interface {}{1.5e+06, +Inf, 0.5, 1000, -2.25e-07, 7, "s", true, interface {}(nil)}',
  )
  assert.equal(
    unmarshal('x: {? {b: 1, a: [2]}: 1}'),
    'yaml: invalid map key: map[string]interface {}{"a":[]interface {}{2}, "b":1}',
  )
})

test('an unhashable key beside a merge: yaml.v3 panics', () => {
  assert.equal(
    unmarshal("a: &x {b: 'c'}\n<<: *x\n? [1, 2]\n: q"),
    'panic: runtime error: hash of unhashable type []interface {}',
  )
  // The key's own map sees the merge set too: its collection key panics before "invalid map key".
  assert.equal(
    unmarshal("a: &x {b: 'c'}\n<<: *x\n? [1, 2]: q\n"),
    'panic: runtime error: hash of unhashable type []interface {}',
  )
})

test('keys are compared by kind and value: an alias key is not its target', () => {
  assert.equal(unmarshal('name: &n x\ndescription: y\n*n : z'), null)
  assert.equal(
    unmarshal('name: x\ndescription: y\nname: z'),
    'yaml: unmarshal errors:\n  line 3: mapping key "name" already defined at line 1',
  )
})

test('a map decoded into interface{} is a map[string]interface{} when its keys are strings: its merges decode keys into string', () => {
  assert.equal(
    unmarshal('base: &b {name: n, description: d}\n<<: *b\nactivation:\n  <<: [{mode: m}, ?*b]\n'),
    'yaml: unmarshal errors:\n  line 1: cannot unmarshal !!map into string',
  )
})

/** The typed decode's value of `name` (a byte string), when the frontmatter decodes. */
function nameOf(fm: string): string | undefined {
  const p = parseFrontmatterYaml(fromText(fm))
  const d = decodeNode(p.root, SKILL_TYPE, p.at)
  const v = d.value?.k === 'fields' ? d.value.fields.get('name') : undefined
  return v?.k === 'string' ? v.value : undefined
}

test('!!binary scalars are decoded as yaml.v3 decodes them: base64 StdEncoding, the bytes as the string', () => {
  assert.equal(unmarshal('name: !!binary YQ==\ndescription: d'), null)
  assert.equal(nameOf('name: !!binary YQ==\ndescription: d'), 'a')
  // A block scalar's newlines are skipped by the decoder; the long tag form is the same tag.
  assert.equal(nameOf('name: !!binary |\n  ZGVz\n  Yw==\ndescription: d'), 'desc')
  assert.equal(nameOf('name: !<tag:yaml.org,2002:binary> YQ==\ndescription: d'), 'a')
  // The decoded bytes, not text: invalid UTF-8 stays as it is.
  assert.equal(nameOf('name: !!binary 4A==\ndescription: d'), '\xe0')
  // Not Strict: non-zero trailing bits are accepted.
  assert.equal(nameOf('name: !!binary "YR=="\ndescription: d'), 'a')
  // A key is decoded too: this one sets `name`.
  assert.equal(nameOf('!!binary bmFtZQ==: a\ndescription: d'), 'a')
})

test('!!binary: invalid base64 fails the whole decode with yaml.v3’s text, ahead of type errors', () => {
  const bad = 'yaml: !!binary value contains invalid base64 data'
  assert.equal(unmarshal('name: !!binary YQ=\ndescription: d'), bad)
  assert.equal(unmarshal('name: !!binary "YWJj="\ndescription: d'), bad)
  // A type error collected before it is dropped: failf aborts the decode.
  assert.equal(unmarshal('name: [x]\ndescription: !!binary "@@@@"'), bad)
  // A duplicate key stops the mapping before its values are decoded.
  assert.equal(
    unmarshal('name: a\ndescription: d\nname: !!binary "@@@@"'),
    'yaml: unmarshal errors:\n  line 3: mapping key "name" already defined at line 1',
  )
  // An int field: the value is a string, a type error quoting the base64 text.
  assert.equal(
    unmarshal('name: a\ndescription: d\ntools: [{name: t, timeout_seconds: !!binary MTA=}]'),
    'yaml: unmarshal errors:\n  line 3: cannot unmarshal !!binary `MTA=` into int',
  )
  // A key nothing in the Skill reads is decoded by the second, map-typed decode only.
  const p = parseFrontmatterYaml(fromText('name: a\ndescription: d\nx: !!binary "@@@@"'))
  assert.equal(decodeNode(p.root, SKILL_TYPE, p.at).failure, null)
  assert.equal(decodeNode(p.root, RAW_MAP_TYPE, p.at).failure, bad)
  // In a collection key, %#v shows the decoded string.
  assert.equal(
    unmarshal('name: a\ndescription: d\nx: {? [!!binary YQ==]: 1}'),
    'yaml: invalid map key: []interface {}{"a"}',
  )
})
