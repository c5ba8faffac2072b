import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { existsSync, renameSync, rmSync } from 'node:fs'
import { createServer, type Server, type Socket } from 'node:net'
import { constants } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { type CliResult, runCli, startCli } from '../helpers/cli.js'
import { STOP_SIGNALS } from '../helpers/signals.js'
import { makeTree, tempRoot } from '../helpers/tree.js'
import { waitFor } from '../helpers/until.js'

// Hangs and blocked inputs: whatever the input, a command ends by itself within its bounds, and
// a stop signal always ends it with 128 + the signal's number. Each CLI call has a limit after
// which it is killed and reported as hung.

let R = ''
let cleanup = () => {}
before(() => {
  ;({ root: R, cleanup } = tempRoot('ongrid-hangs-'))
})
after(() => cleanup())

function cli(args: string[], limitMs = 20_000, env: Record<string, string> = {}): Promise<CliResult> {
  return runCli(args, {
    env: { CI: '1', NO_COLOR: '1', ...env },
    cwd: R,
    stdin: 'ignore',
    timeoutMs: limitMs,
  })
}

describe('a default under a catastrophic pattern', () => {
  // ^(a+)+$ over 40 a's and a '!': about 2^40 steps if the default were checked against it.
  test('validate and lint end, and lint names the pattern', async () => {
    makeTree(R, {
      'redos-default/skill.json': JSON.stringify({
        name: 'redos_default',
        description: 'a default that would stall the default check',
        entry: 'run.sh',
        schema: {
          type: 'object',
          properties: { a: { type: 'string', pattern: '^(a+)+$', default: `${'a'.repeat(40)}!` } },
        },
      }),
      'redos-default/run.sh': { exec: '#!/bin/sh\ncat\n' },
    })
    const v = await cli(['validate', 'redos-default'])
    assert.equal(v.hung, false, 'validate hung')
    assert.equal(v.code, 0, v.stdout + v.stderr)
    const l = await cli(['lint', 'redos-default'])
    assert.equal(l.hung, false, 'lint hung')
    assert.match(l.stdout, /schema\/redos-pattern/)
  })
})

/** A MySQL protocol packet: 3-byte length, sequence id, payload. */
function packet(seq: number, payload: Buffer): Buffer {
  const head = Buffer.alloc(4)
  head.writeUIntLE(payload.length, 0, 3)
  head[3] = seq
  return Buffer.concat([head, payload])
}

/** A server greeting (protocol 10, mysql_native_password), as a MySQL 5.7 server sends it. */
function greeting(): Buffer {
  return packet(
    0,
    Buffer.concat([
      Buffer.from([10]),
      Buffer.from('5.7.44-fake\0'),
      Buffer.from([1, 0, 0, 0]), // connection id
      Buffer.from('abcdefgh'), // auth data, part 1
      Buffer.from([0]),
      Buffer.from([0xff, 0xf7]), // capabilities (low): PROTOCOL_41, SECURE_CONNECTION, …
      Buffer.from([33]), // utf8_general_ci
      Buffer.from([2, 0]), // status: autocommit
      Buffer.from([0xff, 0x81]), // capabilities (high): PLUGIN_AUTH, …
      Buffer.from([21]),
      Buffer.alloc(10),
      Buffer.from('ijklmnopqrst\0'), // auth data, part 2
      Buffer.from('mysql_native_password\0'),
    ]),
  )
}

/** An ERR packet: 0xff, the error number, `#` and the SQL state, the message. */
function errorPacket(seq: number, errno: number, state: string | null, message: string): Buffer {
  const code = Buffer.alloc(2)
  code.writeUInt16LE(errno)
  return packet(
    seq,
    Buffer.concat([
      Buffer.from([0xff]),
      code,
      Buffer.from(state === null ? '' : `#${state}`),
      Buffer.from(message),
    ]),
  )
}

