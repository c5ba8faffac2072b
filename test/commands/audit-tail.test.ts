import assert from 'node:assert/strict'
import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from 'node:child_process'
import { renameSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { insertExecution, openLocalStore } from '../../src/core/audit/local-store.js'
import {
  createMysqlDb,
  createSqlite,
  EXEC_INSERT,
  execRow,
  execValues,
  MYSQL_CTL,
  MYSQL_URL,
  mysqlConnect,
  mysqlSkip,
  storeTime,
} from '../fixtures/audit/db.js'
import { runCliSync, runOnTty, startCli } from '../helpers/cli.js'
import { tempRoot } from '../helpers/tree.js'
import { until } from '../helpers/until.js'

const WRITER = fileURLToPath(new URL('../fixtures/audit/writer.js', import.meta.url))
const T0 = BigInt(Date.parse('2026-05-01T12:00:00Z')) * 1_000_000n
const SEC = 1_000_000_000n

/**
 * The rows of `audit tail --json` output: every line but the last, which is the document (the
 * envelope and how many rows came before it).
 */
function rowsOf(stdout: string): Record<string, unknown>[] {
  const lines = stdout
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l))
  const doc = lines.pop()
  assert.equal(doc?.command, 'audit tail', 'the document comes last')
  assert.equal(doc.rows, lines.length, 'rows counted')
  return lines
}

function cli(args: string[], env: Record<string, string | undefined> = {}) {
  const r = runCliSync(['audit', 'tail', ...args], { env, timeoutMs: 30_000 })
  return { code: r.code, stdout: r.stdout, stderr: r.stderr }
}

