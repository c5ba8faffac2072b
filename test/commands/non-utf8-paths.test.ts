import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs'
import { after, before, describe, test } from 'node:test'
import { type CliResult, REPO, runCliSync } from '../helpers/cli.js'
import { manifest, tempRoot } from '../helpers/tree.js'

/**
 * A dir named `caf\351` (Latin-1, not UTF-8), given to every command that takes a path. The CLI
 * gets the bytes through execve (/bin/sh's printf); Node shows them as `caf\ufffd`, a name that
 * does not exist. Each command either works on the bytes given or says in one line that the step
 * works by text paths, and never makes or reads a file under Node's other name for it.
 */
describe('paths that are not UTF-8, in every command', () => {
  let R = ''
  let cleanup = () => {}
  /** The Latin-1 dir's bytes, then a path below it. */
  const at = (rel = '') => Buffer.concat([Buffer.from(`${R}/caf\xe9`, 'latin1'), Buffer.from(rel)])
  /** The dir as the shell spells it, for printf. */
  const sh = (rel = '') => `"$(printf '${R}/caf\\351${rel}')"`
  /** Runs the CLI with ARGS, then the shell words WORDS (printf'd bytes). */
  const cli = (args: string[], words: string, env = ''): CliResult =>
    runCliSync(args, { sh: `${env}exec "$0" "$@" ${words}`, encoding: 'latin1', cwd: R })
  /** Node's name for the dir: what a command that lost the bytes would make or read. */
  const lossy = () => `${R}/caf\ufffd`

  before(() => {
    ;({ root: R, cleanup } = tempRoot())
    mkdirSync(at('/p/tests'), { recursive: true })
    writeFileSync(at('/p/skill.json'), manifest({ name: 'latin', entry: 'run.sh' }))
    writeFileSync(at('/p/run.sh'), '#!/bin/sh\ncat\n', { mode: 0o755 })
    writeFileSync(at('/p/tests/a.json'), JSON.stringify({ name: 'a', args: {} }))
    mkdirSync(at('/q'), { recursive: true })
    writeFileSync(at('/q/skill.json'), manifest({ name: 'quiet', entry: 'run.sh' }))
    writeFileSync(at('/q/run.sh'), '#!/bin/sh\ncat\n', { mode: 0o755 })
    execFileSync('/bin/sh', ['-c', `cp -r '${REPO}/examples/marketplace/hello-pack' ${sh('/hp')}`])
    execFileSync('/bin/sh', ['-c', `tar czf ${sh('/hp.tar.gz')} -C ${sh()} hp`])
    writeFileSync(at('/args.json'), '{"n":1}')
    writeFileSync(at('/env'), 'A=1\n')
    writeFileSync(at('/c.yaml'), 'rules:\n  practice/class-unset: off\n')
    mkdirSync(`${R}/ascii`)
    writeFileSync(`${R}/ascii/skill.json`, manifest({ name: 'ascii', entry: 'run.sh' }))
    writeFileSync(`${R}/ascii/run.sh`, '#!/bin/sh\ncat\n', { mode: 0o755 })
  })
  after(() => {
    // Nothing was ever made under Node's text of the name.
    assert.deepEqual(
      readdirSync(R, { encoding: 'latin1' }).filter((n) => n.includes('\xef\xbf\xbd')),
      [],
    )
    cleanup()
  })

  test('mcp: the dir given (argument or variable) is walked, its pack served', () => {
    for (const r of [
      cli(['mcp', '--json'], sh()),
      cli(['mcp', '--json'], '', `ONGRID_SKILLS_EXTERNAL_DIRS=${sh()} `),
    ]) {
      assert.equal(r.code, 0, r.stderr)
      const doc = JSON.parse(Buffer.from(r.stdoutBytes).toString('utf8'))
      assert.deepEqual(
        doc.tools.map((t: { name: string }) => t.name),
        ['latin', 'quiet'],
      )
      assert.equal(doc.loader_lines[0].kind, 'registered')
    }
  })

  test('test: the PATH is found; a tests/ dir Node cannot read by its name is one problem, not a pass', () => {
    const r = cli(['test', '--format', 'tap'], sh())
    assert.equal(r.code, 1, r.stderr)
    assert.match(
      r.stdout,
      /not read: the pack dir's name is not UTF-8 \(\\?".*\/caf\\+xe9\/p\\?"\), and the test runner reads case files and spawns entries by text paths/,
    )
    // A pack dir without tests/: no cases, said as for any dir (not "PATH does not exist").
    const none = cli(['test'], sh('/q'))
    assert.equal(none.code, 2)
    assert.match(none.stderr, /^ongrid-skill: no test cases found under /)
    // --update writes nothing, --watch refuses the name in one line.
    assert.equal(cli(['test', '--update'], sh()).code, 1)
    const w = cli(['test', '--watch'], sh())
    assert.deepEqual(
      [w.code, w.stderr],
      [
        2,
        `ongrid-skill: --watch: cannot watch "${R}/caf\\xe9": its name is not UTF-8, and the watcher takes text paths (run without --watch)\n`,
      ],
    )
  })

  test('lint: the PATH is checked; --fix says why it leaves the file; --baseline refuses the name', () => {
    const r = cli(['lint', '--format', 'json'], sh('/p'))
    assert.equal(r.code, 0, r.stderr)
    const doc = JSON.parse(Buffer.from(r.stdoutBytes).toString('utf8'))
    assert.equal(doc.files.length, 1)
    const ids = (d: { files: { findings: { rule_id: string }[] }[] }) =>
      d.files[0].findings.map((f) => f.rule_id)
    assert.ok(ids(doc).includes('practice/class-unset'), ids(doc).join(' '))
    // --config names a file in that dir: it is read (its rule setting turns the finding off).
    const off = JSON.parse(
      Buffer.from(
        cli(['lint', '--format', 'json', '--config'], `${sh('/c.yaml')} ${sh('/p')}`).stdoutBytes,
      ).toString('utf8'),
    )
    assert.deepEqual(
      ids(off),
      ids(doc).filter((id: string) => id !== 'practice/class-unset'),
    )
    const fix = cli(['lint', '--fix'], sh('/p'))
    assert.match(
      fix.stderr,
      /skill\.json: not fixed: its path is not UTF-8, and fixes are written by text paths$/m,
    )
    const b = cli(['lint', '--update-baseline', '--baseline'], `${sh('/bl.json')} ${sh('/p')}`)
    assert.equal(b.code, 2)
    assert.match(b.stderr, /^ongrid-skill: --baseline ".*\/caf\\xe9\/bl\.json": the name is not UTF-8/)
    assert.equal(existsSync(at('/bl.json')), false)
  })

  test('run: --args-file and --env-from are read from the bytes given', () => {
    const r = cli(['run', `${R}/ascii`, '--no-audit', '--args-file'], sh('/args.json'))
    assert.deepEqual([r.code, r.stdout], [0, '{"n":1}'])
    const e = cli(['run', `${R}/ascii`, '--no-audit', '--args', '{}', '--env-from'], sh('/env'))
    assert.equal(e.code, 0, e.stderr)
  })

  test('marketplace check and verify: a pack dir and an archive named in Latin-1 are opened', () => {
    for (const rel of ['/hp', '/hp.tar.gz']) {
      for (const cmd of ['check', 'verify']) {
        const r = cli(['marketplace', cmd, '--json'], sh(rel))
        assert.equal(r.code, 0, `${cmd} ${rel}: ${r.stderr}`)
        const doc = JSON.parse(Buffer.from(r.stdoutBytes).toString('utf8'))
        assert.equal(doc.target.path, `${R}/caf\ufffd${rel}`)
        if (cmd === 'check') assert.equal(doc.install.ok, true, `${rel}: ${doc.install.error}`)
        else assert.equal(doc.signature.state, 'unsigned')
      }
    }
  })

  test('marketplace sign, pack and keygen -o, init --dir, audit tail --db, --audit-db: one line, nothing written', () => {
    const cases: [string[], string, string][] = [
      [['marketplace', 'sign', '--key', `${R}/k.pem`], sh('/hp'), ''],
      [['marketplace', 'pack'], sh('/hp'), ''],
      [['marketplace', 'pack', `${R}/ascii`, '-o'], sh('/x.tar.gz'), '-o '],
      [['marketplace', 'keygen', '-o'], sh('/k.pem'), '-o '],
      [['init', 'new_one', '--yes', '--dir'], sh('/new-one'), '--dir '],
      [['audit', 'tail', '-n', '1', '--db'], `sqlite:${sh('/a.db')}`, '--db '],
      [['run', `${R}/ascii`, '--args', '{}', '--audit-db'], sh('/r.db'), '--audit-db '],
      [['test', `${R}/ascii`, '--audit-db'], sh('/t.db'), '--audit-db '],
      [['mcp', `${R}/ascii`, '--json', '--audit-db'], sh('/m.db'), '--audit-db '],
    ]
    for (const [args, words, flag] of cases) {
      const r = cli(args, words)
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`)
      assert.match(
        r.stderr,
        new RegExp(
          `^ongrid-skill: ${flag}"(sqlite:)?${R}/caf\\\\xe9/[^"]+": the name is not UTF-8, and this step works by text paths`,
        ),
        args.join(' '),
      )
    }
    for (const rel of [
      '/hp/signature.json',
      '/x.tar.gz',
      '/k.pem',
      '/new-one',
      '/a.db',
      '/r.db',
      '/t.db',
      '/m.db',
    ])
      assert.equal(existsSync(at(rel)), false, rel)
    assert.equal(existsSync(lossy()), false)
  })

  test('remote push: an archive named in Latin-1 is read and judged before anything is sent', () => {
    const r = cli(
      ['remote', 'push'],
      sh('/hp.tar.gz'),
      'ONGRID_MANAGER_URL= HOME=/nonexistent XDG_CONFIG_HOME=/nonexistent ',
    )
    // It passed the manager's check; what stops it is that nobody is logged in.
    assert.equal(r.code, 2)
    assert.match(r.stderr, /^ongrid-skill: which manager\? /)
  })
})