/**
 * A fake MySQL server on 127.0.0.1 that never closes a socket itself:
 * - `silent`: sends the greeting, then never answers (the client's login waits);
 * - `busy`: an error packet in place of the greeting (`Too many connections`), socket kept open;
 * - `denied`: the greeting, then an access-denied error for the login, socket kept open;
 * - `stalls`: the greeting, OK for the login, then no answer to any query.
 */
async function fakeMysql(mode: 'silent' | 'busy' | 'denied' | 'stalls'): Promise<{
  server: Server
  port: number
  connections: () => number
  close: () => void
}> {
  const sockets: Socket[] = []
  const server = createServer((s) => {
    sockets.push(s)
    s.on('error', () => {})
    if (mode === 'busy') {
      s.write(errorPacket(0, 1040, null, 'Too many connections'))
      return
    }
    s.write(greeting())
    if (mode === 'silent') return
    s.once('data', () => {
      if (mode === 'denied') s.write(errorPacket(2, 1045, '28000', "Access denied for user 'u'@'localhost'"))
      else s.write(packet(2, Buffer.from([0, 0, 0, 2, 0, 0, 0]))) // OK; the queries that follow stall
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const port = (server.address() as { port: number }).port
  return {
    server,
    port,
    connections: () => sockets.length,
    close: () => {
      for (const s of sockets) s.destroy()
      server.close()
    },
  }
}

describe('audit tail: a MySQL server that stalls or keeps its socket open ends in one line, exit 2', () => {
  const cases = [
    [
      'silent',
      'a greeting, then nothing (the login times out)',
      /cannot reach MySQL at 127\.0\.0\.1:\d+ \(timed out\)/,
    ],
    ['busy', 'an error packet in place of the greeting', /\(Too many connections\)/],
    ['denied', 'an access-denied error for the login', /MySQL refused user u: wrong password or no access/],
  ] as const
  for (const [mode, what, line] of cases) {
    test(`${what}, the socket kept open`, async () => {
      const s = await fakeMysql(mode)
      try {
        const t0 = Date.now()
        const r = await cli(['audit', 'tail', '--db', `mysql://u:p@127.0.0.1:${s.port}/ongrid?timeout=1s`])
        assert.equal(r.hung, false, 'hung')
        assert.equal(r.code, 2, r.stderr)
        assert.match(r.stderr, line)
        assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr)
        // The login's bound (the DSN's timeout, 1 s here), not the server's goodwill.
        assert.ok(Date.now() - t0 < 10_000, `took ${Date.now() - t0} ms`)
      } finally {
        s.close()
      }
    })
  }

  test('a query that is never answered: given up after the query bound (15 s), exit 2', {
    timeout: 60_000,
  }, async () => {
    const s = await fakeMysql('stalls')
    try {
      const r = await cli(['audit', 'tail', '--db', `mysql://u:p@127.0.0.1:${s.port}/ongrid`], 40_000)
      assert.equal(r.hung, false, 'hung')
      assert.equal(r.code, 2, r.stderr)
      assert.match(r.stderr, /lost the connection to MySQL at 127\.0\.0\.1:\d+ \(Query inactivity timeout\)/)
    } finally {
      s.close()
    }
  })

  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    test(`${signal} while the login waits (timeout=1h): exit ${code} at once, the socket closed`, async () => {
      const s = await fakeMysql('silent')
      const child = startCli(
        ['audit', 'tail', '-f', '--db', `mysql://u:p@127.0.0.1:${s.port}/ongrid?timeout=1h`],
        {
          env: { CI: '1' },
          stdin: 'ignore',
        },
      )
      try {
        const exit = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
          child.on('close', (c, sig) => resolve({ code: c, signal: sig })),
        )
        assert.ok(await waitFor(() => s.connections() > 0, 15_000), 'never connected')
        await new Promise((r) => setTimeout(r, 200))
        const t0 = Date.now()
        child.kill(signal)
        const limit = new Promise<'hung'>((r) => setTimeout(() => r('hung'), 5000).unref())
        assert.deepEqual(await Promise.race([exit, limit]), { code, signal: null })
        assert.ok(Date.now() - t0 < 5000)
      } finally {
        child.kill('SIGKILL')
        s.close()
      }
    })
  }
})

describe('audit tail --db sqlite:PATH that is not a regular file: one line, exit 2, never blocked', () => {
  test('a FIFO (its open would block until a writer came)', async () => {
    const fifo = join(R, 'audit.fifo')
    execFileSync('mkfifo', [fifo])
    const r = await cli(['audit', 'tail', '--db', `sqlite:${fifo}`], 10_000)
    assert.equal(r.hung, false, 'hung')
    assert.equal(r.code, 2, r.stderr)
    assert.equal(r.stderr, `ongrid-skill: ${fifo} is not a regular file, not a SQLite file\n`)
  })

  test('a character device (/dev/zero)', async () => {
    const r = await cli(['audit', 'tail', '--db', 'sqlite:/dev/zero', '--json'], 10_000)
    assert.equal(r.code, 2, r.stderr)
    assert.equal(r.stderr, 'ongrid-skill: /dev/zero is not a regular file, not a SQLite file\n')
    assert.equal(JSON.parse(r.stdout).exit_code, 2)
  })
})

/** Starts the CLI, sends `signal` after `afterMs`, and gives the status a shell would see. */
async function stopAfter(
  args: string[],
  signal: NodeJS.Signals,
  afterMs: number,
  stderr: string[] = [],
): Promise<number | 'hung'> {
  const child = startCli(args, { env: { CI: '1', NO_COLOR: '1' }, cwd: R, stdin: 'ignore' })
  child.stdout.resume()
  child.stderr.on('data', (c: Buffer) => stderr.push(c.toString('utf8')))
  try {
    const exit = new Promise<number>((resolve) =>
      child.on('close', (c, s) => resolve(c ?? 128 + constants.signals[s as NodeJS.Signals])),
    )
    await new Promise((r) => setTimeout(r, afterMs))
    child.kill(signal)
    const limit = new Promise<'hung'>((r) => setTimeout(() => r('hung'), 30_000).unref())
    return await Promise.race([exit, limit])
  } finally {
    child.kill('SIGKILL')
  }
}

describe('a stop signal that lands during synchronous work is never lost', () => {
  let db = ''
  before(async () => {
    // 400,000 rows: `audit tail -n 400000` reads and formats them in one synchronous stretch of
    // seconds (0.7 s for 80,000 on a quiet machine, so the signal at 0.8 s would come after the
    // end), then returns; a signal that lands in it is still pending when the command ends.
    db = join(R, 'many.db')
    const { SKILL_EXECUTIONS_DDL } = await import('../../src/core/audit/local-store.js')
    const { Database } = await import('../../src/core/audit/sqlite.js')
    const d = new Database(db)
    d.exec(SKILL_EXECUTIONS_DDL)
    const st = d.prepare(
      `INSERT INTO skill_executions (skill_key, edge_id, caller_id, caller_role, class, params_json, result_json, error, started_at, finished_at, created_at)
       VALUES (?, 0, 0, 'local', 'read', '{}', '{}', '', '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:01+00:00', '2026-01-01 00:00:01+00:00')`,
    )
    d.exec('BEGIN')
    for (let i = 0; i < 400_000; i++) st.run(`skill_${i}`)
    d.exec('COMMIT')
    d.close()
  })

  for (const [signal, code] of STOP_SIGNALS) {
    test(`audit tail reading 400,000 rows, ${signal}: status ${code}, not 0`, async () => {
      assert.equal(
        await stopAfter(['audit', 'tail', '--db', `sqlite:${db}`, '-n', '400000'], signal, 800),
        code,
      )
    })
  }

  // Commands with no handler of their own die of the signal at once: a shell sees 128 + n.
  // 5,000 packs take lint over a second and load-dirs a quarter of one: the signal, sent 100 ms
  // after the start, lands before the command could give an exit of its own (400 packs were done
  // in under 300 ms on a quiet machine, which made the exit theirs).
  test('lint, validate and load-dirs over 5,000 packs, SIGTERM mid-walk: status 143', async () => {
    const tree: Record<string, string> = {}
    for (let i = 0; i < 5000; i++) {
      tree[`many/p${i}/skill.json`] = JSON.stringify({
        name: `p${i}`,
        description: 'A skill.',
        entry: 'run.sh',
      })
      tree[`many/p${i}/run.sh`] = '#!/bin/sh\necho {}\n'
    }
    makeTree(R, tree)
    for (const cmd of ['lint', 'validate', 'load-dirs']) {
      const status = await stopAfter([cmd, join(R, 'many')], 'SIGTERM', 100)
      assert.equal(status, 143, `${cmd}: ${status}`)
    }
  })
})

describe('test --filter: a pattern that backtracks is matched with a time bound', () => {
  let dir = ''
  before(() => {
    dir = join(R, 'filter')
    makeTree(dir, {
      'p/skill.json': JSON.stringify({ name: 'p', description: 'A skill.', entry: 'run.sh' }),
      'p/run.sh': { exec: '#!/bin/sh\ncat >/dev/null\nprintf {}\n' },
      'p/tests/cases.json': JSON.stringify([
        { name: `${'a'.repeat(40)}!`, expect: { ok: true } },
        { name: 'plain', expect: { ok: true } },
      ]),
    })
  })

  test('^(a+)+$ over a 41-character name: one line, exit 2, within the 1 s bound', async () => {
    const t0 = Date.now()
    const r = await cli(['test', dir, '--filter', '^(a+)+$'], 20_000)
    assert.equal(r.hung, false, 'hung')
    assert.equal(r.code, 2)
    assert.equal(
      r.stderr,
      'ongrid-skill: --filter "^(a+)+$": matching the case names took over 1000 ms (catastrophic backtracking?): simplify the pattern\n',
    )
    assert.ok(Date.now() - t0 < 10_000, `took ${Date.now() - t0} ms`)
  })

  test('a pattern that finishes filters as before', async () => {
    const r = await cli(['test', dir, '--filter', '^pla', '--format', 'tap'])
    assert.equal(r.code, 0, r.stderr)
    assert.match(r.stdout, /ok 1 - p › plain\n1\.\.1\n/)
  })

  for (const [signal, code] of STOP_SIGNALS) {
    test(`${signal} while the pattern runs: status ${code}, the pattern given up, nothing said`, async () => {
      const stderr: string[] = []
      assert.equal(await stopAfter(['test', dir, '--filter', '^(a+)+$'], signal, 500, stderr), code)
      assert.equal(stderr.join(''), '')
    })
  }
})

describe('test --watch: the watched path removed', () => {
  for (const how of ['removed', 'renamed'] as const) {
    test(`${how}: one line, exit 2 (not 0)`, async () => {
      const dir = join(R, `watched-${how}`)
      makeTree(dir, {
        'p/skill.json': JSON.stringify({ name: 'p', description: 'A skill.', entry: 'run.sh' }),
        'p/run.sh': { exec: '#!/bin/sh\ncat >/dev/null\nprintf {}\n' },
        'p/tests/cases.json': JSON.stringify([{ name: 'one', expect: { ok: true } }]),
      })
      const r = await runCli(['test', dir, '--watch', '--format', 'tap'], {
        env: { CI: '1', NO_COLOR: '1' },
        cwd: R,
        stdin: 'ignore',
        timeoutMs: 20_000,
        onStderr: (_child, text) => {
          if (!/watching for changes/.test(text) || !existsSync(dir)) return
          if (how === 'removed') rmSync(dir, { recursive: true, force: true })
          else renameSync(dir, `${dir}.old`)
        },
      })
      assert.equal(r.hung, false, 'hung')
      assert.equal(r.code, 2, r.stderr)
      assert.match(
        r.stderr,
        new RegExp(`\\nongrid-skill: ${dir}: the watched path was removed; the watch ends\\n$`),
      )
      assert.equal(r.stderr.match(/ongrid-skill:/g)?.length, 1, r.stderr)
    })
  }
})
