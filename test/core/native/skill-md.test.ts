import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { fromText } from '../../../src/core/go/gostring.js'
import { stringField } from '../../../src/core/native/fields.js'
import { normalizeSnakeName, parseSkillMd } from '../../../src/core/native/skill-md.js'
import { makeTree, tempRoot } from '../../helpers/tree.js'

let R = ''
let cleanup = () => {}
let n = 0
/** Writes a SKILL.md and parses it. */
function parse(text: string) {
  const path = `${R}/s${n++}/SKILL.md`
  makeTree(R, { [path.slice(R.length + 1)]: text })
  return { path, r: parseSkillMd(fromText(path)) }
}

describe('ParseSkillMd', () => {
  before(() => {
    ;({ root: R, cleanup } = tempRoot())
  })
  after(() => cleanup())

  test('a minimal valid skill: no error, no warning', () => {
    const { r } = parse('---\nname: disk_report\ndescription: Reports disks.\n---\n# Disk\n')
    assert.equal(r.error, null)
    assert.deepEqual(r.warnings, [])
    assert.equal(stringField(r.skill, 'name')?.value, 'disk_report')
  })
  test('the required fields, with the manager’s messages and positions', () => {
    let { path, r } = parse('---\ndescription: x\n---\n')
    assert.deepEqual(
      [r.error?.stage, r.error?.message],
      ['missing-name', `chatruntime: ${path}: frontmatter missing required field 'name'`],
    )
    ;({ path, r } = parse('---\nname: "  "\ndescription: x\n---\n'))
    assert.equal(r.error?.message, `chatruntime: ${path}: frontmatter missing required field 'name'`)
    assert.deepEqual([r.error?.line, r.error?.column], [2, 7])
    ;({ path, r } = parse('---\nname: a\n---\n'))
    assert.equal(r.error?.message, `chatruntime: ${path}: frontmatter missing required field 'description'`)
    ;({ path, r } = parse('no frontmatter at all\n'))
    assert.equal(r.error?.stage, 'missing-name')
  })
  test('split errors are wrapped as `chatruntime: PATH: …`', () => {
    const { path, r } = parse('---\nname: a\n')
    assert.equal(r.error?.message, `chatruntime: ${path}: frontmatter started with --- but never closed`)
  })
  test('read errors', () => {
    const r = parseSkillMd(fromText(`${R}/none/SKILL.md`))
    assert.equal(
      r.error?.message,
      `chatruntime: read ${R}/none/SKILL.md: open ${R}/none/SKILL.md: no such file or directory`,
    )
  })
  test('name normalisation: the warning and its examples (research note §3.4)', () => {
    const cases: [string, string][] = [
      ['hello-world', 'hello_world'],
      ['_x', 'x'],
      ['Foo Bar', 'foo_bar'],
      ['-', 'unnamed'],
      ['  a.b  ', 'a_b'],
      ['İstanbul', 'istanbul'],
      ['ünï', 'n'],
    ]
    for (const [name, want] of cases) assert.equal(normalizeSnakeName(fromText(name)), want, name)
    const { r } = parse('---\nname: hello-world\ndescription: x\n---\n')
    assert.equal(r.error, null)
    assert.deepEqual(
      r.warnings.map((w) => [w.code, w.reason, w.line, w.column]),
      [['name_normalized', 'name "hello-world" is not snake_case; normalized to "hello_world"', 2, 7]],
    )
    // name: 123 is the string "123" (yaml.v3 puts any scalar's text into a string): valid
    assert.deepEqual(parse('---\nname: 123\ndescription: x\n---\n').r.warnings, [])
  })
  test('activation: the conflict warning only when both modes are set and differ', () => {
    const both = (a: string, b: string) =>
      parse(
        `---\nname: a\ndescription: x\nactivation:\n  mode: ${a}\nmetadata:\n  ongrid:\n    activation:\n      mode: ${b}\n---\n`,
      ).r
    assert.deepEqual(
      both('keyword', 'always').warnings.map((w) => [w.code, w.reason]),
      [
        [
          'activation_conflict',
          'both top-level activation and metadata.ongrid.activation are set; using metadata.ongrid.activation',
        ],
      ],
    )
    assert.deepEqual(both('always', 'always').warnings, [])
    assert.deepEqual(both('""', 'keyword').warnings, [])
  })
  test('yaml.v3 type errors, collected in order', () => {
    const { path, r } = parse(
      '---\nname: [a, b]\ndescription:\n  x: y\nactivation: always\ntools:\n  - name: t\n    timeout_seconds: soon\n  - 5\n---\n',
    )
    assert.equal(r.error?.stage, 'yaml-type')
    assert.equal(
      r.error?.message,
      `chatruntime: parse ${path} frontmatter: yaml: unmarshal errors:\n` +
        '  line 1: cannot unmarshal !!seq into string\n' +
        '  line 3: cannot unmarshal !!map into string\n' +
        '  line 4: cannot unmarshal !!str `always` into chatruntime.Activation\n' +
        '  line 7: cannot unmarshal !!str `soon` into int\n' +
        '  line 8: cannot unmarshal !!int `5` into chatruntime.ToolDecl',
    )
    assert.deepEqual([r.error?.line, r.error?.column], [2, 1])
  })
  test('long scalars are cut to 7 bytes in type errors; top-level scalars; duplicate keys', () => {
    let { path, r } = parse('---\nactivation: a-very-long-word\n---\n')
    assert.match(
      r.error?.message ?? '',
      /line 1: cannot unmarshal !!str `a-very-...` into chatruntime.Activation$/,
    )
    ;({ path, r } = parse('---\nhello\n---\n'))
    assert.equal(
      r.error?.message,
      `chatruntime: parse ${path} frontmatter: yaml: unmarshal errors:\n  line 1: cannot unmarshal !!str \`hello\` into chatruntime.Skill`,
    )
    ;({ path, r } = parse('---\nname: a\ndescription: b\nname: c\n---\n'))
    assert.equal(
      r.error?.message,
      `chatruntime: parse ${path} frontmatter: yaml: unmarshal errors:\n  line 3: mapping key "name" already defined at line 1`,
    )
    // a duplicate under an unknown key only fails the second (raw map) decode
    ;({ path, r } = parse('---\nname: a\ndescription: b\nextra:\n  k: 1\n  k: 2\n---\n'))
    assert.equal(
      r.error?.message,
      `chatruntime: parse ${path} frontmatter (raw): yaml: unmarshal errors:\n  line 5: mapping key "k" already defined at line 4`,
    )
  })
  test('a YAML syntax error: yaml.v3’s text, at the problem’s position', () => {
    const { path, r } = parse('---\nname: a\ndescription: [b\n---\n')
    assert.equal(r.error?.stage, 'yaml')
    assert.equal(r.error?.exact, true)
    // yaml.v3 counts the line of the flow sequence's start from 0 here (its context mark).
    assert.equal(
      r.error?.message,
      `chatruntime: parse ${path} frontmatter: yaml: line 1: did not find expected ',' or ']'`,
    )
    // Reported where the scanner stood: the end of the frontmatter.
    assert.deepEqual([r.error?.line, r.error?.column], [3, 16])
  })
  test('null values and aliases decode as yaml.v3 decodes them', () => {
    const { r } = parse('---\nname: &n disk\ndescription: ~\n---\n')
    assert.equal(r.error?.stage, 'missing-description')
    const ok = parse('---\nname: &n disk\ndescription: *n\nactivation:\n  keywords: [a, ~, b]\n---\n').r
    assert.equal(ok.error, null)
  })
})
