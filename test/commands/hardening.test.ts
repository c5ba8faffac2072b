import assert from 'node:assert/strict'
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
} from 'node:fs'
import { constants, tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { aliveWithMarker, killAll, marker, SH, settle } from '../fixtures/run/helpers.js'
import { type CliResult, runCli, runOnTty, startCli } from '../helpers/cli.js'
import { STOP_SIGNALS } from '../helpers/signals.js'
import { makeTree, type Node, tempRoot } from '../helpers/tree.js'
import { waitFor } from '../helpers/until.js'

// Hostile or unlucky input, stores and signals: the CLI never hangs, never crashes or reads
// without bound, and `run` never waits on its audit store and stops its entry on every stop signal. Each CLI call is bounded: a hang is a
// failure (`hung: true`), not a stuck test run.

const SQLITE = fileURLToPath(new URL('../../../node_modules/better-sqlite3/lib/index.js', import.meta.url))

interface CliOptions {
  input?: string
  /** Killed (SIGKILL) after this long: the call hung. */
  limitMs?: number
  onStderr?: (child: ChildProcess, text: string) => void
  env?: Record<string, string | undefined>
}

function cli(args: string[], o: CliOptions = {}): Promise<CliResult> {
  return runCli(args, {
    env: { CI: '1', ...o.env },
    cwd: R,
    input: o.input,
    timeoutMs: o.limitMs ?? 20_000,
    onStderr: o.onStderr,
    encoding: 'latin1',
  })
}

let R = ''
let cleanup = () => {}
before(() => {
  ;({ root: R, cleanup } = tempRoot('ongrid-harden-'))
})
after(() => cleanup())

let n = 0
/** A pack in a fresh dir: its skill.json and its entry `run.sh`. */
function pack(entry: Node, fields: Record<string, unknown> = {}): string {
  const dir = join(R, `p${++n}`)
  makeTree(dir, {
    'skill.json': JSON.stringify({ name: `p${n}`, description: 'A test skill.', entry: 'run.sh', ...fields }),
    'run.sh': entry,
  })
  return dir
}

const OK = { exec: `${SH}cat >/dev/null\necho '{"ok":true}'\n` }

describe('run: an entry that is a FIFO', () => {
  test('fails to start at once with permission denied, as execve does', async () => {
    const dir = join(R, `fifo${++n}`)
    makeTree(dir, {
      'skill.json': JSON.stringify({ name: 'fifo', description: 'A test skill.', entry: 'e' }),
    })
    execFileSync('mkfifo', [join(dir, 'e')])
    chmodSync(join(dir, 'e'), 0o755)
    const r = await cli(['run', dir, '--no-audit'], { limitMs: 15_000 })
    assert.equal(r.hung, false, 'run hung on a FIFO entry')
    assert.equal(r.code, 1)
    assert.equal(
      r.stderr,
      `error: subprocess skill fifo: start: fork/exec ${join(dir, 'e')}: permission denied (stderr: )\n`,
    )
  })
})

describe('run: the args pre-check is bounded', () => {
  const schema = {
    type: 'object',
    properties: { s: { type: 'string', pattern: '^(a+)+$' } },
  }
  test('a pattern that backtracks catastrophically: a warning, then the entry runs', async () => {
    const dir = pack(OK, { schema })
    const r = await cli(['run', dir, '--no-audit', '--args', `{"s":"${'a'.repeat(40)}!"}`], {
      limitMs: 20_000,
    })
    assert.equal(r.hung, false, 'the pre-check hung')
    assert.equal(r.code, 0)
    assert.equal(r.stdout, '{"ok":true}\n')
    assert.match(
      r.stderr,
      /^warning: the schema's patterns took over 1000 ms on these args \(catastrophic backtracking\?\); args not validated/,
    )
  })
  test('the same patterns still check args they finish on', async () => {
    const dir = pack(OK, { schema })
    const bad = await cli(['run', dir, '--no-audit', '--args', '{"s":"b"}'], { limitMs: 20_000 })
    assert.equal(bad.code, 4)
    assert.match(bad.stderr, /^error: args\/s: must match pattern "\^\(a\+\)\+\$"\n/)
    const good = await cli(['run', dir, '--no-audit', '--args', '{"s":"aaa"}'], { limitMs: 20_000 })
    assert.equal(good.code, 0)
    assert.equal(good.stderr, '')
  })
})

describe('run: the audit store is never on the critical path', () => {
  test('a store dir that cannot be made (/proc/self/…): the run goes on, with a warning', async () => {
    const dir = pack(OK)
    const r = await cli(['run', dir, '--audit-db', '/proc/self/nope/x.db'], { limitMs: 15_000 })
    assert.equal(r.hung, false, 'run hung on the store')
    assert.equal(r.code, 0)
    assert.equal(r.stdout, '{"ok":true}\n')
    assert.equal(
      r.stderr,
      'warning: audit store /proc/self/nope/x.db: mkdir /proc/self/nope: no such file or directory (run not recorded)\n',
    )
    const j = await cli(['run', dir, '--audit-db', '/proc/self/nope/x.db', '--json'], { limitMs: 15_000 })
    assert.equal(j.code, 0)
    assert.deepEqual(JSON.parse(j.stdout).audit, {
      recorded: false,
      path: '/proc/self/nope/x.db',
      reason: 'mkdir /proc/self/nope: no such file or directory',
    })
    assert.equal(j.stderr, '')
  })

  test('a store path that is a directory: said so, not SQLite\'s "unable to open database file"', async () => {
    const dir = pack(OK)
    const store = join(R, `a-dir${++n}.db`)
    mkdirSync(store)
    const r = await cli(['run', dir, '--audit-db', store], { limitMs: 15_000 })
    assert.equal(r.code, 0)
    assert.equal(
      r.stderr,
      `warning: audit store ${store}: open ${store}: is a directory (run not recorded)\n`,
    )
  })

  test('a store locked by another process delays neither the timeout nor the exit for long', async () => {
    const store = join(R, `locked${++n}.db`)
    // Another process holds an exclusive lock on a rollback-journal store and keeps it.
    const holder = spawn(
      process.execPath,
      [
        '-e',
        `const D = require(${JSON.stringify(SQLITE)}); const d = new D(${JSON.stringify(store)});
         d.exec('CREATE TABLE t(x)'); d.exec('BEGIN EXCLUSIVE'); d.exec('INSERT INTO t VALUES (1)');
         process.stdout.write('locked\\n'); process.stdin.resume(); process.stdin.on('end', () => process.exit(0))`,
      ],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    )
    try {
      await new Promise<void>((resolve, reject) => {
        holder.stdout!.on('data', (c: Buffer) => c.toString().includes('locked') && resolve())
        holder.on('exit', () => reject(new Error('the lock holder ended')))
      })
      const dir = pack({ exec: `${SH}exec /bin/sleep 30\n` })
      const r = await cli(['run', dir, '--timeout', '200ms', '--audit-db', store, '--json'], {
        limitMs: 20_000,
      })
      assert.equal(r.hung, false)
      assert.equal(r.code, 3)
      const doc = JSON.parse(r.stdout)
      assert.equal(doc.entry.timed_out, true)
      // Blocked by SQLite's 5 s busy wait, the 200 ms timer could not fire before 5 s had passed.
      assert.ok(doc.entry.duration_ms < 4000, `the timeout fired after ${doc.entry.duration_ms} ms`)
      assert.deepEqual(doc.audit, { recorded: false, path: store, reason: 'locked by another process' })
    } finally {
      holder.stdin!.end()
      holder.kill()
    }
  })

  test('Ctrl-C while the ended run waits for a locked store: given up at once, exit 130', async () => {
    const store = join(R, `locked${++n}.db`)
    const holder = spawn(
      process.execPath,
      [
        '-e',
        `const D = require(${JSON.stringify(SQLITE)}); const d = new D(${JSON.stringify(store)});
         d.exec('CREATE TABLE t(x)'); d.exec('BEGIN EXCLUSIVE'); d.exec('INSERT INTO t VALUES (1)');
         process.stdout.write('locked\\n'); process.stdin.resume(); process.stdin.on('end', () => process.exit(0))`,
      ],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    )
    try {
      await new Promise<void>((resolve, reject) => {
        holder.stdout!.on('data', (c: Buffer) => c.toString().includes('locked') && resolve())
        holder.on('exit', () => reject(new Error('the lock holder ended')))
      })
      // The entry ends at once; the run then waits (up to 5 s) for the store, and is interrupted.
      const dir = pack({ exec: `${SH}cat >/dev/null\necho up >&2\necho '{}'\n` })
      const r = await cli(['run', dir, '--audit-db', store, '--json'], { limitMs: 20_000 })
      assert.equal(r.hung, false)
      assert.equal(r.code, 0)
      assert.deepEqual(JSON.parse(r.stdout).audit, {
        recorded: false,
        path: store,
        reason: 'locked by another process',
      })
      const child = startCli(['run', dir, '--audit-db', store], { env: { CI: '1' }, stdin: 'ignore' })
      let sentAt = 0
      child.stderr.on('data', (c: Buffer) => {
        if (sentAt === 0 && c.toString().includes('up')) {
          sentAt = -1
          setTimeout(() => {
            sentAt = Date.now()
            child.kill('SIGINT')
          }, 300)
        }
      })
      const exit = await new Promise<{ code: number | null; signal: string | null }>((resolve) =>
        child.on('close', (code, signal) => resolve({ code, signal })),
      )
      assert.deepEqual(exit, { code: 130, signal: null })
      // SQLite's own busy wait (5 s) would hold the Ctrl-C; the timers' wait gives up at once.
      assert.ok(Date.now() - sentAt < 4000, `exited ${Date.now() - sentAt} ms after Ctrl-C`)
    } finally {
      holder.stdin!.end()
      holder.kill()
    }
  })

  test('the store is private: its dirs 0700, its file 0600', async () => {
    const store = join(R, `private${++n}`, 'state', 'audit.db')
    const r = await cli(['run', pack(OK), '--audit-db', store, '--json'], { limitMs: 15_000 })
    assert.equal(r.code, 0)
    assert.deepEqual(JSON.parse(r.stdout).audit, { recorded: true, path: store, id: 1 })
    assert.equal(statSync(join(store, '..', '..')).mode & 0o777, 0o700)
    assert.equal(statSync(join(store, '..')).mode & 0o777, 0o700)
    assert.equal(statSync(store).mode & 0o777, 0o600)
  })

  test('--no-audit says so in --json', async () => {
    const r = await cli(['run', pack(OK), '--no-audit', '--json'], { limitMs: 15_000 })
    assert.equal(r.code, 0)
    assert.deepEqual(JSON.parse(r.stdout).audit, { recorded: false, reason: 'disabled by --no-audit' })
  })
})

describe('run: every stop signal kills the entry’s group and exits 128 + the signal', () => {
  for (const [signal, code] of STOP_SIGNALS) {
    test(`${signal}: exit ${code}, nothing left running`, async () => {
      const m = marker(signal.toLowerCase())
      const dir = pack({
        exec: `${SH}/bin/sh -c 'trap "" INT TERM HUP QUIT; /bin/sleep 30; :' ${m} &\necho up >&2\n/bin/sleep 30\n`,
      })
      let sent = false
      const r = await cli(['run', dir, '--no-audit'], {
        limitMs: 15_000,
        onStderr: (child, text) => {
          if (!sent && text.includes('up\n')) {
            sent = true
            child.kill(signal)
          }
        },
      })
      try {
        assert.equal(r.hung, false)
        assert.equal(r.signal, null)
        assert.equal(r.code, code)
        assert.deepEqual(await settle(() => aliveWithMarker(m)), [])
      } finally {
        killAll(aliveWithMarker(m))
      }
    })
  }
})

describe('run: the terminal closes while the entry runs (SIGHUP for real)', () => {
  test('the entry’s process group is killed, not left running', async () => {
    const m = marker('hangup')
    const dir = pack({
      exec: `${SH}/bin/sh -c 'trap "" INT TERM HUP QUIT; /bin/sleep 30; :' ${m} &\necho up >&2\n/bin/sleep 30\n`,
    })
    // `script` holds the terminal's master side: killing it closes the terminal, and the kernel
    // hangs up the session's foreground process group (the CLI's, not the entry's own group).
    const term = startCli(['run', dir, '--no-audit'], {
      tty: true,
      env: { CI: '1', NO_COLOR: '1' },
      stdin: 'open',
    })
    try {
      let seen = ''
      await new Promise<void>((resolve, reject) => {
        const limit = setTimeout(() => reject(new Error(`no "up" from the entry: ${seen}`)), 15_000)
        term.stdout!.on('data', (c: Buffer) => {
          seen += c.toString('latin1')
          if (seen.includes('up')) {
            clearTimeout(limit)
            resolve()
          }
        })
      })
      // The background child may still be between fork and exec: wait until it shows its marker.
      // (Its own fork of sleep carries the marker too until that execs: one or two, never none.)
      assert.ok(
        await waitFor(() => aliveWithMarker(m).length > 0, 5000, 25),
        'the background child never started',
      )
      term.kill('SIGKILL')
      assert.deepEqual(await settle(() => aliveWithMarker(m), 5000), [])
    } finally {
      term.kill('SIGKILL')
      killAll(aliveWithMarker(m))
    }
  })
})

describe('files the CLI reads are read with a bound', () => {
  for (const [flag, limit] of [
    ['--args-file', '64 MiB'],
    ['--env-from', '16 MiB'],
  ] as const) {
    for (const dev of ['/dev/zero', '/dev/urandom']) {
      test(`run ${flag} ${dev}: a usage error, exit 2`, async () => {
        const r = await cli(['run', pack(OK), '--no-audit', flag, dev], { limitMs: 30_000 })
        assert.equal(r.hung, false)
        assert.equal(r.code, 2)
        assert.equal(r.stderr, `ongrid-skill: ${flag} ${dev}: larger than ${limit}\n`)
      })
    }
  }
  test('lint: a config that is /dev/zero, a FIFO or over 1 MiB is a one-line error', async () => {
    const dir = join(R, `cfg${++n}`)
    makeTree(dir, {
      'a/skill.json': JSON.stringify({ name: 'a', description: 'A test skill.', entry: 'run.sh' }),
      'a/run.sh': OK,
      '.ongrid-skill.yaml': { link: '/dev/zero' },
    })
    const zero = await cli(['lint', dir], { limitMs: 30_000 })
    assert.equal(zero.hung, false)
    assert.equal(zero.code, 2)
    assert.match(zero.stderr, /\.ongrid-skill\.yaml: not a regular file/)
    const bigDir = join(R, `cfg${++n}`)
    makeTree(bigDir, {
      'a/skill.json': JSON.stringify({ name: 'a', description: 'A test skill.', entry: 'run.sh' }),
      'a/run.sh': OK,
      '.ongrid-skill.yaml': `# ${'x'.repeat(1024 * 1024)}\n`,
    })
    const big = await cli(['lint', bigDir], { limitMs: 30_000 })
    assert.equal(big.code, 2)
    assert.match(big.stderr, /\.ongrid-skill\.yaml: larger than 1 MiB/)
    const fifoDir = join(R, `cfg${++n}`)
    makeTree(fifoDir, {
      'a/skill.json': JSON.stringify({ name: 'a', description: 'A test skill.', entry: 'run.sh' }),
      'a/run.sh': OK,
    })
    execFileSync('mkfifo', [join(fifoDir, '.ongrid-skill.yaml')])
    const fifo = await cli(['lint', fifoDir], { limitMs: 30_000 })
    assert.equal(fifo.hung, false)
    assert.equal(fifo.code, 2)
    assert.match(fifo.stderr, /\.ongrid-skill\.yaml: not a regular file/)
  })
})

describe('audit tail: DSNs', () => {
  test('a mysql:// URL with bad percent-encoding is a usage error (exit 2), its password hidden', async () => {
    const r = await cli(['audit', 'tail', '--db', 'mysql://u:s3cret%@h/d'], { limitMs: 15_000 })
    assert.equal(r.code, 2)
    assert.equal(
      r.stderr,
      'ongrid-skill: invalid MySQL URL mysql://u:***@h/d: bad percent-encoding in the user or password (write % as %25)\n',
    )
  })
  test('a DSN that is not understood is echoed without its password', async () => {
    const r = await cli(['audit', 'tail', '--db', 'user:s3cret@foo(h)/db'], { limitMs: 15_000 })
    assert.equal(r.code, 2)
    assert.doesNotMatch(r.stderr, /s3c/)
    assert.match(r.stderr, /^ongrid-skill: --db user:\*\*\*@foo\(h\)\/db: expected /)
  })
  test('--db env:NAME keeps the DSN out of argv', async () => {
    const store = join(R, `envdsn${++n}.db`)
    const ran = await cli(['run', pack(OK), '--audit-db', store], { limitMs: 15_000 })
    assert.equal(ran.code, 0)
    const r = await cli(['audit', 'tail', '--db', 'env:MY_AUDIT_DB', '--json'], {
      limitMs: 15_000,
      env: { MY_AUDIT_DB: `sqlite:${store}` },
    })
    assert.equal(r.code, 0, r.stderr)
    // One row, then the document.
    const lines = r.stdout.trim().split('\n')
    assert.equal(lines.length, 2)
    assert.equal(JSON.parse(lines[1] ?? '').rows, 1)
  })
})

/** Runs the CLI on a pseudo-terminal (util-linux `script`): what a user's terminal would get. */
const onTty = (args: string[], env: Record<string, string> = {}) => runOnTty(args, R, env)

describe('terminal escapes from skills, entries and rows are shown, not obeyed', () => {
  const OSC52 = '\x1b]52;c;aGk=\x07'
  const CLEAR = '\x1b[2J'
  const noisy = () =>
    pack({
      exec: `${SH}cat >/dev/null\nprintf '${OSC52.replace('\x1b', '\\033').replace('\x07', '\\007')} ${CLEAR.replace('\x1b', '\\033')}\\n' >&2\nprintf '{"a":"\\302\\233x"}\\n'\n`,
    })
  test('run: the entry’s stderr and stdout on a terminal; byte-exact when piped', async () => {
    const dir = noisy()
    const tty = await onTty(['run', dir, '--no-audit'])
    assert.equal(tty.code, 0)
    assert.equal(tty.stdout, '\\x1b]52;c;aGk=\\a \\x1b[2J\n{"a":"\\u009bx"}\n')
    const piped = await cli(['run', dir, '--no-audit'])
    assert.equal(piped.stderr, `${OSC52} ${CLEAR}\n`)
    assert.equal(piped.stdout, '{"a":"\xc2\x9bx"}\n')
  })
  test('run: the error line quoting the stderr tail', async () => {
    const dir = pack({ exec: `${SH}cat >/dev/null\nprintf '\\033]0;pwned\\007' >&2\nexit 1\n` })
    const tty = await onTty(['run', dir, '--no-audit'])
    assert.equal(tty.code, 1)
    assert.match(tty.stdout, /\(stderr: \\x1b\]0;pwned\\a\)\n$/)
    assert.ok(!tty.stdout.includes('\x1b'), JSON.stringify(tty.stdout))
  })
  test('load-dirs: a pack path holding an escape', async () => {
    const root = join(R, `ld${++n}`)
    makeTree(root, { 'x\x1b]0;pwned\x07/skill.json': '{' })
    const tty = await onTty(['load-dirs', root])
    assert.ok(tty.stdout.includes('x\\x1b]0;pwned\\a/skill.json'), JSON.stringify(tty.stdout))
    assert.ok(!tty.stdout.includes('\x1b'), JSON.stringify(tty.stdout))
    const piped = await cli(['load-dirs', root])
    assert.ok(piped.stdout.includes('x\x1b]0;pwned\x07/skill.json'), JSON.stringify(piped.stdout))
  })
  test('audit tail: a row whose error holds escapes', async () => {
    const store = join(R, `rows${++n}.db`)
    const dir = pack({ exec: `${SH}cat >/dev/null\nprintf '\\033[2J\\033]52;c;aGk=\\007' >&2\nexit 1\n` })
    assert.equal((await cli(['run', dir, '--audit-db', store])).code, 1)
    const tty = await onTty(['audit', 'tail', '--db', `sqlite:${store}`, '-n', '1'])
    assert.equal(tty.code, 0)
    assert.match(tty.stdout, /\(stderr: \\x1b\[2J\\x1b\]52;c;aGk=\\a\)\n$/)
    assert.ok(!tty.stdout.includes('\x1b'), JSON.stringify(tty.stdout))
    const piped = await cli(['audit', 'tail', '--db', `sqlite:${store}`, '-n', '1'])
    assert.ok(piped.stdout.includes(`(stderr: ${CLEAR}\x1b]52;c;aGk=\x07)`), JSON.stringify(piped.stdout))
  })
})

