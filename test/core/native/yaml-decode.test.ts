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
