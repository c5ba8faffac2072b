import assert from 'node:assert/strict'
import { cpSync } from 'node:fs'
import { after, before, describe, test } from 'node:test'
import { REPO } from '../helpers/cli.js'
import { cli } from '../helpers/lint-fixtures.js'
import { ECHO, makeTree, manifest, tempRoot } from '../helpers/tree.js'

const LEFT_OUT = 'left out: .git (1 dir), node_modules (1 dir) (--no-default-ignore walks them)\n'

/**
 * A repository laid out the usual way: the user's packs under skills/, this tool installed in
 * node_modules/ with its example packs (some deliberately bad, one named as the user's pack),
 * and .git/.
 */
describe('the default walk judges the user’s packs, and only theirs', () => {
  let R = ''
  let cleanup = () => {}
  before(() => {
    ;({ root: R, cleanup } = tempRoot())
    makeTree(R, {
      'skills/disk_usage/skill.json': manifest({
        name: 'disk_usage',
        description: 'Reports the free space of a filesystem, in bytes.',
        class: 'safe',
        timeout_seconds: 10,
        schema: { type: 'object', properties: {}, additionalProperties: false },
      }),
      'skills/disk_usage/run.sh': ECHO,
      'skills/disk_usage/tests/echo.json': JSON.stringify({
        name: 'echoes',
        args: {},
        expect: { ok: true },
      }),
      '.git/HEAD': 'ref: refs/heads/main\n',
      '.git/hooks/skill.json': '{',
    })
    cpSync(`${REPO}/examples`, `${R}/node_modules/ongrid-skill/examples`, { recursive: true })
  })
  after(() => cleanup())

  test('validate and lint with no PATH: the user’s pack only, what was left out and the root said', () => {
    for (const command of ['validate', 'lint']) {
      const r = cli([command], {}, R)
      assert.deepEqual(
        [r.code, r.stdout, r.stderr],
        [
          0,
          `✔ 1 file checked (1 manifest): no problems\n${LEFT_OUT}root: ${R} (assumed; --root to set it)\n`,
          '',
        ],
        command,
      )
    }
  })
  test('--json: summary.left_out and summary.roots', () => {
    const doc = JSON.parse(cli(['validate', '--json'], {}, R).stdout)
    assert.deepEqual(doc.summary.left_out, { '.git': 1, node_modules: 1 })
    assert.deepEqual(doc.summary.roots, [{ path: R, assumed: true }])
    const given = JSON.parse(cli(['lint', 'skills', '--root', R, '--json'], {}, R).stdout)
    assert.deepEqual(given.summary.left_out, {})
    assert.deepEqual(given.summary.roots, [{ path: R, assumed: false }])
  })
  test('--no-default-ignore walks them, as the manager would if they were deployed', () => {
    const r = cli(['validate', '--no-default-ignore', '--json'], {}, R)
    assert.equal(r.code, 1)
    const doc = JSON.parse(r.stdout)
    assert.deepEqual(doc.summary.left_out, {})
    assert.ok(doc.files.some((f: { path: string }) => f.path === '.git/hooks/skill.json'))
    assert.ok(
      doc.files.some((f: { path: string }) => f.path.startsWith('node_modules/ongrid-skill/examples/')),
    )
  })
  test('a PATH inside node_modules, named explicitly, is judged', () => {
    const r = cli(['validate', 'node_modules/ongrid-skill/examples/skills'], {}, R)
    assert.equal(r.code, 1)
    assert.match(r.stdout, /manager\/parse/)
    assert.ok(
      r.stdout.endsWith(`root: ${R}/node_modules/ongrid-skill/examples/skills (assumed; --root to set it)\n`),
    )
  })
  test('test with no PATH: the user’s cases only, and what was left out', () => {
    const r = cli(['test'], {}, R)
    assert.equal(r.code, 0, r.stderr)
    assert.match(r.stdout, /✓ echoes/)
    assert.ok(r.stdout.endsWith(`${LEFT_OUT}root: ${R} (assumed; --root to set it)\n`), r.stdout)
    const doc = JSON.parse(cli(['test', '--json'], {}, R).stdout)
    assert.deepEqual(
      [doc.summary.total, doc.summary.left_out, doc.summary.roots],
      [1, { '.git': 1, node_modules: 1 }, [{ path: R, assumed: true }]],
    )
    const given = cli(['test', 'skills', '--root', R], {}, R)
    assert.match(given.stdout, /\nTime: .*\n$/)
    // Walked, nothing is left out (the example packs hold no cases to run).
    const all = JSON.parse(cli(['test', '--no-default-ignore', '--json'], {}, R).stdout)
    assert.deepEqual([all.summary.total, all.summary.left_out], [1, {}])
  })
  test('nothing outside the dirs left out: exit 2 saying so, never a pass', () => {
    makeTree(R, { 'vendored/node_modules/p/skill.json': manifest({ name: 'p' }) })
    const v = cli(['validate', 'vendored'], {}, R)
    assert.deepEqual(
      [v.code, v.stdout, v.stderr],
      [
        2,
        '',
        'ongrid-skill: no skill.json or SKILL.md under vendored outside the dirs left out by default: node_modules (1 dir) (--no-default-ignore walks them)\n',
      ],
    )
  })
})