/** Whether a program is on PATH (the terminal tests need util-linux's script). */
function spawnSyncOk(program: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${program}`]).status === 0
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** `audit tail -f --json …` as a child process: its lines with their arrival times, its stderr. */
class Follower {
  readonly proc: ChildProcessWithoutNullStreams
  readonly rows: { id: string; at: number; row: Record<string, unknown> }[] = []
  document: Record<string, unknown> | null = null
  stderr = ''
  exit: Promise<{ code: number | null; signal: string | null }>
  private buf = ''

  constructor(args: string[], env: Record<string, string | undefined> = {}) {
    this.proc = startCli(['audit', 'tail', '-f', '--json', ...args], { env, stdin: 'open' })
    this.proc.stdout.setEncoding('utf8')
    this.proc.stdout.on('data', (d: string) => {
      const at = Date.now()
      this.buf += d
      let nl = this.buf.indexOf('\n')
      while (nl >= 0) {
        const line = this.buf.slice(0, nl)
        this.buf = this.buf.slice(nl + 1)
        const row = JSON.parse(line) as Record<string, unknown>
        // The document, last: the envelope, once the follow has ended.
        if ('schema_version' in row) this.document = row
        else this.rows.push({ id: String(row.id), at, row })
        nl = this.buf.indexOf('\n')
      }
    })
    this.proc.stderr.setEncoding('utf8')
    this.proc.stderr.on('data', (d: string) => {
      this.stderr += d
    })
    this.exit = new Promise((res) => this.proc.on('exit', (code, signal) => res({ code, signal })))
  }

  /** Sends `signal`; resolves with the exit and how long it took. */
  async stop(signal: NodeJS.Signals = 'SIGINT'): Promise<{ code: number | null; ms: number }> {
    const t = Date.now()
    this.proc.kill(signal)
    const e = await this.exit
    return { code: e.code, ms: Date.now() - t }
  }
}

interface Commit {
  seqs: number[]
  ids: string[]
  t: number
}

/** The fixture writer as a child process. */
async function write(
  cfg: Record<string, unknown>,
  during?: (commits: Commit[]) => Promise<void>,
): Promise<Commit[]> {
  const proc = spawn(process.execPath, [WRITER, JSON.stringify(cfg)], { stdio: ['ignore', 'pipe', 'pipe'] })
  const commits: Commit[] = []
  let buf = ''
  let err = ''
  proc.stdout.setEncoding('utf8')
  proc.stdout.on('data', (d: string) => {
    buf += d
    const lines = buf.split('\n')
    buf = lines.pop() as string
    for (const l of lines) {
      const o = JSON.parse(l)
      if (o.ids) commits.push(o)
    }
  })
  proc.stderr.on('data', (d: Buffer) => {
    err += d.toString()
  })
  const exit = new Promise<number | null>((res) => proc.on('exit', (c) => res(c)))
  if (during) await during(commits)
  const code = await exit
  assert.equal(code, 0, `writer failed: ${err}`)
  return commits
}

/** Every id exactly once, and nothing else; each line within 1 s of its commit. */
function checkFollow(f: Follower, commits: Commit[], opts: { latency: boolean }): void {
  const ids = commits.flatMap((c) => c.ids)
  const seen = new Map<string, number>()
  for (const r of f.rows) seen.set(r.id, (seen.get(r.id) ?? 0) + 1)
  const twice = [...seen].filter(([, n]) => n > 1).map(([id]) => id)
  assert.deepEqual(twice, [], 'rows printed twice')
  const missing = ids.filter((id) => !seen.has(id))
  assert.deepEqual(missing, [], 'committed rows never printed')
  assert.equal(f.rows.length, ids.length, 'rows printed that were never committed')
  if (opts.latency) {
    const at = new Map(f.rows.map((r) => [r.id, r.at]))
    const late = commits.flatMap((c) =>
      c.ids.map((id) => ({ id, ms: (at.get(id) as number) - c.t })).filter((x) => x.ms > 1000),
    )
    assert.deepEqual(late, [], 'rows printed more than 1 s after their commit')
  }
}

/** How many committed rows became visible after a row with a higher id (out of id order). */
function outOfOrder(commits: Commit[]): number {
  let max = 0n
  let n = 0
  for (const c of commits) {
    for (const id of c.ids.map(BigInt)) {
      if (id < max) n++
      if (id > max) max = id
    }
  }
  return n
}

describe('ongrid-skill audit tail', () => {
  let R = ''
  let cleanup = () => {}
  let file = ''

  before(async () => {
    ;({ root: R, cleanup } = tempRoot('ongrid-audit-cli-'))
    file = join(R, 'ongrid.db')
    const db = await createSqlite(file)
    const ins = db.prepare(EXEC_INSERT)
    for (let i = 1; i <= 12; i++) {
      ins.run(
        ...execValues(
          execRow('sqlite', {
            startNs: T0 + BigInt(i) * SEC,
            ms: 1500,
            skill_key: i % 2 ? 'disk_usage' : 'restart_nginx',
            class: i % 2 ? 'safe' : 'mutating',
            edge_id: i % 3,
            caller_role: i % 4 === 0 ? 'viewer' : 'admin',
            error:
              i === 12
                ? 'subprocess skill restart_nginx: timed out after 30s'
                : i === 10
                  ? 'exit 1\nline 2'
                  : '',
          }),
        ),
      )
    }
    db.close()
  })
  after(() => cleanup())

  test('the default source is the local store `run` writes', async () => {
    const state = join(R, 'state')
    const store = await openLocalStore(join(state, 'ongrid-skill', 'audit.db'))
    insertExecution(store, {
      skillKey: 'disk_usage',
      edgeId: 0,
      callerId: 0,
      callerRole: 'local',
      class: 'safe',
      paramsJson: '{"path":"/tmp"}',
      resultJson: '{"used":1}\n',
      error: '',
      startedNs: T0,
      finishedNs: T0 + 87_000_000n,
    })
    store.close()
    const r = cli([], { XDG_STATE_HOME: state, TZ: 'UTC' })
    assert.equal(r.stderr, '')
    assert.equal(r.code, 0)
    assert.equal(
      r.stdout,
      '2026-05-01 12:00:00.000  disk_usage              safe       local#0                 87ms  ok\n',
    )
    const missing = cli([], { XDG_STATE_HOME: join(R, 'nothing') })
    assert.equal(missing.code, 2)
    assert.equal(
      missing.stderr,
      `ongrid-skill: no local audit store at ${join(R, 'nothing', 'ongrid-skill', 'audit.db')} yet: \`ongrid-skill run\` writes it (or choose a source with --db)\n`,
    )
  })

  test('-n and --json over a SQLite file', () => {
    const r = cli(['--db', `sqlite:${file}`, '-n', '2', '--json'])
    assert.equal(r.code, 0, r.stderr)
    const lines = rowsOf(r.stdout)
    assert.deepEqual(
      lines.map((l) => [l.id, l.skill, l.status, l.duration_ms]),
      [
        [11, 'disk_usage', 'ok', 1500],
        [12, 'restart_nginx', 'timeout', 1500],
      ],
    )
    assert.equal(lines[1].started_at, '2026-05-01T12:00:12Z')
    assert.equal(lines[1].error, 'subprocess skill restart_nginx: timed out after 30s')
    assert.equal(cli(['--db', `sqlite:${file}`]).stdout.split('\n').length, 11, 'default -n 10')
  })

  test('filters', () => {
    const ids = (...args: string[]) => {
      const r = cli([
        '--db',
        `sqlite:${file}`,
        '--json',
        ...(args.includes('-n') ? [] : ['-n', '100']),
        ...args,
      ])
      assert.equal(r.code, 0, r.stderr)
      return rowsOf(r.stdout).map((l) => l.id)
    }
    assert.deepEqual(ids('--skill', 'restart_nginx', '--status', 'ok'), [2, 4, 6, 8])
    assert.deepEqual(ids('--status', 'error'), [10])
    assert.deepEqual(ids('--caller-role', 'viewer'), [4, 8, 12])
    assert.deepEqual(ids('--edge', '0'), [3, 6, 9, 12])
    assert.deepEqual(ids('--since', '2026-05-01T12:00:10Z'), [10, 11, 12])
    assert.deepEqual(ids('--since', '2026-05-01T14:00:10+02:00', '-n', '1'), [12])
    assert.deepEqual(ids('--since', '1h'), [], 'the rows are older than an hour (they are from 2026-05-01)')
    // --since without -n: every row since then.
    const all = cli(['--db', `sqlite:${file}`, '--since', '2026-05-01T12:00:00Z'])
    assert.equal(all.stdout.trimEnd().split('\n').length, 12)
  })

  test('on a terminal: a header row, and each time with its zone', async (t) => {
    if (spawnSyncOk('script') === false) return t.skip('no script(1)')
    const r = await runOnTty(['audit', 'tail', '--db', `sqlite:${file}`, '-n', '1'], process.cwd(), {
      TZ: 'Europe/Paris',
    })
    assert.equal(r.code, 0, r.stdout)
    assert.deepEqual(r.stdout.split('\n'), [
      'TIME                            SKILL                   CLASS      CALLER              DURATION  STATUS  ERROR',
      '2026-05-01 14:00:12.000 +02:00  restart_nginx           mutating   viewer#1               1.50s  timeout subprocess skill restart_nginx: timed out after 30s',
      '',
    ])
  })

  test('no rows: said on stderr, with the filters that matched none', () => {
    const none = cli(['--db', `sqlite:${file}`, '--skill', 'nosuch'])
    assert.equal(none.code, 0)
    assert.equal(none.stdout, '')
    assert.equal(none.stderr, 'ongrid-skill: no rows matched --skill nosuch\n')
    const json = cli(['--db', `sqlite:${file}`, '--skill', 'nosuch', '--json'])
    // --json: no row lines, only the closing document, which says 0 rows.
    assert.equal(json.stderr, '')
    assert.deepEqual(
      json.stdout.split('\n').map((l) => (l === '' ? l : JSON.parse(l).rows)),
      [0, ''],
    )
    assert.equal(cli(['--db', `sqlite:${file}`, '-n', '1']).stderr, '')
  })

  test('human lines: the error’s first line; colour only when allowed', () => {
    const r = cli(['--db', `sqlite:${file}`, '-n', '3'], { TZ: 'UTC' })
    assert.deepEqual(r.stdout.split('\n'), [
      '2026-05-01 12:00:10.000  restart_nginx           mutating   admin#1 edge=1         1.50s  error   exit 1',
      '2026-05-01 12:00:11.000  disk_usage              safe       admin#1 edge=2         1.50s  ok',
      '2026-05-01 12:00:12.000  restart_nginx           mutating   viewer#1               1.50s  timeout subprocess skill restart_nginx: timed out after 30s',
      '',
    ])
    const esc = /\x1b\[/
    assert.match(cli(['--db', `sqlite:${file}`, '-n', '1'], { FORCE_COLOR: '1' }).stdout, esc)
    assert.doesNotMatch(
      cli(['--db', `sqlite:${file}`, '-n', '1'], { FORCE_COLOR: '1', NO_COLOR: '1' }).stdout,
      esc,
    )
  })

  test("--db manager: the manager's own settings", () => {
    const r = cli(['--db', 'manager', '-n', '1', '--json'], {
      ONGRID_DB_DIALECT: 'sqlite',
      ONGRID_DB_PATH: file,
    })
    assert.equal(r.code, 0, r.stderr)
    assert.equal(rowsOf(r.stdout)[0]?.id, 12)
    // Settings not given: which defaults were read instead.
    const fell = cli(['--db', 'manager', '-n', '1'], { ONGRID_DB_DIALECT: 'sqlite', ONGRID_DB_PATH: '' })
    assert.match(
      fell.stderr,
      /^ongrid-skill: --db manager: ONGRID_DB_PATH is not set; reading the manager's default: ONGRID_DB_PATH=\/.*\/data\/ongrid\.db\n/,
    )
    const given = cli(['--db', 'manager', '-n', '1'], { ONGRID_DB_DIALECT: 'sqlite', ONGRID_DB_PATH: file })
    assert.doesNotMatch(given.stderr, /not set/)
    const bad = cli(['--db', 'manager'], { ONGRID_DB_DIALECT: 'postgres' })
    assert.equal(bad.code, 2)
    assert.equal(
      bad.stderr,
      'ongrid-skill: ONGRID_DB_DIALECT=postgres: the manager accepts mysql or sqlite (exactly)\n',
    )
  })

  test('usage errors: one line, exit 2', () => {
    const cases: [string[], RegExp][] = [
      [
        ['--db=/var/ongrid.db'],
        /^ongrid-skill: --db \/var\/ongrid\.db: expected local, manager, sqlite:PATH/,
      ],
      [
        ['--status', 'pending'],
        /^ongrid-skill: --status pending: only LLM tool calls are ever pending \(add --llm\)/,
      ],
      [['--llm', '--caller-role', 'admin'], /^ongrid-skill: --caller-role does not apply to --llm/],
      [['--since', 'yesterday'], /^ongrid-skill: --since yesterday: expected a duration such as 10m/],
      [['--edge', 'x'], /^ongrid-skill: --edge x: expected an edge id/],
      [['-n', '-1'], /^ongrid-skill: .*-1/],
      [['--gap-wait', '0s'], /^ongrid-skill: --gap-wait 0s: expected a positive duration/],
    ]
    for (const [args, re] of cases) {
      const r = cli(args[0].startsWith('--db') ? args : ['--db', `sqlite:${file}`, ...args])
      assert.equal(r.code, 2, args.join(' '))
      assert.match(r.stderr, re)
      // One error line, and at most one hint line under it.
      assert.match(r.stderr, /^ongrid-skill: [^\n]+\n(hint: [^\n]+\n)?$/, args.join(' '))
    }
  })

  test('MySQL unreachable: one line, exit 2', () => {
    const r = cli(['--db', 'mysql://ongrid:pw@127.0.0.1:1/ongrid'])
    assert.equal(r.code, 2)
    assert.equal(r.stderr, 'ongrid-skill: cannot reach MySQL at 127.0.0.1:1 (connection refused)\n')
  })

  test('--json failures: one JSON line with the message and exit code, and the stderr line', () => {
    const down = cli(['--db', 'mysql://ongrid:pw@127.0.0.1:1/ongrid', '--json'])
    assert.equal(down.code, 2)
    assert.equal(
      down.stdout,
      '{"ok":false,"exit_code":2,"command":"audit tail","schema_version":1,"error":{"message":"cannot reach MySQL at 127.0.0.1:1 (connection refused)","kind":"usage"}}\n',
    )
    assert.equal(down.stderr, 'ongrid-skill: cannot reach MySQL at 127.0.0.1:1 (connection refused)\n')
    for (const args of [
      ['--json', '--no-such-flag'],
      ['--json', '-n', 'x'],
    ]) {
      const r = cli(args)
      assert.equal(r.code, 2, args.join(' '))
      const doc = JSON.parse(r.stdout)
      assert.deepEqual([doc.ok, doc.exit_code], [false, 2], args.join(' '))
      // One error line, and at most one hint line under it.
      assert.match(r.stderr, /^ongrid-skill: [^\n]+\n(hint: [^\n]+\n)?$/, args.join(' '))
    }
  })

  test('SQLite: -f sees exactly the rows a WAL writer commits from 4 connections, each within 1 s; Ctrl-C exits at once', async () => {
    const path = join(R, 'wal.db')
    const db = await createSqlite(path)
    db.prepare(EXEC_INSERT).run(...execValues(execRow('sqlite', { startNs: T0, skill_key: 'sentinel' })))
    db.close()
    const f = new Follower(['--db', `sqlite:${path}`, '-n', '1'])
    try {
      await until('the history row', () => f.rows.length === 1, 15_000)
      f.rows.length = 0
      const commits = await write({
        dialect: 'sqlite',
        target: path,
        rows: 1000,
        connections: 4,
        pauseMs: 12,
        tag: 'wal',
      })
      const n = commits.flatMap((c) => c.ids).length
      assert.equal(n, 1000)
      await until('all rows', () => f.rows.length >= n, 5000)
      await sleep(600)
      checkFollow(f, commits, { latency: true })
    } finally {
      const s = await f.stop('SIGINT')
      assert.equal(s.code, 130, f.stderr)
      assert.ok(s.ms < 1000, `exited ${s.ms} ms after Ctrl-C`)
    }
    assert.equal(f.stderr, '')
  })

  test('SIGTERM exits 143', async () => {
    const f = new Follower(['--db', `sqlite:${file}`, '-n', '1'])
    await until('the history row', () => f.rows.length === 1, 15_000)
    const s = await f.stop('SIGTERM')
    assert.equal(s.code, 143)
    assert.ok(s.ms < 1000)
    // --json: the last line is the document, with the signal's exit code.
    await until('the document', () => f.document !== null, 5000)
    assert.deepEqual(
      [f.document?.ok, f.document?.exit_code, f.document?.error, f.document?.rows],
      [false, 143, { message: 'stopped (exit 143)', kind: 'signal', signal: 'SIGTERM' }, 1],
    )
  })

  for (const [signal, code] of [
    ['SIGHUP', 129],
    ['SIGQUIT', 131],
  ] as const) {
    test(`${signal} (a closed terminal, Ctrl-\\) stops the follow: exit ${code}`, async () => {
      const f = new Follower(['--db', `sqlite:${file}`, '-n', '1'])
      await until('the history row', () => f.rows.length === 1, 15_000)
      const s = await f.stop(signal)
      assert.equal(s.code, code)
    })
  }
})

