import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { type CliResult, runCli, runCliSync, startCli } from '../helpers/cli.js'
import { assertJunitValid, haveXmllint } from '../helpers/junit.js'
import { makeTree, type Node, tempRoot } from '../helpers/tree.js'
import { waitFor } from '../helpers/until.js'

function cli(args: string[], cwd = R): Promise<CliResult> {
  return runCli(['test', ...args], { env: { CI: '1', NO_COLOR: '1' }, cwd, stdin: 'ignore' })
}

const ENTRY = `#!/bin/sh
read -r line
case "$line" in
  *fail*) echo "boom" >&2; exit 3;;
  *sleep*) sleep 5;;
  *) printf '{"used":10,"path":"/tmp"}';;
esac
`

function pack(name: string, cases: unknown, extra: Record<string, Node> = {}): Record<string, Node> {
  return {
    [`${name}/skill.json`]: JSON.stringify({ name, description: 'A test skill.', entry: 'run.sh' }),
    [`${name}/run.sh`]: { exec: ENTRY },
    [`${name}/tests/cases.json`]: JSON.stringify(cases),
    ...extra,
  }
}

const GOOD = [
  { name: 'reports usage', expect: { result: { used: 10 } } },
  {
    name: 'fails on request',
    args: { fail: 1 },
    expect: { error: 'subprocess skill good: exit 3 (stderr: boom)' },
  },
]
const BAD = [
  { name: 'passes', expect: { ok: true } },
  { name: 'wrong used', expect: { result: { used: 11, path: '/tmp' } } },
  { name: 'unexpected timeout', args: { sleep: 1 }, timeout: '100ms', expect: { ok: false } },
]

let R = ''
let cleanup = () => {}
before(() => {
  ;({ root: R, cleanup } = tempRoot('ongrid-test-cmd-'))
  makeTree(R, {
    ...pack('good', GOOD),
    ...pack('bad', BAD),
    'empty/skill.json': JSON.stringify({ name: 'empty', description: 'd', entry: 'run.sh' }),
    'empty/run.sh': { exec: ENTRY },
  })
})
after(() => cleanup())

describe('test: exit codes', () => {
  test('0 when every case passes', async () => {
    const r = await cli(['good'])
    assert.equal(r.code, 0, r.stderr)
    assert.match(r.stdout, /^good \(good\)\n {2}✓ reports usage \(.+ ms\)\n {2}✓ fails on request/)
    assert.match(r.stdout, /\n2 passed, 0 failed\n/)
  })

  test('1 when a case fails; an unexpected timeout fails its case; diffs are shown', async () => {
    const r = await cli(['bad'])
    assert.equal(r.code, 1)
    assert.match(r.stdout, / {2}✗ wrong used/)
    assert.match(r.stdout, /Failures \(- expected, \+ actual\)/)
    assert.match(r.stdout, /\n {8}- {3}"used": 11,\n {8}\+ {3}"used": 10,\n/)
    assert.match(
      r.stdout,
      /timed out, which the case does not expect \("timed_out": true if it should\): subprocess skill bad: timed out after 100ms/,
    )
    assert.match(r.stdout, /\n1 passed, 2 failed\n/)
  })

  test('2 when no cases are found, 0 with --pass-with-no-tests', async () => {
    const r = await cli(['empty'])
    assert.equal(r.code, 2)
    assert.match(
      r.stderr,
      /^ongrid-skill: no test cases found under empty: a pack's cases are <pack>\/tests\/\*\.json/,
    )
    const p = await cli(['empty', '--pass-with-no-tests'])
    assert.equal(p.code, 0)
  })

  test('2 for usage errors, as one line', async () => {
    for (const args of [['good', '--filter', '('], ['good', '-j', '0'], ['missing-dir']]) {
      const r = await cli(args)
      assert.equal(r.code, 2, args.join(' '))
      assert.match(r.stderr, /^ongrid-skill: .*\n$/)
    }
    // A pattern that is not one: said with the pattern as typed, not V8's /…/u text.
    const bad = await cli(['good', '--filter', '(\n'])
    assert.equal(bad.stderr, 'ongrid-skill: --filter "(\\n": not a regular expression (unterminated group)\n')
    const f = await cli(['good', '--filter', 'nothing-matches'])
    assert.equal(f.code, 2)
    assert.match(f.stderr, /matching --filter nothing-matches/)
  })
})