describe('--audit-db is a local file: a MySQL address there is a usage error, no file made', () => {
  for (const command of ['run', 'test', 'mcp'] as const) {
    test(command, async () => {
      const cwd = mkdtempSync(join(tmpdir(), 'ongrid-auditdb-'))
      try {
        const args =
          command === 'run'
            ? ['run', pack(OK)]
            : command === 'test'
              ? ['test', pack(OK), '--audit', '--pass-with-no-tests']
              : ['mcp', pack(OK)]
        const r = await runCli([...args, '--audit-db', 'mysql://u:p@ss@127.0.0.1:1/ongrid'], {
          cwd,
          env: { CI: '1' },
          timeoutMs: 15_000,
        })
        assert.equal(r.code, 2, r.stderr)
        assert.equal(
          r.stderr.split('\n')[0],
          "ongrid-skill: --audit-db mysql://u:***@127.0.0.1:1/ongrid: a MySQL address; --audit-db is the local SQLite file this command records to (the manager's database is read with audit tail --db)",
        )
        assert.deepEqual(readdirSync(cwd), [])
      } finally {
        rmSync(cwd, { recursive: true, force: true })
      }
    })
  }
})

describe('test: hostile packs, each bounded', () => {
  test('an entry that is a FIFO: the case fails at once with permission denied, as execve does', async () => {
    const dir = join(R, `tfifo${++n}`)
    makeTree(dir, {
      'skill.json': JSON.stringify({ name: 'tfifo', description: 'A test skill.', entry: 'e' }),
      'tests/cases.json': JSON.stringify([{ name: 'starts', expect: { ok: true } }]),
    })
    execFileSync('mkfifo', [join(dir, 'e')])
    chmodSync(join(dir, 'e'), 0o755)
    const r = await cli(['test', dir, '--format', 'tap'], { limitMs: 15_000 })
    assert.equal(r.hung, false, 'test hung on a FIFO entry')
    assert.equal(r.code, 1)
    assert.ok(
      r.stdout.includes(
        `message: "expected success, but it failed: subprocess skill tfifo: start: fork/exec ${join(dir, 'e')}: permission denied (stderr: )"`,
      ),
      r.stdout,
    )
  })

  test('/dev/zero as skill.json: the pack is said not to end, nothing read for ever', async () => {
    const dir = join(R, `tzero${++n}`)
    makeTree(dir, {
      'skill.json': { link: '/dev/zero' },
      'tests/cases.json': JSON.stringify([{ name: 'c', expect: { ok: true } }]),
    })
    const r = await cli(['test', dir, '--format', 'tap'], { limitMs: 30_000 })
    assert.equal(r.hung, false)
    assert.equal(r.code, 1, r.stderr)
    assert.match(
      r.stdout,
      /message: ".*\/skill\.json does not end \(a device such as \/dev\/zero\): the manager would read it forever"/,
    )
  })

  for (const dev of ['/dev/zero', '/dev/urandom']) {
    test(`${dev} as a case file or an args_file: outside the pack, not read, in test, lint and validate`, async () => {
      const dir = pack(OK)
      makeTree(dir, {
        'tests/a.json': { link: dev },
        'tests/b.json': JSON.stringify({ name: 'b', args_file: dev, expect: { ok: true } }),
      })
      const t = await cli(['test', dir, '--format', 'tap'], { limitMs: 30_000 })
      assert.equal(t.hung, false)
      assert.equal(t.code, 1)
      assert.match(
        t.stdout,
        new RegExp(`message: "\\(file\\): not read: its real path ${dev} is outside the pack"`),
      )
      assert.match(
        t.stdout,
        new RegExp(`message: "/args_file: not read: ${dev}'s real path ${dev} is outside the pack"`),
      )
      for (const cmd of ['lint', 'validate']) {
        const l = await cli([cmd, dir], { limitMs: 30_000 })
        assert.equal(l.hung, false, `${cmd} hung`)
        assert.equal(l.code, 1, l.stderr)
        assert.match(
          l.stdout,
          new RegExp(
            `tests/a\\.json\\n {2}1:1 {2}error {2}\\(file\\): not read: its real path ${dev} is outside the pack {2}tests/shape`,
          ),
        )
      }
    })
  }

  test('a schema pattern that backtracks: lint and validate check the cases’ args with a time bound', async () => {
    const dir = pack(OK, {
      schema: { type: 'object', properties: { s: { type: 'string', pattern: '^(a+)+$' } } },
    })
    makeTree(dir, {
      'tests/cases.json': JSON.stringify([
        { name: 'stalls', args: { s: `${'a'.repeat(40)}!` }, expect: { ok: true } },
        { name: 'mismatch', args: { s: 'b' }, expect: { ok: true } },
      ]),
    })
    for (const cmd of ['lint', 'validate']) {
      const r = await cli([cmd, dir, '--json'], { limitMs: 30_000 })
      assert.equal(r.hung, false, `${cmd} hung on the cases' args`)
      const rules = (
        JSON.parse(r.stdout) as { files: { findings: { rule_id: string; message: string }[] }[] }
      ).files
        .flatMap((f) => f.findings)
        .filter((m) => m.rule_id === 'tests/args-schema')
        .map((m) => m.message)
      // The case that stalls the pattern is left unchecked; the next is still checked.
      assert.deepEqual(rules, ['case "mismatch": args/s: must match pattern "^(a+)+$"'])
    }
  })

  test('a result_schema pattern that backtracks: the case fails, said so, within the bound', async () => {
    const dir = pack({ exec: `${SH}cat >/dev/null\necho '{"s":"${'a'.repeat(40)}!"}'\n` })
    makeTree(dir, {
      'tests/cases.json': JSON.stringify([
        {
          name: 'stalls',
          expect: { ok: true, result_schema: { properties: { s: { pattern: '^(a+)+$' } } } },
        },
      ]),
    })
    const r = await cli(['test', dir, '--format', 'tap'], { limitMs: 30_000 })
    assert.equal(r.hung, false)
    assert.equal(r.code, 1)
    assert.match(
      r.stdout,
      /message: "result_schema's patterns took over 1000 ms on this result \(catastrophic backtracking\?\): not checked"/,
    )
  })
})

