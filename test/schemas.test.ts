import assert from 'node:assert/strict'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, describe, test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { Ajv2020 } from 'ajv/dist/2020.js'
import { fromText } from '../src/core/go/gostring.js'
import { RULES } from '../src/core/lint/registry.js'
import { checkName } from '../src/core/loader/build.js'
import { decodeManifest } from '../src/core/loader/manifest.js'
import { managerRelease } from '../src/core/releases/release.js'
import { cli } from './helpers/lint-fixtures.js'
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

  /** What the manager's loader says of a manifest a schema can judge: decoded, then build's checks that need no disk. */
  function managerTakes(text: string): boolean {
    const { manifest: m, err } = decodeManifest(fromText(text))
    if (err !== null) return false
    if (checkName(m.name) !== null || m.description === '' || m.entry === '') return false
    if (!['', 'safe', 'mutating', 'dangerous'].includes(m.class)) return false
    // A builtin's name is not a build failure but the manager never registers it.
    return !managerRelease().builtinSkillKeys.includes(m.name)
  }

  test('agrees with the manager on every example pack a JSON parser reads', () => {
    const dir = join(REPO, 'examples/skills')
    let judged = 0
    for (const pack of readdirSync(dir)) {
      const text = readFileSync(join(dir, pack, 'skill.json'), 'latin1')
      let value: unknown
      try {
        value = JSON.parse(text)
      } catch {
        continue // broken_json: not JSON, for the manager too
      }
      judged++
      // not_executable spells its key "Name": Go folds key case, a schema cannot (its description says so).
      if (pack === 'not_executable') assert.ok(managerTakes(text), pack)
      const expected = pack === 'not_executable' ? false : managerTakes(text)
      assert.equal(valid(value), expected, `${pack}: ${JSON.stringify(valid.errors)}`)
    }
    assert.ok(judged >= 7, `${judged} examples judged`)
  })

  test('agrees with the manager on generated manifests: names, classes, types, nulls, missing keys', () => {
    const ABSENT = Symbol('absent')
    const choices: Record<string, unknown[]> = {
      name: [
        'ok_skill',
        'a1_',
        'Bad',
        'a-b',
        '',
        'web_search',
        'host_probe_tcp',
        'caf\u00e9',
        5,
        null,
        ABSENT,
      ],
      description: ['Does a thing.', '', ' ', null, 3, ABSENT],
      entry: ['run.sh', '/bin/true', '', null, true, ABSENT],
      class: ['', 'safe', 'mutating', 'dangerous', 'Safe', 'x', null, 1, ABSENT],
      category: ['ops', '', null, 2, ABSENT],
      timeout_seconds: [30, 0, -5, 86400, null, '30', 1.5, true, ABSENT],
      env_allow: [['PATH'], [], null, 'PATH', [1], ABSENT],
      schema: [{ type: 'object' }, {}, null, ABSENT],
    }
    let seed = 12345
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31
      return seed % n
    }
    let accepted = 0
    for (let i = 0; i < 6000; i++) {
      const m: Record<string, unknown> = {}
      for (const [key, values] of Object.entries(choices)) {
        const v = values[next(values.length)]
        if (v !== ABSENT) m[key] = v
      }
      const text = JSON.stringify(m)
      const manager = managerTakes(text)
      if (manager) accepted++
      assert.equal(valid(m), manager, `${text}: ${JSON.stringify(valid.errors)}`)
    }
    assert.ok(accepted > 30, `${accepted} accepted`)
    // Where the schema is stricter than the loader, on purpose: a schema that is not an object
    // (the LLM bridge skips the skill: lint's schema/not-object), a null in env_allow (an
    // empty variable name), and number spellings a schema cannot see (60.0 and 1e2 are Go type
    // errors, but values of 60 and 100 to a JSON parser).
    const base = { name: 'ok_skill', description: 'Does a thing.', entry: 'run.sh' }
    assert.ok(managerTakes(JSON.stringify({ ...base, schema: 'x' })))
    assert.equal(valid({ ...base, schema: 'x' }), false)
    assert.ok(managerTakes(JSON.stringify({ ...base, env_allow: [null] })))
    assert.equal(valid({ ...base, env_allow: [null] }), false)
    assert.equal(
      managerTakes('{"name":"ok_skill","description":"d","entry":"e","timeout_seconds":60.0}'),
      false,
    )
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
    const rules = JSON.parse(r.stdout).files.flatMap((f: { findings: { rule_id: string }[] }) =>
      f.findings.map((x) => x.rule_id),
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
    const [ids, ...rest] = schema.properties.rules.propertyNames.anyOf
    assert.deepEqual(ids.enum, RULES.map((r) => r.id).sort())
    assert.deepEqual(
      rest
        .filter((p: { description?: string }) => p.description === undefined)
        .map((p: { pattern: string }) => p.pattern),
      RULES.flatMap((r) => (r.subIds ? [r.subIds.schemaPattern] : [])),
    )
  })

  test('accepts what lint accepts, rejects what lint rejects', () => {
    const good = {
      $schema: './node_modules/ongrid-skill/schemas/ongrid-skill.schema.json',
      rules: {
        'practice/*': 'warn',
        schema: 'info',
        'practice/class-unset': 'off',
        'schema/missing': 'warning',
        'entry/SC2086': 'error',
      },
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
      { rules: { 'entry/SC86': 'off' } },
      { ignore: 'vendor/**' },
    ]) {
      assert.equal(valid(bad), false, JSON.stringify(bad))
      writeFileSync(cfg, JSON.stringify(bad))
      assert.equal(cli(['lint', join(T.root, 'cfg', 'p'), '--config', cfg]).code, 2, JSON.stringify(bad))
    }
  })
})

describe('schemas/template.schema.json', () => {
  const valid = validator('template.schema.json')

  test('accepts every built-in template.json', () => {
    for (const t of readdirSync(join(REPO, 'templates'))) {
      const doc = load(join('..', 'templates', t, 'template.json'))
      assert.ok(valid(doc), `${t}: ${JSON.stringify(valid.errors)}`)
    }
  })

  test('rejects what init rejects, and init’s error points at it', () => {
    const good = load(join('..', 'templates', 'bash', 'template.json'))
    for (const [i, bad] of [
      { ...good, schema: 'object' },
      { ...good, entry: '../run.sh' },
      { ...good, entry: '/run.sh' },
      { ...good, example_args: [] },
      { ...good, env_allow: 'PATH' },
      { ...good, build: { requires: [] } },
      (({ description, ...rest }) => rest)(good),
    ].entries()) {
      assert.equal(valid(bad), false, JSON.stringify(bad))
      const dir = join(T.root, `bad-template-${i}`)
      makeTree(dir, { 'template.json': JSON.stringify(bad), 'files/run.sh': ECHO })
      const r = cli([
        'init',
        `bad_${i}`,
        '-y',
        '-d',
        'A skill made from a bad template, for tests.',
        '--template',
        dir,
      ])
      assert.equal(r.code, 2, `${JSON.stringify(bad)}: ${r.stderr}`)
      assert.match(r.stderr, /template\.json/, JSON.stringify(bad))
      assert.match(r.stderr, /^hint: template\.json is described by schemas\/template\.schema\.json$/m)
    }
  })
})