describe('test: args and results nested 10000 deep (Go’s limit)', () => {
  test('cases, matching, diffs, --json and --update handle the depth without a crash', async () => {
    const deep = (d: number, leaf = '') => `${'['.repeat(d)}${leaf}${']'.repeat(d)}`
    const ECHO = '#!/bin/sh\ncat\n'
    // {"a": 9998 arrays}: 9999 levels in the result, 10000 with the case's expect around it.
    const pass = `{"name":"deep","args":{"a":${deep(9998)}},"expect":{"result":{"a":${deep(9998)}}}}`
    const fail = `{"name":"deeper","args":{"a":${deep(9998)}},"expect":{"result":{"a":${deep(9997, '1')}}}}`
    const snap = `{"name":"snap","args":{"a":${deep(9998)}},"snapshot":true}`
    const pk = (name: string, cases: string) => ({
      [`${name}/skill.json`]: JSON.stringify({ name, description: 'A test skill.', entry: 'run.sh' }),
      [`${name}/run.sh`]: { exec: ECHO },
      [`${name}/tests/cases.json`]: cases,
    })
    makeTree(R, { ...pk('deep_ok', pass), ...pk('deep_bad', fail), ...pk('deep_snap', snap) })
    const [ok, okJson, bad, badJson, upd] = await Promise.all([
      cli(['deep_ok']),
      cli(['deep_ok', '--format', 'json']),
      cli(['deep_bad']),
      cli(['deep_bad', '--json']),
      cli(['deep_snap', '--update']),
    ])
    assert.equal(ok.code, 0, ok.stderr)
    assert.match(ok.stdout, /\n1 passed, 0 failed\n/)
    assert.equal(okJson.code, 0, okJson.stderr)
    JSON.parse(okJson.stdout)
    assert.equal(bad.code, 1, bad.stderr)
    assert.match(bad.stdout, /result does not match: \/a expected \[\[\[/)
    assert.equal(badJson.code, 1, badJson.stderr)
    JSON.parse(badJson.stdout)
    assert.equal(upd.code, 0, upd.stderr)
    const again = await cli(['deep_snap'])
    assert.equal(again.code, 0, again.stderr)
  })
})

describe('test: flags', () => {
  test('--filter and --bail', async () => {
    const f = await cli(['good', 'bad', '--filter', '^(reports|passes)', '--format', 'tap'])
    assert.equal(f.code, 0)
    assert.match(f.stdout, /^TAP version 13\nok 1 - good › reports usage\nok 2 - bad › passes\n1\.\.2\n/)
    const b = await cli(['bad', 'good', '--bail', '-j', '1', '--format', 'tap'])
    assert.equal(b.code, 1)
    assert.match(b.stdout, /^TAP version 13\nok 1 - bad › passes\nnot ok 2 - bad › wrong used\n/)
    assert.match(b.stdout, /1\.\.2\n# pass 1\n# fail 1\n# not run 3\n$/)
  })

  test('-j: output in plan order whatever finishes first', async () => {
    const delays = [0.4, 0.01, 0.3, 0, 0.2, 0, 0.1]
    const cases = delays.map((d, i) => ({ name: `c${i}`, env: { DELAY: String(d) }, expect: { ok: true } }))
    const SLOW = `#!/bin/sh\ncat >/dev/null\nsleep "$DELAY"\necho '{}'\n`
    makeTree(R, {
      'par/skill.json': JSON.stringify({
        name: 'par',
        description: 'd',
        entry: 'run.sh',
        env_allow: ['DELAY'],
      }),
      'par/run.sh': { exec: SLOW },
      'par/tests/cases.json': JSON.stringify(cases),
    })
    const r = await cli(['par', '-j', '4', '--format', 'tap'])
    assert.equal(r.code, 0, r.stdout + r.stderr)
    assert.deepEqual(
      r.stdout.split('\n').filter((l) => l.startsWith('ok')),
      cases.map((c, i) => `ok ${i + 1} - par › ${c.name}`),
    )
  })

  test('no -j: as many cases at once as the CPUs available (two cases that wait for each other pass)', async (t) => {
    if (availableParallelism() < 2) return t.skip('one CPU available: -j defaults to 1')
    // Each case's entry marks its start and waits (at most 10 s) for the other's mark: with one
    // case at a time the first never sees the second and fails.
    const MEET = `#!/bin/sh\ncat >/dev/null\ntouch "$MEET/$ME"\ni=0\nwhile [ ! -e "$MEET/$OTHER" ]; do\n  i=$((i+1)); [ $i -gt 200 ] && exit 1; sleep 0.05\ndone\necho '{}'\n`
    const dir = join(R, 'meet-marks')
    const c = (me: string, other: string) => ({
      name: me,
      env: { MEET: dir, ME: me, OTHER: other },
      expect: { ok: true },
    })
    makeTree(R, {
      'meet/skill.json': JSON.stringify({
        name: 'meet',
        description: 'd',
        entry: 'run.sh',
        env_allow: ['MEET', 'ME', 'OTHER'],
      }),
      'meet/run.sh': { exec: MEET },
      'meet/tests/cases.json': JSON.stringify([c('a', 'b'), c('b', 'a')]),
      'meet-marks/.keep': '',
    })
    const r = await cli(['meet', '--format', 'tap'])
    assert.equal(r.code, 0, r.stdout + r.stderr)
    assert.match(r.stdout, /# pass 2\n# fail 0\n/)
  })

  test('-q: each failure once, with its case file and line', async () => {
    // Written out over lines: the failing case starts on line 8.
    makeTree(R, pack('lined', [], { 'lined/tests/cases.json': JSON.stringify(BAD.slice(0, 2), null, 2) }))
    const r = await cli(['lined', '-q'])
    assert.equal(r.code, 1, r.stdout + r.stderr)
    assert.equal(r.stdout.split('wrong used').length - 1, 1, r.stdout)
    assert.match(r.stdout, /^ {2}✗ lined › wrong used {2}tests\/cases\.json:8\n {4}● /)
    assert.doesNotMatch(r.stdout, /passes/)
    assert.match(r.stdout, /\n\n1 passed, 1 failed\n/)
    const full = await cli(['lined'])
    assert.match(full.stdout, /\n {2}✗ lined › wrong used {2}tests\/cases\.json:8\n/)
  })

  test('--update writes snapshots; then they pass', async () => {
    makeTree(R, pack('snap', [{ name: 'whole result', snapshot: true }]))
    const first = await cli(['snap'])
    assert.equal(first.code, 1)
    assert.match(first.stdout, /no snapshot stored yet \(run with --update to write it\)/)
    const u = await cli(['snap', '--update'])
    assert.equal(u.code, 0)
    assert.match(u.stdout, /snapshot written/)
    assert.deepEqual(JSON.parse(readFileSync(join(R, 'snap/tests/cases.json'), 'utf8')), [
      { name: 'whole result', snapshot: true, expect: { result: { used: 10, path: '/tmp' } } },
    ])
    assert.equal((await cli(['snap'])).code, 0)
  })

  test('--update: a case file edited during the run is left as it is, and the run fails', async () => {
    const edited = '[{"name":"s","snapshot":true,"args":{"edited":true}}]'
    makeTree(R, {
      'edit/skill.json': JSON.stringify({ name: 'edit', description: 'A test skill.', entry: 'run.sh' }),
      'edit/run.sh': {
        exec: `#!/bin/sh\nprintf '%s' '${edited}' > "$(dirname "$0")/tests/cases.json"\necho '{}'\n`,
      },
      'edit/tests/cases.json': '[{"name":"s","snapshot":true}]',
    })
    const u = await cli(['edit', '--update'])
    assert.equal(u.code, 1)
    assert.match(
      u.stderr,
      /^ongrid-skill: .*edit\/tests\/cases\.json: changed during the run; its snapshots were not written \(run --update again\)\n$/,
    )
    assert.equal(readFileSync(join(R, 'edit/tests/cases.json'), 'utf8'), edited)
    // Taken, not written: nothing on stdout says it was.
    assert.match(u.stdout, / snapshot taken\n/)
    assert.doesNotMatch(u.stdout, /written/)
    writeFileSync(join(R, 'edit/tests/cases.json'), '[{"name":"s","snapshot":true}]')
    const j = await cli(['edit', '--update', '--json'])
    assert.equal(j.code, 1)
    const doc = JSON.parse(j.stdout)
    assert.equal(doc.summary.snapshots_written, 0)
    assert.equal(doc.packs[0].cases[0].snapshot_written, false)
  })
})

describe('test --audit', () => {
  test('records each case run in the local store; nothing without --audit', async () => {
    const db = join(R, 'audit.db')
    assert.equal((await cli(['good', '--audit-db', db])).code, 0)
    assert.ok(!existsSync(db), 'no store without --audit')
    assert.equal((await cli(['good', '--audit', '--audit-db', db])).code, 0)
    const { Database } = await import('../../src/core/audit/sqlite.js')
    const d = new Database(db, { readonly: true })
    try {
      const rows = d
        .prepare(
          'SELECT skill_key, caller_role, params_json, result_json, error FROM skill_executions ORDER BY id',
        )
        .all()
        .map((r) => ({ ...r }))
      assert.deepEqual(rows, [
        {
          skill_key: 'good',
          caller_role: 'local',
          params_json: '',
          result_json: '{"used":10,"path":"/tmp"}',
          error: '',
        },
        {
          skill_key: 'good',
          caller_role: 'local',
          params_json: '{"fail":1}',
          result_json: '',
          error: 'subprocess skill good: exit 3 (stderr: boom)',
        },
      ])
    } finally {
      d.close()
    }
  })
})

describe('test --audit: a row the store refuses', () => {
  test('is one warning per case, the cases still reported and the exit theirs (not an internal error)', async () => {
    const db = join(R, 'refusing.db')
    const { Database } = await import('../../src/core/audit/sqlite.js')
    const { SKILL_EXECUTIONS_DDL } = await import('../../src/core/audit/local-store.js')
    const d = new Database(db)
    d.exec(SKILL_EXECUTIONS_DDL)
    d.exec(
      "CREATE TRIGGER refuse BEFORE INSERT ON skill_executions BEGIN SELECT RAISE(ABORT, 'rows refused here'); END;",
    )
    d.close()
    const r = await cli(['good', '--audit', '--audit-db', db])
    assert.equal(r.code, 0, r.stderr)
    assert.deepEqual(
      r.stderr.split('\n').filter((l) => l.includes('audit')),
      [
        'warning: audit store: rows refused here (case not recorded)',
        'warning: audit store: rows refused here (case not recorded)',
      ],
    )
    assert.match(r.stdout, /2 passed, 0 failed/)
  })
})

describe('test: formats', () => {
  test('json is one document', async () => {
    const r = await cli(['good', 'bad', '--json'])
    assert.equal(r.code, 1)
    const doc = JSON.parse(r.stdout)
    assert.deepEqual(
      [doc.ok, doc.exit_code, doc.command, doc.error],
      [false, 1, 'test', { message: '2 cases failed', kind: 'failed' }],
    )
    assert.deepEqual(
      { ...doc.summary, duration_ms: 0 },
      {
        total: 5,
        passed: 3,
        failed: 2,
        not_run: 0,
        snapshots_written: 0,
        snapshot_errors: [],
        duration_ms: 0,
        left_out: {},
        roots: [{ path: R, assumed: true }],
      },
    )
    assert.deepEqual(
      doc.packs.map((p: { name: string; cases: unknown[] }) => [p.name, p.cases.length]),
      [
        ['good', 2],
        ['bad', 3],
      ],
    )
    const wrong = doc.packs[1].cases[1]
    assert.equal(wrong.failures[0].kind, 'result')
    assert.ok(wrong.failures[0].diff.includes('-   "used": 11,'))
    // The entry's own status, under a name that is not the CLI's.
    assert.deepEqual([doc.packs[1].cases[2].timed_out, doc.packs[1].cases[2].exit_status], [true, -1])
  })

  test('junit validates against the JUnit schema', async (t) => {
    makeTree(
      R,
      pack('noisy', [{ name: 'fails <loudly> & "often"', args: { fail: 1 }, expect: { ok: true } }]),
    )
    const r = await cli(['good', 'bad', 'noisy', '--format', 'junit'])
    assert.equal(r.code, 1)
    // The entry's stderr goes with its case; names and messages escaped.
    assert.match(
      r.stdout,
      /<testcase classname="noisy" name="fails &lt;loudly&gt; &amp; &quot;often&quot;" time="[0-9.]+">\n {6}<failure [^>]*>[^<]*<\/failure>\n {6}<system-err>boom\n<\/system-err>\n/,
    )
    assert.match(r.stdout, /<testsuite name="bad" tests="3" failures="2"/)
    assert.match(
      r.stdout,
      /<testcase classname="bad" name="wrong used" time="[0-9.]+">\n {6}<failure message="result does not match/,
    )
    if (!haveXmllint(t)) return
    // The schemas are not a rubber stamp: a testcase without its name is refused.
    assertJunitValid(r.stdout, r.stdout.replace('name="wrong used"', ''))
  })

  test('tap carries failures as YAML', async () => {
    const r = await cli(['bad', '--format', 'tap'])
    assert.match(r.stdout, /not ok 2 - bad › wrong used\n {2}---\n {2}file: "tests\/cases.json"\n/)
    assert.match(r.stdout, / {4}- kind: result\n/)
  })
})

describe('test --watch', () => {
  test('re-runs the pack whose files change, and only that pack', async () => {
    const dir = join(R, 'wroot')
    makeTree(dir, {
      ...pack('w1', [{ name: 'one', expect: { ok: true } }]),
      ...pack('w2', [{ name: 'two', expect: { ok: true } }]),
    })
    const child = startCli(['test', dir, '--watch', '--format', 'tap'], {
      env: { CI: '1', NO_COLOR: '1' },
      stdin: 'ignore',
    })
    let stdout = ''
    let stderr = ''
    const waiters: { re: RegExp; resolve: () => void }[] = []
    const check = () => {
      for (const w of [...waiters]) {
        if (w.re.test(stdout + stderr)) {
          waiters.splice(waiters.indexOf(w), 1)
          w.resolve()
        }
      }
    }
    const until = (re: RegExp) =>
      new Promise<void>((resolve, reject) => {
        const t = setTimeout(
          () => reject(new Error(`timed out waiting for ${re}\n${stdout}\n${stderr}`)),
          20_000,
        )
        waiters.push({
          re,
          resolve: () => {
            clearTimeout(t)
            resolve()
          },
        })
        check()
      })
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString('utf8')
      check()
    })
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString('utf8')
      check()
    })
    const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)))
    try {
      await until(/watching for changes/)
      assert.match(stdout, /ok 1 - w1 › one\nok 2 - w2 › two\n1\.\.2\n/)
      stdout = ''
      stderr = ''
      writeFileSync(
        join(dir, 'w2/tests/cases.json'),
        JSON.stringify([{ name: 'two', expect: { ok: false } }]),
      )
      await until(/# fail 1\n/)
      await until(/watching for changes/)
      assert.match(stderr, /changed: .*\/wroot\/w2\n/)
      assert.match(stdout, /^TAP version 13\nnot ok 1 - w2 › two\n/)
      assert.doesNotMatch(stdout, /w1/)
    } finally {
      child.kill('SIGINT')
    }
    // Stopped by Ctrl-C while watching: 130, as every command ends on SIGINT.
    assert.equal(await exited, 130)
  })
})