describe('every long-running command: a stop signal exits 128 + its number', () => {
  for (const [signal, code] of STOP_SIGNALS) {
    for (const watch of [false, true]) {
      const what = watch ? 'test --watch' : 'test'
      test(`${what}, ${signal} while a case runs: exit ${code}, its process group killed`, async () => {
        const m = marker(`${watch ? 'watch' : 'test'}-${signal.toLowerCase()}`)
        const dir = pack({
          exec: `${SH}cat >/dev/null\n/bin/sh -c 'trap "" INT TERM HUP QUIT; /bin/sleep 30; :' ${m} &\necho up >&2\n/bin/sleep 30\n`,
        })
        makeTree(dir, { 'tests/cases.json': JSON.stringify([{ name: 'waits', expect: { ok: true } }]) })
        const child = startCli(['test', dir, ...(watch ? ['--watch'] : []), '--format', 'tap'], {
          env: { CI: '1' },
          stdin: 'ignore',
        })
        try {
          const exit = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
            child.on('close', (c, s) => resolve({ code: c, signal: s })),
          )
          // One or two: the background shell's own fork of sleep carries the marker until it execs.
          assert.ok(await waitFor(() => aliveWithMarker(m).length > 0, 15_000, 25), 'the case never started')
          child.kill(signal)
          assert.deepEqual(await exit, { code, signal: null })
          assert.deepEqual(await settle(() => aliveWithMarker(m)), [])
        } finally {
          child.kill('SIGKILL')
          killAll(aliveWithMarker(m))
        }
      })
    }

    test(`load-dirs blocked on a FIFO skill.json, ${signal}: status ${code}`, async () => {
      const root = join(R, `ldsig${++n}`)
      makeTree(root, { 'a/run.sh': OK })
      execFileSync('mkfifo', [join(root, 'a/skill.json')])
      const child = startCli(['load-dirs', root], { env: { CI: '1' }, stdin: 'ignore' })
      try {
        const exit = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
          child.on('close', (c, s) => resolve({ code: c, signal: s })),
        )
        // Blocked in the open of the FIFO as the manager's boot is (or about to be): either way
        // the signal ends it; a shell sees 128 + its number.
        await new Promise((r) => setTimeout(r, 1000))
        child.kill(signal)
        const e = await exit
        assert.equal(e.code ?? 128 + constants.signals[e.signal as NodeJS.Signals], code, JSON.stringify(e))
      } finally {
        child.kill('SIGKILL')
      }
    })
  }
})