describe('ongrid-skill audit tail on MySQL (MariaDB from .ci/mariadb.sh)', { skip: mysqlSkip() }, () => {
  const dbs: { drop: () => Promise<void> }[] = []
  const fresh = async (o: Parameters<typeof createMysqlDb>[0] = {}) => {
    const d = await createMysqlDb(o)
    dbs.push(d)
    return d
  }
  const withLoc = (url: string, loc: string) => `${url}?loc=${encodeURIComponent(loc)}`
  after(async () => {
    for (const d of dbs) await d.drop().catch(() => {})
  })

  test('errors: wrong password, no such database, no table, no column — one line, exit 2', async () => {
    const u = new URL(MYSQL_URL)
    const addr = `${u.hostname}:${u.port}`
    const wrong = new URL(MYSQL_URL)
    wrong.password = 'not-the-password'
    let r = cli(['--db', wrong.toString()])
    assert.equal(r.code, 2)
    assert.equal(
      r.stderr,
      `ongrid-skill: MySQL refused user ${u.username}: wrong password or no access (${addr})\n`,
    )

    const nodb = new URL(MYSQL_URL)
    nodb.pathname = '/ongrid_test_does_not_exist'
    r = cli(['--db', nodb.toString()])
    assert.equal(r.code, 2)
    assert.equal(
      r.stderr,
      `ongrid-skill: database ongrid_test_does_not_exist does not exist on MySQL at ${addr}\n`,
    )

    const empty = await fresh({ empty: true })
    r = cli(['--db', empty.url])
    assert.equal(r.code, 2)
    assert.equal(
      r.stderr,
      `ongrid-skill: table skill_executions not found in database ${empty.name} (MySQL at ${addr}): wrong database, or a manager version this tool does not know\n`,
    )
    r = cli(['--db', empty.url, '--llm'])
    assert.match(r.stderr, /^ongrid-skill: table chat_\w+ not found in database/)

    const old = await fresh({ tables: 'executions' })
    const c = await mysqlConnect(MYSQL_URL, old.name)
    await c.query('ALTER TABLE skill_executions DROP COLUMN class')
    await c.end()
    r = cli(['--db', old.url, '-f'])
    assert.equal(r.code, 2)
    assert.equal(
      r.stderr,
      `ongrid-skill: table skill_executions in database ${old.name} (MySQL at ${addr}) has no column class: a manager version this tool does not know\n`,
    )
  })

  test("DATETIMEs are read in the DSN's loc; the go-sql-driver DSN through --db manager", async () => {
    const d = await fresh()
    const c = await mysqlConnect(MYSQL_URL, d.name)
    const zone = { iana: 'Asia/Shanghai' }
    await c.query(EXEC_INSERT, execValues(execRow('mysql', { startNs: T0 + 123_000_000n, ms: 250, zone })))
    const u = new URL(MYSQL_URL)
    const want = '2026-05-01T12:00:00.123Z'
    let r = cli(['--db', withLoc(d.url, 'Asia/Shanghai'), '--json'])
    assert.equal(r.code, 0, r.stderr)
    assert.equal(rowsOf(r.stdout)[0]?.started_at, want)
    assert.equal(rowsOf(r.stdout)[0]?.duration_ms, 250)
    const dsn = `${u.username}:${u.password}@tcp(${u.hostname}:${u.port})/${d.name}?parseTime=true&charset=utf8mb4&loc=Asia%2FShanghai`
    r = cli(['--db', 'manager', '--json'], { ONGRID_DB_DSN: dsn })
    assert.equal(r.code, 0, r.stderr)
    assert.equal(rowsOf(r.stdout)[0]?.started_at, want)
    // Without loc a go-sql-driver DSN means UTC: the same wall clock, read 8 hours later.
    r = cli(['--db', dsn.replace(/&loc=.*$/, ''), '--json'])
    assert.equal(rowsOf(r.stdout)[0]?.started_at, '2026-05-01T20:00:00.123Z')
    // --since is compared in the same zone.
    r = cli(['--db', withLoc(d.url, 'Asia/Shanghai'), '--json', '--since', '2026-05-01T12:00:00.1Z'])
    assert.equal(rowsOf(r.stdout).length, 1)
    r = cli(['--db', withLoc(d.url, 'Asia/Shanghai'), '--json', '--since', '2026-05-01T12:00:00.2Z'])
    assert.equal(rowsOf(r.stdout).length, 0)
    await c.end()
  })

  test('the queries use the primary key', async () => {
    const d = await fresh({ tables: 'executions' })
    const c = await mysqlConnect(MYSQL_URL, d.name)
    const rows = Array.from({ length: 2000 }, (_, i) =>
      execValues(execRow('mysql', { startNs: T0 + BigInt(i) * SEC })),
    )
    await c.query(
      `INSERT INTO skill_executions (skill_key, edge_id, caller_id, caller_role, class, params_json, result_json, error, started_at, finished_at, created_at) VALUES ?`,
      [rows],
    )
    await c.query('ANALYZE TABLE skill_executions')
    const { openMysql } = await import('../../src/core/audit/db.js')
    const { parseMysqlUrl } = await import('../../src/core/audit/dsn.js')
    const { Executions } = await import('../../src/core/audit/tables.js')
    const db = await openMysql(parseMysqlUrl(withLoc(d.url, 'UTC')))
    try {
      const t = new Executions({}, db)
      for (const q of [
        t.historySql(2000n, 1000),
        t.pollSql(
          [
            [10n, 12n],
            [20n, 20n],
          ],
          1990n,
          1000,
        ),
      ]) {
        const plan = await db.all(`EXPLAIN ${q.sql}`, q.params, 'skill_executions')
        for (const p of plan) {
          if (p.table === null || String(p.table).startsWith('<union')) continue
          assert.equal(p.key, 'PRIMARY', JSON.stringify(plan))
          assert.match(String(p.type), /^(range|const|eq_ref)$/, JSON.stringify(plan))
        }
      }
    } finally {
      db.close()
      await c.end()
    }
  })

  test('--llm: tool calls with session and user', async () => {
    const d = await fresh()
    const c = await mysqlConnect(MYSQL_URL, d.name)
    const at = (s: number) => storeTime('mysql', T0 + BigInt(s) * SEC)
    await c.query('INSERT INTO chat_sessions (id, user_id, title, created_at) VALUES (?, ?, ?, ?)', [
      's1',
      7,
      't',
      at(0),
    ])
    await c.query('INSERT INTO chat_messages (id, session_id, role, created_at) VALUES (?, ?, ?, ?)', [
      'm1',
      's1',
      'assistant',
      at(0),
    ])
    await c.query(
      'INSERT INTO chat_tool_calls (id, message_id, tool_name, arguments_json, result_json, status, error, started_at, ended_at, llm_call_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      [
        'c1',
        'm1',
        'disk_usage',
        '{"path":"/"}',
        '{"error":"","result":{}}',
        'success',
        null,
        at(1),
        at(3),
        'call_1',
        at(1),
      ],
    )
    await c.end()
    const r = cli(['--db', withLoc(d.url, 'UTC'), '--llm', '--json'])
    assert.equal(r.code, 0, r.stderr)
    const o = rowsOf(r.stdout)[0] ?? {}
    assert.deepEqual(
      [o.id, o.skill, o.caller_id, o.status, o.duration_ms, o.session_id, o.llm_call_id, o.params],
      ['c1', 'disk_usage', 7, 'ok', 2000, 's1', 'call_1', { path: '/' }],
    )
  })

  test('-f sees exactly the 1,000 rows 4 connections commit out of id order, each within 1 s', async () => {
    const d = await fresh({ tables: 'executions' })
    const c = await mysqlConnect(MYSQL_URL, d.name)
    await c.query(EXEC_INSERT, execValues(execRow('mysql', { startNs: T0, skill_key: 'sentinel' })))
    await c.end()
    const f = new Follower(['--db', withLoc(d.url, 'UTC'), '-n', '1'])
    try {
      await until('the history row', () => f.rows.length === 1, 15_000)
      f.rows.length = 0
      const commits = await write({
        dialect: 'mysql',
        target: d.url,
        rows: 1000,
        connections: 4,
        pauseMs: 20,
        holdMs: 300,
        rollback: 0.05,
        tag: 'ooo',
      })
      assert.equal(commits.flatMap((x) => x.ids).length, 1000)
      assert.ok(outOfOrder(commits) > 20, `only ${outOfOrder(commits)} rows committed out of id order`)
      await until('all rows', () => f.rows.length >= 1000, 5000)
      await sleep(600)
      checkFollow(f, commits, { latency: true })
    } finally {
      const s = await f.stop()
      assert.equal(s.code, 130)
      assert.ok(s.ms < 1000, `exited ${s.ms} ms after Ctrl-C`)
    }
    assert.equal(f.stderr, '')
  })

  test('the server stopped and restarted mid-follow: reported, retried, resumed without loss or duplicates', {
    skip: mysqlSkip(true),
  }, async () => {
    const d = await fresh({ tables: 'executions' })
    const c = await mysqlConnect(MYSQL_URL, d.name)
    await c.query(EXEC_INSERT, execValues(execRow('mysql', { startNs: T0, skill_key: 'sentinel' })))
    await c.end()
    const f = new Follower(['--db', withLoc(d.url, 'UTC'), '-n', '1'])
    const ctl = (cmd: string) =>
      new Promise<void>((res, rej) => {
        const p = spawn(MYSQL_CTL, [cmd], { stdio: ['ignore', 'ignore', 'pipe'] })
        let err = ''
        p.stderr.on('data', (x: Buffer) => {
          err += x.toString()
        })
        p.on('exit', (code) =>
          code === 0 ? res() : rej(new Error(`${MYSQL_CTL} ${cmd}: exit ${code}: ${err}`)),
        )
      })
    try {
      await until('the history row', () => f.rows.length === 1, 15_000)
      f.rows.length = 0
      const commits = await write(
        {
          dialect: 'mysql',
          target: d.url,
          rows: 1000,
          connections: 4,
          pauseMs: 30,
          holdMs: 200,
          rollback: 0.05,
          tag: 'rs',
        },
        async (so) => {
          await until('150 commits', () => so.length >= 150, 20_000)
          await ctl('stop')
          await until('tail to notice', () => f.stderr.includes('connection lost'), 10_000)
          await sleep(500)
          await ctl('start')
          await until('tail to reconnect', () => f.stderr.includes('reconnected'), 15_000)
        },
      )
      assert.equal(commits.flatMap((x) => x.ids).length, 1000)
      await until('all rows', () => f.rows.length >= 1000, 10_000)
      await sleep(600)
      checkFollow(f, commits, { latency: false })
      assert.match(f.stderr, /^ongrid-skill: connection lost \(.*\), retrying…\n/)
      assert.match(f.stderr, /\nongrid-skill: reconnected to MySQL at [^\n]*\n$/)
    } finally {
      await ctl('start').catch(() => {})
      await f.stop()
    }
  })
})