describe('test on a terminal', () => {
  test('the live view runs through the launcher (ink loaded from dist/, not the bundle)', async (t) => {
    if (spawnSync('script', ['--version']).status !== 0) {
      t.skip('script(1) not installed')
      return
    }
    // Not CI (cliEnv leaves it unset): there ink draws no frame until it unmounts.
    const r = runCliSync(['test', 'good', '-j', '2'], {
      tty: true,
      columns: 100,
      cwd: R,
      env: { TERM: 'xterm' },
      timeoutMs: 60_000,
    })
    const screen = r.stdout.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '')
    assert.equal(r.code, 0, screen)
    assert.match(screen, /✓ reports usage/)
    // The live counts (only the live view draws what is still to go), then the summary.
    assert.match(screen, /\d passed, \d failed, \d to go/)
    assert.match(screen, /2 passed, 0 failed\r?\n/)
  })

  test('under CI on a terminal: the plain spec lines, as each case ends (no live view)', async (t) => {
    if (spawnSync('script', ['--version']).status !== 0) {
      t.skip('script(1) not installed')
      return
    }
    const r = runCliSync(['test', 'good', '-j', '2'], {
      tty: true,
      columns: 100,
      cwd: R,
      env: { TERM: 'xterm', CI: 'true' },
      timeoutMs: 60_000,
    })
    const screen = r.stdout.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '')
    assert.equal(r.code, 0, screen)
    assert.match(screen, /good \(good\)\r?\n {2}✓ reports usage \(.+ ms\)\r?\n {2}✓ fails on request/)
    assert.doesNotMatch(screen, /to go/)
    assert.match(screen, /2 passed, 0 failed\r?\n/)
  })

  test('a terminal 0 columns wide (a pty nobody sized) gets the plain lines, not a char per line', async (t) => {
    if (spawnSync('script', ['--version']).status !== 0) {
      t.skip('script(1) not installed')
      return
    }
    const r = runCliSync(['test', 'good', '-j', '2'], {
      tty: true,
      cwd: R,
      env: { TERM: 'xterm' },
      timeoutMs: 60_000,
    })
    const screen = r.stdout.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '')
    assert.equal(r.code, 0, screen)
    assert.match(screen, /good \(good\)\r?\n {2}✓ reports usage \(.+ ms\)\r?\n {2}✓ fails on request/)
    assert.doesNotMatch(screen, /⠿/)
    assert.match(screen, /2 passed, 0 failed\r?\n/)
  })
})