describe('test view on a terminal: escapes shown, not obeyed; piped byte-exact', () => {
  test('a case name and an entry’s stderr holding OSC 52, OSC 0 and ESC[2J (spec and tap)', async () => {
    const dir = pack({ exec: `${SH}cat >/dev/null\nprintf '\\033]52;c;aGk=\\007' >&2\nexit 1\n` })
    makeTree(dir, {
      'tests/cases.json': `[{"name":"c\\u001b]0;pwned\\u0007\\u001b[2J","expect":{"ok":true}}]`,
    })
    for (const format of ['spec', 'tap']) {
      const tty = await onTty(['test', dir, '--format', format])
      assert.equal(tty.code, 1)
      assert.ok(!tty.stdout.includes('\x1b'), `${format}: ${JSON.stringify(tty.stdout)}`)
      assert.ok(tty.stdout.includes('c\\x1b]0;pwned\\a\\x1b[2J'), `${format}: ${JSON.stringify(tty.stdout)}`)
    }
    const spec = await onTty(['test', dir])
    assert.ok(spec.stdout.includes('(stderr: \\x1b]52;c;aGk=\\a)'), JSON.stringify(spec.stdout))
    const piped = await cli(['test', dir, '--format', 'tap'])
    assert.ok(piped.stdout.includes('not ok 1 - p'), piped.stdout)
    assert.ok(piped.stdout.includes('c\x1b]0;pwned\x07\x1b[2J\n'), JSON.stringify(piped.stdout))
  })

  test('lint and validate: a pack path holding escapes', async () => {
    const root = join(R, `lv${++n}`)
    makeTree(root, {
      'x\x1b]0;pwned\x07/skill.json': JSON.stringify({
        name: 'x',
        description: 'A test skill.',
        entry: 'run.sh',
      }),
    })
    for (const cmd of ['lint', 'validate']) {
      const tty = await onTty([cmd, root])
      assert.equal(tty.code, 1, tty.stdout)
      assert.ok(!tty.stdout.includes('\x1b'), `${cmd}: ${JSON.stringify(tty.stdout)}`)
      assert.ok(tty.stdout.includes('x\\x1b]0;pwned\\a/skill.json'), `${cmd}: ${JSON.stringify(tty.stdout)}`)
      const piped = await cli([cmd, root])
      assert.ok(piped.stdout.includes('x\x1b]0;pwned\x07/skill.json'), JSON.stringify(piped.stdout))
    }
  })
})

