import assert from 'node:assert/strict'
import { mkdirSync, writeFileSync } from 'node:fs'
import { after, before, describe, test } from 'node:test'
import { runCliSync } from '../helpers/cli.js'
import { cli, fixModes, golden, PACKS } from '../helpers/lint-fixtures.js'
import { ECHO, makeTree, manifest, tempRoot } from '../helpers/tree.js'

/** A clean run's summary: the root assumed is said whenever --root was not given. */
const clean = (root: string) =>
  `✔ 1 file checked (1 manifest): no problems\nroot: ${root} (assumed; --root to set it)\n`

describe('ongrid-skill validate', () => {
  let R = ''
  let cleanup = () => {}
  before(() => {
    fixModes()
    ;({ root: R, cleanup } = tempRoot())
    makeTree(R, {
      'ok/skill.json': manifest({ name: 'ok' }),
      'ok/run.sh': ECHO,
      'warn/skill.json': manifest({ name: 'warn' }),
      'warn/run.sh': { exec: '#!/no/such/interpreter\n' },
    })
    writeFileSync(`${R}/junk.json`, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 0xff, 0xfe, 10]))
  })
  after(() => cleanup())

  test('the manager rules over the fixture packs (golden)', () => {
    const r = cli(['validate', 'test/fixtures/lint/packs'])
    assert.equal(r.code, 1)
    assert.equal(r.stderr, '')
    golden('validate.stylish.txt', r.stdout)
  })
  test('a valid pack: exit 0, a one-line confirmation and the root assumed', () => {
    const r = cli(['validate', `${R}/ok`])
    assert.deepEqual([r.code, r.stdout, r.stderr], [0, clean(R), ''])
    const given = cli(['validate', `${R}/ok`, '--root', R])
    assert.deepEqual([given.code, given.stdout], [0, '✔ 1 file checked (1 manifest): no problems\n'])
    assert.equal(cli(['validate', `${PACKS}/good`]).code, 0)
    assert.equal(cli(['validate'], {}, `${R}/ok`).code, 0)
  })
  test('warnings alone do not fail validate', () => {
    const r = cli(['validate', `${R}/warn`])
    assert.equal(r.code, 0)
    assert.match(
      r.stdout,
      /warning {2}subprocess skill warn: start: fork\/exec .*: no such file or directory \(stderr: \) {2}run\/interpreter-missing/,
    )
  })
  test('usage and tool errors: exit 2, one line on stderr', () => {
    let r = cli(['validate', 'nope'], {}, R)
    assert.deepEqual([r.code, r.stdout, r.stderr], [2, '', 'ongrid-skill: PATH does not exist: nope\n'])
    r = cli(['validate', `${R}/ok`, '--format', 'xml'])
    assert.equal(r.code, 2)
    assert.equal(r.stderr.split('\n').filter(Boolean).length, 1)
    r = cli(['validate', `${R}/ok`, '--root', `${R}/nope`])
    assert.equal(r.code, 2)
  })
  test('a skill.json over 16 MiB is judged as the manager judges it (valid: no problems)', () => {
    makeTree(R, {
      'big/skill.json': manifest({ name: 'big', description: 'x'.repeat(20 * 1024 * 1024) }),
      'big/run.sh': ECHO,
    })
    const r = cli(['validate', `${R}/big`])
    assert.deepEqual([r.code, r.stdout], [0, clean(R)])
  })
  test('a PATH that is not UTF-8 is the bytes given, not Node’s text of them', () => {
    const dir = Buffer.from(`${R}/caf\xe9`, 'latin1')
    mkdirSync(dir, { recursive: true })
    writeFileSync(Buffer.concat([dir, Buffer.from('/skill.json')]), manifest({ name: 'latin' }))
    writeFileSync(Buffer.concat([dir, Buffer.from('/run.sh')]), ECHO.exec, { mode: 0o755 })
    const r = runCliSync(['validate'], {
      sh: `exec "$0" "$@" "$(printf '${R}/caf\\351')"`,
      encoding: 'latin1',
    })
    assert.deepEqual([r.code, r.stdout, r.stderr], [0, clean(R).replace('✔', '\xe2\x9c\x94'), ''])
  })
  test('--json failures: one document with the message and the exit code', () => {
    for (const args of [['nope'], [`${R}/ok`, '--format', 'xml'], [`${R}/ok`, '--root', `${R}/nope`]]) {
      const r = cli(['validate', ...args, '--json'], {}, R)
      assert.equal(r.code, 2, args.join(' '))
      const doc = JSON.parse(r.stdout)
      assert.deepEqual([doc.ok, doc.exit_code], [false, 2], args.join(' '))
      assert.equal(r.stderr, `ongrid-skill: ${doc.error.message}\n`)
    }
  })
  test('binary junk is a finding, not a crash', () => {
    const r = cli(['validate', `${R}/junk.json`, '--json'])
    assert.equal(r.code, 1)
    const doc = JSON.parse(r.stdout)
    assert.deepEqual(
      doc.files[0].findings.map((f: { rule_id: string }) => f.rule_id),
      ['manager/parse', 'manager/file-name'],
    )
    assert.equal(
      doc.files[0].findings[0].message,
      "decode: invalid character '\\u0089' looking for beginning of value",
    )
  })
  test('--json is the json format; --quiet keeps errors only', () => {
    const doc = JSON.parse(cli(['validate', `${R}/warn`, '--json']).stdout)
    assert.equal(doc.command, 'validate')
    assert.equal(doc.summary.warnings, 1)
    assert.equal(cli(['validate', `${R}/warn`, '--quiet']).stdout, clean(R))
  })
  test('packs behind a symlinked dir are never loaded by the manager: said, never a silent pass', () => {
    makeTree(R, {
      'sym/root/q/skill.json': manifest({ name: 'q' }),
      'sym/root/q/run.sh': ECHO,
      'sym/root/linked': { link: '../real' },
      'sym/real/p/skill.json': manifest({ name: 'p' }),
      'sym/real/p/run.sh': ECHO,
      'sym/only/linked': { link: '../real' },
    })
    const r = cli(['validate', `${R}/sym/root`])
    assert.equal(r.code, 0, r.stderr)
    assert.match(
      r.stdout,
      /sym\/root\/linked\n {2}1:1 {2}warning {2}a symlink to a dir that holds packs: the manager's walk does not follow symlinks \(filepath\.Walk\), so it loads none of them {2}manager\/symlink-not-walked\n/,
    )
    assert.match(
      r.stdout,
      /in 1 file checked \(1 manifest\)\nroot: .*\/sym\/root \(assumed; --root to set it\)\n$/,
    )
    // Nothing but the symlink: nothing the manager loads, so nothing judged — a usage error, not a pass.
    const only = cli(['validate', `${R}/sym/only`])
    assert.equal(only.code, 2)
    assert.match(
      only.stderr,
      /^ongrid-skill: no skill\.json or SKILL\.md under .*sym\/only that the manager loads: .*sym\/only\/linked is a symlink to a dir of packs/,
    )
  })

  test('a SKILL.md the chat runtime never parses is said, never judged registrable', () => {
    const md = '---\nname: a\ndescription: d\n---\n'
    makeTree(R, {
      'native/skills/a/SKILL.md': md,
      'native/b/SKILL.md': md,
      'native/skills/a/sub/SKILL.md': { link: '../SKILL.md' },
      'native/skills/c/SKILL.md': { link: 'nowhere' },
    })
    const r = cli(['validate', 'native', '--json'], {}, R)
    assert.equal(r.code, 1, r.stderr)
    const doc = JSON.parse(r.stdout)
    const said = doc.files.map((f: { path: string; findings: { rule_id: string; message: string }[] }) => [
      f.path,
      f.findings.map((x) => `${x.rule_id}: ${x.message.replaceAll(R, '$R')}`),
    ])
    assert.deepEqual(said, [
      [
        'native/b/SKILL.md',
        [
          'native/not-loaded: not loaded: the chat runtime loads $R/native as a bare skills pack (no manifest) and reads SKILL.md files from $R/native/skills only',
        ],
      ],
      ['native/skills/a/SKILL.md', []],
      [
        'native/skills/a/sub/SKILL.md',
        [
          'native/not-loaded: a symlinked SKILL.md: the chat runtime’s walk never parses one (filepath.Walk does not follow it), so nothing is registered from it, without a warning',
        ],
      ],
      [
        'native/skills/c/SKILL.md',
        ['native/not-loaded: lstat $R/native/skills/c/nowhere: no such file or directory'],
      ],
    ])
  })

  test('a pack dir with packs nested below it: every one is judged, as the manager walks them', () => {
    makeTree(R, {
      'outer/skill.json': manifest({ name: 'outer' }),
      'outer/run.sh': ECHO,
      'outer/inner/skill.json': manifest({ name: 'Bad Name' }),
      'outer/inner/run.sh': ECHO,
      'outer/deep/er/skill.json': manifest({ name: 'outer' }),
      'outer/deep/er/run.sh': ECHO,
    })
    const r = cli(['validate', 'outer', '--json'], {}, R)
    assert.equal(r.code, 1)
    const doc = JSON.parse(r.stdout)
    assert.deepEqual(
      doc.files.map((f: { path: string }) => f.path),
      ['outer/deep/er/skill.json', 'outer/inner/skill.json', 'outer/skill.json'],
    )
    // The walk's order: deep/er registers "outer" first, so the pack itself is the duplicate.
    assert.ok(doc.files[2].findings.some((f: { rule_id: string }) => f.rule_id === 'manager/duplicate-name'))
    assert.equal(doc.summary.manifests, 3)
    // A pack dir that also holds packs may be a root itself: the stricter root, outer, is taken.
    for (const command of ['validate', 'lint'])
      assert.ok(
        cli([command, `${R}/outer`]).stdout.endsWith(
          `in 3 files checked (3 manifests)\nroot: ${R}/outer (assumed; --root to set it)\n`,
        ),
        command,
      )
    assert.deepEqual(doc.summary.roots, [{ path: `${R}/outer`, assumed: true }])
  })
})
