import assert from 'node:assert/strict'
import { rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, describe, test } from 'node:test'
import { cli } from '../helpers/lint-fixtures.js'
import { ECHO, makeTree, manifest, tempRoot } from '../helpers/tree.js'

const T = tempRoot('ongrid-lint-config-')
after(T.cleanup)

/** The rule ids lint reports for the pack, as JSON. */
function ruleIds(args: string[]): string[] {
  const r = cli(['lint', ...args, '--format', 'json'])
  assert.notEqual(r.code, 2, r.stderr)
  return JSON.parse(r.stdout).files.flatMap((f: { findings: { rule_id: string }[] }) =>
    f.findings.map((x) => x.rule_id),
  )
}

describe('lint config files: .yaml and .yml, --config, --no-config, YAML positions', () => {
  const pack = join(T.root, 'p')
  makeTree(T.root, { 'p/skill.json': manifest({ name: 'p' }), 'p/run.sh': ECHO })
  const off = 'rules:\n  practice/class-unset: off\n'

  test('.ongrid-skill.yml is found as .ongrid-skill.yaml is; both in one dir is an error', () => {
    assert.ok(ruleIds([pack]).includes('practice/class-unset'))
    writeFileSync(join(T.root, '.ongrid-skill.yml'), off)
    assert.ok(!ruleIds([pack]).includes('practice/class-unset'))
    writeFileSync(join(T.root, '.ongrid-skill.yaml'), off)
    const both = cli(['lint', pack])
    assert.equal(both.code, 2)
    assert.equal(
      both.stderr,
      `ongrid-skill: ${T.root}: both .ongrid-skill.yaml and .ongrid-skill.yml: keep one (only one config applies to a dir)\n`,
    )
    rmSync(join(T.root, '.ongrid-skill.yml'))
    assert.ok(!ruleIds([pack]).includes('practice/class-unset'))
    // --no-config reads none.
    assert.ok(ruleIds([pack, '--no-config']).includes('practice/class-unset'))
    rmSync(join(T.root, '.ongrid-skill.yaml'))
  })

  test('--config PATH applies to every file, instead of the nearest', () => {
    const elsewhere = join(T.root, 'elsewhere.yaml')
    writeFileSync(elsewhere, off)
    assert.ok(!ruleIds([pack, '--config', elsewhere]).includes('practice/class-unset'))
    const missing = cli(['lint', pack, '--config', join(T.root, 'none.yaml')])
    assert.equal(missing.code, 2)
    assert.equal(
      missing.stderr,
      `ongrid-skill: ${join(T.root, 'none.yaml')}: open ${join(T.root, 'none.yaml')}: no such file or directory\n`,
    )
  })

  test('a YAML error says file:line:column', () => {
    const bad = join(T.root, 'bad.yaml')
    writeFileSync(bad, 'rules:\n  practice/class-unset: off\n ignore: [\n')
    const r = cli(['lint', pack, '--config', bad])
    assert.equal(r.code, 2)
    assert.match(
      r.stderr,
      new RegExp(
        `^ongrid-skill: ${bad}:3:1: not valid YAML: All mapping items must start at the same column\\n$`,
      ),
    )
    // A quoted string cut by the end of the file: the message keeps its quotes paired.
    for (const [text, said] of [
      ['rules:\n  x: "open\n', 'a "double-quoted" string is not closed'],
      ["rules:\n  x: 'open\n", "a 'single-quoted' string is not closed"],
    ]) {
      writeFileSync(bad, text)
      const q = cli(['lint', pack, '--config', bad])
      assert.equal(q.code, 2)
      assert.equal(q.stderr, `ongrid-skill: ${bad}:3:1: not valid YAML: ${said}\n`)
    }
  })
})