describe('init: the wizard on a terminal, stopped by a signal', { timeout: 60_000 }, () => {
  for (const [signal, code] of STOP_SIGNALS) {
    test(`${signal}: status ${code}, nothing written, the cursor shown again`, async () => {
      const dir = join(R, `wiz${++n}`)
      const pidFile = join(R, `wiz${n}.pid`)
      // The shell execs into the CLI: its pid is the wizard's.
      const term = startCli(['init', '--dir', dir], {
        cwd: R,
        tty: true,
        sh: `stty cols 100 rows 40; echo $$ > '${pidFile}'; exec "$0" "$@"`,
        stdin: 'open',
        env: { CI: undefined, CONTINUOUS_INTEGRATION: undefined, NO_COLOR: '1', TERM: 'xterm' },
      })
      try {
        let screen = ''
        const exit = new Promise<number | null>((resolve) => term.on('close', (c) => resolve(c)))
        await new Promise<void>((resolve, reject) => {
          const limit = setTimeout(() => reject(new Error(`the wizard never drew: ${screen}`)), 20_000)
          term.stdout!.on('data', (c: Buffer) => {
            screen += c.toString('utf8')
            if (screen.includes('a new skill pack')) {
              clearTimeout(limit)
              resolve()
            }
          })
        })
        process.kill(Number(readFileSync(pidFile, 'utf8')), signal)
        // script(1) -e reports the wizard's status: 128 + n whether it exited or was killed.
        assert.equal(await exit, code, screen)
        assert.equal(existsSync(dir), false)
        assert.match(screen.slice(screen.lastIndexOf('a new skill pack')), /\x1b\[\?25h/)
      } finally {
        term.kill('SIGKILL')
      }
    })
  }
})
