import assert from 'node:assert/strict'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, describe, test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { Ajv2020 } from 'ajv/dist/2020.js'
import { RULES } from '../src/core/lint/registry.js'
import { cli } from './core/lint/cli.js'
import { ECHO, makeTree, manifest, tempRoot } from './helpers/tree.js'

// The JSON Schemas the package ships for editors (schemas/), checked against the CLI itself.
const REPO = fileURLToPath(new URL('../../', import.meta.url))
const load = (name: string) => JSON.parse(readFileSync(join(REPO, 'schemas', name), 'utf8'))
const T = tempRoot('ongrid-schemas-')
after(T.cleanup)

function validator(name: string) {
  const ajv = new Ajv2020({ strict: true, allErrors: true })
  return ajv.compile(load(name))
}

describe('schemas/skill.schema.json', () => {
  const valid = validator('skill.schema.json')

  test('shipped in the package', () => {
    const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8'))
    assert.ok(pkg.files.includes('schemas'))
  })

  test('accepts the packs the manager accepts: the examples and every template', () => {
    for (const pack of ['disk_usage', 'host_uptime', 'missing_entry']) {
      const m = JSON.parse(readFileSync(join(REPO, 'examples/skills', pack, 'skill.json'), 'utf8'))
      assert.ok(valid(m), `${pack}: ${JSON.stringify(valid.errors)}`)
    }
    for (const template of ['bash', 'go', 'node', 'python']) {
      const dir = join(T.root, `t_${template}`)
      const args = ['init', `t_${template}`, '-y', '-q', '-d', 'Checks that a TCP port answers, for deploys.']
      const r = cli([...args, '--template', template, '--dir', dir])
      assert.equal(r.code, 0, r.stderr)
      const m = JSON.parse(readFileSync(join(dir, 'skill.json'), 'utf8'))
      assert.ok(valid(m), `${template}: ${JSON.stringify(valid.errors)}`)
    }
  })

  test('rejects what the manager rejects: names, classes, types, missing fields, builtin names', () => {
    const base = { name: 'ok_skill', description: 'Does a thing.', entry: 'run.sh' }
    const bad: Record<string, unknown>[] = [
      { ...base, name: 'Bad-Name' },
      { ...base, name: '' },
      { ...base, name: 'web_search' },
      { ...base, class: 'Safe' },
      { ...base, timeout_seconds: '30' },
      { ...base, timeout_seconds: 1.5 },
      { ...base, env_allow: 'PATH' },
      { ...base, description: '' },
      // The manager folds key case (Go's encoding/json); the schema wants the keys as written.
      { Name: 'ok_skill', description: 'Does a thing.', entry: 'run.sh' },
      { name: 'ok_skill', description: 'Does a thing.' },
    ]
    for (const m of bad) assert.equal(valid(m), false, JSON.stringify(m))
    for (const m of [base, { ...base, class: '' }, { ...base, timeout_seconds: 0, class: 'dangerous' }]) {
      assert.ok(valid(m), JSON.stringify(m))
    }
  })

  test('validate and lint take a `$schema` key pointing at it without a finding', () => {
    makeTree(T.root, {
      'with_schema/skill.json': JSON.stringify({
        $schema: '../node_modules/ongrid-skill/schemas/skill.schema.json',
        ...JSON.parse(manifest({ name: 'with_schema' })),
      }),
      'with_schema/run.sh': ECHO,
    })
    const r = cli(['lint', join(T.root, 'with_schema'), '--format', 'json'])
    const rules = JSON.parse(r.stdout).files.flatMap((f: { findings: { ruleId: string }[] }) =>
      f.findings.map((x) => x.ruleId),
    )
    assert.ok(!rules.includes('practice/near-miss-key'), rules.join(' '))
    assert.ok(!rules.includes('practice/unknown-key'), rules.join(' '))
    const v = cli(['validate', join(T.root, 'with_schema')])
    assert.equal(v.code, 0, v.stdout)
  })
})

describe('schemas/ongrid-skill.schema.json', () => {
  const valid = validator('ongrid-skill.schema.json')

  test('names every rule id the CLI has, and only those', () => {
    const schema = load('ongrid-skill.schema.json')
    assert.deepEqual(schema.properties.rules.propertyNames.enum, RULES.map((r) => r.id).sort())
  })

  test('accepts what lint accepts, rejects what lint rejects', () => {
    const good = {
      $schema: './node_modules/ongrid-skill/schemas/ongrid-skill.schema.json',
      rules: { 'practice/class-unset': 'off', 'schema/missing': 'warning' },
      ignore: ['vendor/**'],
    }
    assert.ok(valid(good), JSON.stringify(valid.errors))
    // lint reads the same file without complaint.
    makeTree(T.root, { 'cfg/p/skill.json': manifest({ name: 'p' }), 'cfg/p/run.sh': ECHO })
    const cfg = join(T.root, 'cfg', 'c.yaml')
    writeFileSync(cfg, JSON.stringify(good))
    const r = cli(['lint', join(T.root, 'cfg', 'p'), '--config', cfg])
    assert.notEqual(r.code, 2, r.stderr)
    for (const bad of [
      { rule: {} },
      { rules: { 'practice/clas-unset': 'off' } },
      { rules: { 'practice/class-unset': 'loud' } },
      { ignore: 'vendor/**' },
    ]) {
      assert.equal(valid(bad), false, JSON.stringify(bad))
      writeFileSync(cfg, JSON.stringify(bad))
      assert.equal(cli(['lint', join(T.root, 'cfg', 'p'), '--config', cfg]).code, 2, JSON.stringify(bad))
    }
  })
})