describe('audit tail -f follows the local store by name, as tail -F does', () => {
  let D = ''
  let cleanupD = () => {}
  before(() => {
    ;({ root: D, cleanup: cleanupD } = tempRoot('ongrid-tailF-'))
  })
  after(() => cleanupD())

  const add = async (path: string, skillKey: string) => {
    const store = await openLocalStore(path)
    insertExecution(store, {
      skillKey,
      edgeId: 0,
      callerId: 0,
      callerRole: 'local',
      class: 'safe',
      paramsJson: '',
      resultJson: '{}',
      error: '',
      startedNs: T0,
      finishedNs: T0 + SEC,
    })
    store.close()
  }

  test('a store removed and created anew: said on stderr, the new rows followed', async () => {
    const state = join(D, 'state')
    const path = join(state, 'ongrid-skill', 'audit.db')
    await add(path, 'before')
    const f = new Follower([], { XDG_STATE_HOME: state })
    try {
      await until('the history row', () => f.rows.length === 1, 15_000)
      for (const x of ['', '-wal', '-shm']) rmSync(`${path}${x}`, { force: true })
      await until('the removal notice', () => f.stderr.includes('was removed'), 15_000)
      assert.equal(f.stderr, `ongrid-skill: ${path} was removed; waiting for it to be created again\n`)
      await add(path, 'after')
      await until('the new file’s row', () => f.rows.some((r) => r.row.skill === 'after'), 15_000)
      assert.match(f.stderr, /was created anew: following the new file from its first row\n$/)
      // A second new file while the first is followed (no removal seen between two polls).
      const tmp = `${path}.new`
      await add(tmp, 'third')
      for (const x of ['', '-wal', '-shm']) rmSync(`${path}${x}`, { force: true })
      renameSync(tmp, path)
      await until('the third file’s row', () => f.rows.some((r) => r.row.skill === 'third'), 15_000)
      assert.deepEqual(
        f.rows.map((r) => r.row.skill),
        ['before', 'after', 'third'],
      )
    } finally {
      await f.stop()
    }
  })
})
