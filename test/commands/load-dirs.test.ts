import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { after, before, describe, test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { ECHO, makeTree, manifest, tempRoot } from '../helpers/tree.js'

const BIN = fileURLToPath(new URL('../../../bin/run.js', import.meta.url))

function ongridSkill(args: string[], env: Record<string, string | undefined> = {}) {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    env: { ...process.env, ONGRID_SKILLS_EXTERNAL_DIRS: undefined, ...env },
    encoding: 'latin1',
  })
  return { code: r.status, stdout: r.stdout, stderr: r.stderr }
}

const cli = (args: string[], env: Record<string, string | undefined> = {}) =>
  ongridSkill(['load-dirs', ...args], env)

describe('ongrid-skill load-dirs', () => {
  let R = ''
  let cleanup = () => {}
  before(() => {
    ;({ root: R, cleanup } = tempRoot())
    makeTree(R, {
      'a/good/skill.json': manifest({ name: 'good' }),
      'a/good/run.sh': ECHO,
      'a/bad/skill.json': '{"name":"bad",}',
      'b/dup/skill.json': manifest({ name: 'good' }),
      'b/dup/run.sh': ECHO,
      'b/case/skill.json': '{"Name":"case_only","description":"d","entry":"run.sh"}',
      'b/case/run.sh': { file: 'echo no shebang\n', mode: 0o755 },
    })
  })
  after(() => cleanup())

  test('prints the loader lines on stdout and a summary on stderr', () => {
    const r = cli([`${R}/a`, `${R}/b`])
    assert.equal(r.code, 0)
    assert.equal(
      r.stdout,
      [
        `skill loader: parse ${R}/a/bad/skill.json: decode: invalid character '}' looking for beginning of object key string`,
        `skill loader: registered subprocess skill "good" from ${R}/a/good/skill.json`,
        `skill loader: registered subprocess skill "case_only" from ${R}/b/case/skill.json`,
        `skill loader: skill "good" already registered, skipping ${R}/b/dup/skill.json`,
        '',
      ].join('\n'),
    )
    assert.equal(r.stderr, '2 registered, 2 skipped (1 parse error, 1 duplicate name)\n')
  })

  test('takes dirs from ONGRID_SKILLS_EXTERNAL_DIRS split on , and ; only', () => {
    const r = cli([], { ONGRID_SKILLS_EXTERNAL_DIRS: ` ${R}/a ;; ${R}/none:${R}/b ,` })
    assert.equal(r.code, 0)
    assert.match(r.stdout, new RegExp(`skill loader: dir ${R}/none:${R}/b not present, skipping\n$`))
  })

  test('--log-format json prints slog records and the closing count', () => {
    const r = cli([`${R}/a`, '--log-format', 'json'])
    const lines = r.stdout.trimEnd().split('\n')
    assert.equal(lines.length, 3)
    const time = '"time":"\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d{1,9})?(Z|[+-]\\d\\d:\\d\\d)"'
    assert.match(
      lines[1],
      new RegExp(
        `^\\{${time},"level":"INFO","msg":"skill loader: registered subprocess skill \\\\"good\\\\" from ${R}/a/good/skill.json","service":"ongrid","comp":"skill-loader"\\}$`,
      ),
    )
    assert.match(
      lines[2],
      new RegExp(
        `^\\{${time},"level":"INFO","msg":"subprocess skills loaded","service":"ongrid","count":1\\}$`,
      ),
    )
  })

  test('--json gives one document with events and skills', () => {
    const r = cli([`${R}/a`, '--json'])
    assert.equal(r.code, 0)
    const doc = JSON.parse(r.stdout)
    assert.deepEqual(doc.dirs, [`${R}/a`])
    assert.equal(doc.count, 1)
    assert.deepEqual(
      doc.events.map((e: { kind: string }) => e.kind),
      ['parse-error', 'registered'],
    )
    assert.deepEqual(doc.skills[0], {
      name: 'good',
      manifest: `${R}/a/good/skill.json`,
      entry: `${R}/a/good/run.sh`,
      class: 'safe',
      category: 'external',
      timeout_ms: 30000,
      env_allow: null,
      schema_raw: null,
    })
  })

  test('--strict exits 1 when a manifest was rejected', () => {
    assert.equal(cli([`${R}/a`, '--strict']).code, 1)
    assert.equal(cli([`${R}/a/good`, '--strict']).code, 0)
  })

  test('--explain hints at causes the manager does not state', () => {
    const r = cli([`${R}/b`, `${R}/a`, 'rel/dir', '--explain'])
    assert.match(r.stderr, /key "Name" was read as "name"/)
    assert.match(r.stderr, /has no "#!" line/)
    assert.match(r.stderr, /was first registered from/)
  })

  test('--no-builtins and --builtins change the pre-seeded keys', () => {
    makeTree(R, { 'c/web/skill.json': manifest({ name: 'web_search' }), 'c/web/run.sh': ECHO })
    assert.match(cli([`${R}/c`]).stdout, /already registered/)
    assert.match(cli([`${R}/c`, '--no-builtins']).stdout, /registered subprocess skill "web_search"/)
    assert.match(cli([`${R}/c`, '--builtins', 'x,y']).stdout, /registered subprocess skill "web_search"/)
  })

  test('no dirs at all is a one-line usage error, exit 2', () => {
    const r = cli([])
    assert.equal(r.code, 2)
    assert.equal(r.stderr.split('\n').length, 2)
    assert.match(r.stderr, /^ongrid-skill: no dirs: pass DIR arguments or set ONGRID_SKILLS_EXTERNAL_DIRS/)
  })

  test('an unknown flag is a one-line usage error and a hint, exit 2', () => {
    const r = cli([`${R}/a`, '--bogus'])
    assert.equal(r.code, 2)
    assert.equal(r.stderr, 'ongrid-skill: unknown flag --bogus\nhint: see `ongrid-skill load-dirs --help`\n')
    const near = cli([`${R}/a`, '--builtin'])
    assert.equal(near.stderr, 'ongrid-skill: unknown flag --builtin\nhint: did you mean --builtins?\n')
  })

  test('--version answers without loading commands', () => {
    const r = ongridSkill(['--version'])
    assert.equal(r.code, 0)
    assert.match(r.stdout, /^ongrid-skill\/\d+\.\d+\.\d+ linux-\w+ node-v\d+/)
  })
})