describe('test: interrupted', () => {
  test('SIGINT kills the case in flight and exits 130', async () => {
    const mark = join(R, 'started.mark')
    makeTree(R, {
      'int/skill.json': JSON.stringify({
        name: 'int',
        description: 'd',
        entry: 'run.sh',
        env_allow: ['MARK'],
      }),
      'int/run.sh': { exec: '#!/bin/sh\ncat >/dev/null\n: > "$MARK"\nexec sleep 30\n' },
      'int/tests/cases.json': JSON.stringify([
        { name: 'waits', env: { MARK: mark }, expect: { ok: true } },
        { name: 'never starts', expect: { ok: true } },
      ]),
    })
    const child = startCli(['test', 'int', '-j', '1', '--format', 'tap'], {
      cwd: R,
      env: { CI: '1' },
      stdin: 'ignore',
    })
    let stdout = ''
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString('utf8')
    })
    const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)))
    await waitFor(() => existsSync(mark), 30_000, 50)
    assert.ok(existsSync(mark), 'the case never started')
    child.kill('SIGINT')
    assert.equal(await exited, 130)
    assert.match(stdout, /not ok 1 - int › waits\n/)
    assert.match(stdout, /# not run 1\n$/)
  })
})

describe('test: case files out of the pack', () => {
  test('--update never writes through a case file whose real path is outside the pack', async () => {
    const outside = join(R, 'outside-case.json')
    writeFileSync(outside, '{"name":"c","snapshot":true}')
    makeTree(R, {
      'linked/skill.json': JSON.stringify({ name: 'linked', description: 'A test skill.', entry: 'run.sh' }),
      'linked/run.sh': { exec: ENTRY },
      'linked/tests/a.json': { link: outside },
    })
    const r = await cli(['linked', '--update', '--format', 'tap'])
    assert.equal(r.code, 1, r.stderr)
    assert.match(
      r.stdout,
      /message: "\(file\): not read: its real path .*outside-case\.json is outside the pack"/,
    )
    assert.equal(readFileSync(outside, 'utf8'), '{"name":"c","snapshot":true}')
  })
})