describe('validate honours the config’s ignore globs, and only those', () => {
  let R = ''
  let cleanup = () => {}
  before(() => {
    ;({ root: R, cleanup } = tempRoot())
    makeTree(R, {
      '.ongrid-skill.yaml': 'rules:\n  practice/class-unset: error\nignore:\n  - vendor/**\n',
      'skills/mine/skill.json': manifest({ name: 'mine' }),
      'skills/mine/run.sh': ECHO,
      'vendor/theirs/skill.json': manifest({ name: 'Theirs' }),
      'vendor/theirs/run.sh': ECHO,
    })
  })
  after(() => cleanup())

  test('ignored packs are not judged; lint-only rules in the config are neither applied nor refused', () => {
    const r = cli(['validate'], {}, R)
    assert.deepEqual(
      [r.code, r.stdout, r.stderr],
      [
        0,
        `✔ 1 file checked (1 manifest), 1 ignored: no problems\nroot: ${R} (assumed; --root to set it)\n`,
        '',
      ],
    )
    // lint applies the same config's rules too.
    assert.equal(cli(['lint'], {}, R).code, 1)
  })
  test('--no-config reads none; --config names one', () => {
    const r = cli(['validate', '--no-config'], {}, R)
    assert.equal(r.code, 1)
    assert.match(r.stdout, /name "Theirs" must be lower_snake/)
    makeTree(R, { 'other.yaml': 'ignore: [skills]\n' })
    const c = cli(['validate', '--config', 'other.yaml', '--json'], {}, R)
    assert.equal(c.code, 1)
    assert.equal(JSON.parse(c.stdout).summary.ignored, 1)
  })
  test('a config validate cannot use is a usage error, as for lint', () => {
    makeTree(R, {
      'broken/.ongrid-skill.yaml': 'ignore: [a\n',
      'broken/p/skill.json': manifest({ name: 'p' }),
    })
    const r = cli(['validate', 'broken'], {}, R)
    assert.equal(r.code, 2)
    assert.match(r.stderr, /^ongrid-skill: .*broken\/\.ongrid-skill\.yaml:\d+:\d+: not valid YAML/)
  })
})

describe('the allow-list root when PATH is ambiguous', () => {
  let R = ''
  let cleanup = () => {}
  before(() => {
    ;({ root: R, cleanup } = tempRoot())
    makeTree(R, {
      // outer is a pack dir, or the root configured: its entry points into a sibling of outer.
      'outer/skill.json': manifest({ name: 'outer', entry: '../sibling/run.sh' }),
      'outer/inner/skill.json': manifest({ name: 'inner' }),
      'outer/inner/run.sh': ECHO,
      'sibling/run.sh': ECHO,
      'alone/skill.json': manifest({ name: 'alone', entry: '../sibling/run.sh' }),
    })
  })
  after(() => cleanup())

  test('a pack dir holding nested packs: checked against itself, the stricter root — never a false green', () => {
    const r = cli(['validate', 'outer'], {}, R)
    assert.equal(r.code, 1)
    assert.match(r.stdout, new RegExp(`entry ${R}/sibling/run.sh escapes allowlist root ${R}/outer`))
    assert.ok(r.stdout.endsWith(`root: ${R}/outer (assumed; --root to set it)\n`))
    const doc = JSON.parse(cli(['validate', 'outer', '--json'], {}, R).stdout)
    assert.deepEqual(doc.summary.roots, [{ path: `${R}/outer`, assumed: true }])
  })
  test('--root sets it, and the summary then says nothing of a root', () => {
    const r = cli(['validate', 'outer', '--root', R], {}, R)
    assert.deepEqual([r.code, r.stdout], [0, '✔ 2 files checked (2 manifests): no problems\n'])
  })
  test('a pack dir with nothing nested: the dir that holds it, said as assumed', () => {
    const r = cli(['validate', 'alone'], {}, R)
    assert.deepEqual(
      [r.code, r.stdout],
      [0, `✔ 1 file checked (1 manifest): no problems\nroot: ${R} (assumed; --root to set it)\n`],
    )
  })
})