describe('test --json-file', () => {
  test('the chosen format on stdout and the json document in the file, from one run of each case', async () => {
    const counter = join(R, 'json-file-runs.txt')
    const entry = `#!/bin/sh\necho run >> '${counter}'\n${ENTRY.replace('#!/bin/sh\n', '')}`
    const cases = [
      { name: 'reports usage', expect: { result: { used: 10 } } },
      { name: 'reports the path', expect: { result: { path: '/tmp' } } },
    ]
    makeTree(R, { ...pack('counted', cases), 'counted/run.sh': { exec: entry } })
    const file = join(R, 'results.json')
    const r = await cli(['counted', '--format', 'tap', '--json-file', file])
    assert.equal(r.code, 0, r.stderr)
    assert.match(r.stdout, /^TAP version 13$/m)
    assert.equal(readFileSync(counter, 'utf8'), 'run\nrun\n')
    const doc = JSON.parse(readFileSync(file, 'utf8'))
    assert.deepEqual(
      [doc.ok, doc.exit_code, doc.command, doc.summary.passed, doc.summary.failed],
      [true, 0, 'test', 2, 0],
    )
    const json = await cli(['counted', '--json'])
    const again = JSON.parse(json.stdout)
    const strip = (d: {
      summary: { duration_ms: number }
      packs: { cases: { duration_ms: number }[] }[]
    }) => {
      d.summary.duration_ms = 0
      for (const p of d.packs) for (const c of p.cases) c.duration_ms = 0
      return d
    }
    assert.deepEqual(strip(doc), strip(again))
  })

  test('a file it cannot write: one line, exit 2', async () => {
    const r = await cli(['good', '--json-file', join(R, 'no-such-dir', 'x.json')])
    assert.equal(r.code, 2)
    assert.match(
      r.stderr,
      /^ongrid-skill: cannot write .*no-such-dir\/x\.json: no such file or directory\n$/m,
    )
  })
})
