import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { closeSync, copyFileSync, mkdirSync, openSync, writeFileSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { openSqlite } from '../../../src/core/audit/db.js'
import type { Source } from '../../../src/core/audit/dsn.js'
import { AuditError } from '../../../src/core/audit/errors.js'
import type { AuditRow } from '../../../src/core/audit/row.js'
import type { Database } from '../../../src/core/audit/sqlite.js'
import { Executions, type Filter } from '../../../src/core/audit/tables.js'
import { tail } from '../../../src/core/audit/tail.js'
import { createSqlite, EXEC_INSERT, execRow, execValues, storeTime } from '../../fixtures/audit/db.js'
import { tempRoot } from '../../helpers/tree.js'
import { until } from '../../helpers/until.js'

const HOLD_LOCK = fileURLToPath(new URL('../../fixtures/audit/hold-lock.js', import.meta.url))
const T0 = BigInt(Date.parse('2026-05-01T12:00:00Z')) * 1_000_000n
const SEC = 1_000_000_000n

interface Run {
  rows: AuditRow[]
  notices: string[]
  stop: () => void
  done: Promise<void>
}

function run(
  path: string,
  o: { filter?: Filter; limit?: number | null; follow?: boolean; llm?: boolean } = {},
): Run {
  const rows: AuditRow[] = []
  const notices: string[] = []
  const controller = new AbortController()
  const source: Source = { kind: 'sqlite', path, local: false }
  const done = tail({
    source,
    llm: o.llm ?? false,
    filter: o.filter ?? {},
    limit: o.limit === undefined ? 10 : o.limit,
    follow: o.follow ?? false,
    pollMs: 50,
    gapWaitMs: 2000,
    signal: controller.signal,
    row: (r) => rows.push(r),
    flush: () => {},
    notice: (l) => notices.push(l),
  })
  return { rows, notices, stop: () => controller.abort(), done }
}

async function history(path: string, o: Parameters<typeof run>[1] = {}): Promise<AuditRow[]> {
  const r = run(path, o)
  await r.done
  return r.rows
}

async function failure(path: string, o: Parameters<typeof run>[1] = {}): Promise<string> {
  try {
    await history(path, o)
  } catch (e) {
    assert.ok(e instanceof AuditError, String(e))
    return e.message
  }
  assert.fail('no error')
}

describe('audit tail on SQLite (core)', () => {
  let R = ''
  let cleanup = () => {}
  let main = ''
  let db: Database
  const all: {
    id: bigint
    seq: number
    skill: string
    role: string
    edge: number
    error: string
    start: bigint
  }[] = []

  before(async () => {
    ;({ root: R, cleanup } = tempRoot('ongrid-audit-'))
    main = join(R, 'ongrid.db')
    db = await createSqlite(main)
    const ins = db.prepare(EXEC_INSERT)
    for (let seq = 1; seq <= 40; seq++) {
      const r = {
        seq,
        skill: `skill_${seq % 4}`,
        role: seq % 3 === 0 ? 'system' : 'admin',
        edge: seq % 5,
        error:
          seq % 10 === 0
            ? 'subprocess skill k: timed out after 5s'
            : seq % 7 === 0
              ? 'exit 1\nsecond line'
              : '',
        start: T0 + BigInt(seq) * 60n * SEC,
      }
      const id = ins.run(
        ...execValues(
          execRow('sqlite', {
            startNs: r.start,
            ms: seq,
            skill_key: r.skill,
            caller_role: r.role,
            caller_id: seq,
            edge_id: r.edge,
            error: r.error,
            params_json: JSON.stringify({ seq }),
          }),
        ),
      ).lastInsertRowid
      all.push({ ...r, id: BigInt(id) })
    }
  })
  after(() => {
    db.close()
    cleanup()
  })

  test('-n: the last rows, oldest first', async () => {
    const rows = await history(main, { limit: 3 })
    assert.deepEqual(
      rows.map((r) => r.id),
      [38n, 39n, 40n],
    )
    const r = rows[2]
    assert.equal(r.skill, 'skill_0')
    assert.equal(r.status, 'timeout')
    assert.equal(r.startedNs, T0 + 40n * 60n * SEC)
    assert.equal(r.finishedNs, T0 + 40n * 60n * SEC + 40n * 1_000_000n)
    assert.equal(r.params, '{"seq":40}')
    assert.equal((await history(main, { limit: 0 })).length, 0)
    assert.equal((await history(main, { limit: 1000 })).length, 40)
  })

  test('filters: skill, status, caller role, edge, since — as the rows say', async () => {
    const ids = async (filter: Filter, limit: number | null = 1000) =>
      (await history(main, { filter, limit })).map((r) => r.id)
    const want = (p: (x: (typeof all)[number]) => boolean) => all.filter(p).map((x) => x.id)
    assert.deepEqual(
      await ids({ skill: 'skill_1' }),
      want((x) => x.skill === 'skill_1'),
    )
    assert.deepEqual(
      await ids({ status: 'ok' }),
      want((x) => x.error === ''),
    )
    assert.deepEqual(
      await ids({ status: 'timeout' }),
      want((x) => x.error.includes('timed out after')),
    )
    assert.deepEqual(
      await ids({ status: 'error' }),
      want((x) => x.error !== '' && !x.error.includes('timed out')),
    )
    assert.deepEqual(
      await ids({ callerRole: 'system' }),
      want((x) => x.role === 'system'),
    )
    assert.deepEqual(
      await ids({ edge: 2n }),
      want((x) => x.edge === 2),
    )
    const since = T0 + 30n * 60n * SEC + 1n // after row 30 started, by a nanosecond
    assert.deepEqual(
      await ids({ sinceNs: since }, null),
      want((x) => x.start >= since),
    )
    assert.deepEqual(
      await ids({ sinceNs: T0 + 30n * 60n * SEC }, null),
      want((x) => x.seq >= 30),
    )
    assert.deepEqual(
      await ids({ skill: 'skill_2', status: 'ok', edge: 1n }),
      want((x) => x.skill === 'skill_2' && x.error === '' && x.edge === 1),
    )
  })

  test('the queries use the primary key or an index, never a scan or a sort', async () => {
    const sdb = await openSqlite(main, false)
    try {
      const plan = async (sql: string, params: unknown[]) =>
        (await sdb.all(`EXPLAIN QUERY PLAN ${sql}`, params, 'skill_executions')).map((r) => String(r.detail))
      const ok = (lines: string[], what: string) => {
        assert.ok(
          lines.every((l) => !/^SCAN skill_executions$|TEMP B-TREE/.test(l)),
          `${what}: ${lines.join(' | ')}`,
        )
        assert.ok(
          lines.some((l) => /USING (INTEGER PRIMARY KEY|INDEX)/.test(l)),
          `${what}: ${lines.join(' | ')}`,
        )
      }
      for (const filter of [{}, { skill: 'skill_1' }, { edge: 3n }] as Filter[]) {
        const t = new Executions(filter, sdb)
        const h = t.historySql(40n, 1000)
        ok(await plan(h.sql, h.params), `history ${JSON.stringify(Object.keys(filter))}`)
        const p = t.pollSql(
          [
            [3n, 4n],
            [8n, 8n],
          ],
          30n,
          1000,
        )
        ok(await plan(p.sql, p.params), `poll ${JSON.stringify(Object.keys(filter))}`)
      }
    } finally {
      sdb.close()
    }
  })

  test('follow: new rows once each, in the order they commit; Ctrl-C ends it at once', async () => {
    const r = run(main, { follow: true, limit: 2 })
    await until('2 rows', () => r.rows.length === 2, 5000)
    const ins = db.prepare(EXEC_INSERT)
    const added: bigint[] = []
    for (let i = 0; i < 5; i++) {
      added.push(
        BigInt(
          ins.run(...execValues(execRow('sqlite', { startNs: T0, skill_key: `new_${i}` }))).lastInsertRowid,
        ),
      )
      await new Promise((res) => setTimeout(res, 15))
    }
    await until('7 rows', () => r.rows.length === 7, 5000)
    await new Promise((res) => setTimeout(res, 200))
    assert.deepEqual(
      r.rows.map((x) => x.id),
      [39n, 40n, ...added],
    )
    const t = Date.now()
    r.stop()
    await r.done
    assert.ok(Date.now() - t < 200, 'stopped promptly')
    db.prepare('DELETE FROM skill_executions WHERE id > 40').run()
  })

  test('errors, one line each', async () => {
    assert.equal(await failure(join(R, 'none.db')), `no SQLite file at ${join(R, 'none.db')}`)
    await assert.rejects(
      openSqlite(join(R, 'none.db'), true),
      /no local audit store at .* yet: `ongrid-skill run` writes it/,
    )
    mkdirSync(join(R, 'dir.db'))
    assert.equal(await failure(join(R, 'dir.db')), `${join(R, 'dir.db')} is a directory, not a SQLite file`)

    const notDb = join(R, 'text.db')
    writeFileSync(notDb, 'this is not a database, just some text that is long enough\n'.repeat(100))
    assert.equal(await failure(notDb), `${notDb} is not a SQLite database (file is not a database)`)

    // A real file whose pages after the header are overwritten: SQLite notices on reading.
    const corrupt = join(R, 'corrupt.db')
    db.pragma('wal_checkpoint(TRUNCATE)')
    copyFileSync(main, corrupt)
    const fd = openSync(corrupt, 'r+')
    writeSync(fd, Buffer.alloc(8192, 0xa5), 0, 8192, 4096)
    closeSync(fd)
    assert.match(
      await failure(corrupt),
      new RegExp(`^SQLite file ${corrupt} is corrupt \\(database disk image is malformed\\)$`),
    )

    const empty = join(R, 'empty.db')
    ;(await createSqlite(empty, 'executions')).exec('DROP TABLE skill_executions')
    assert.equal(
      await failure(empty),
      `table skill_executions not found in ${empty}: wrong database, or a manager version this tool does not know`,
    )

    const old = join(R, 'old.db')
    const o = await createSqlite(old, 'executions')
    o.exec('ALTER TABLE skill_executions DROP COLUMN class')
    o.close()
    assert.equal(
      await failure(old),
      `table skill_executions in ${old} has no column class: a manager version this tool does not know`,
    )
  })

  test('a locked file is retried briefly, then reported', async () => {
    const locked = join(R, 'locked.db')
    ;(await createSqlite(locked, 'executions')).close()
    const holder = spawn(process.execPath, [HOLD_LOCK, locked], { stdio: ['ignore', 'pipe', 'inherit'] })
    try {
      await new Promise<void>((res, rej) => {
        holder.stdout.on('data', (d: Buffer) => d.toString().includes('locked') && res())
        holder.on('exit', (c) => rej(new Error(`hold-lock exited ${c}`)))
      })
      const t = Date.now()
      assert.equal(
        await failure(locked),
        `SQLite file ${locked} is locked by another process (database is locked)`,
      )
      assert.ok(Date.now() - t >= 2500, 'retried for a while first')
    } finally {
      holder.kill()
    }
  })

  test('--llm: finished tool calls with their session and user; pending ones when they finish', async () => {
    const path = join(R, 'llm.db')
    const l = await createSqlite(path)
    const at = (s: number) => storeTime('sqlite', T0 + BigInt(s) * SEC)
    l.prepare('INSERT INTO chat_sessions (id, user_id, title, created_at) VALUES (?, ?, ?, ?)').run(
      's1',
      7,
      't',
      at(0),
    )
    l.prepare('INSERT INTO chat_messages (id, session_id, role, created_at) VALUES (?, ?, ?, ?)').run(
      'm1',
      's1',
      'assistant',
      at(0),
    )
    const call = l.prepare(
      'INSERT INTO chat_tool_calls (id, message_id, tool_name, arguments_json, result_json, status, error, started_at, ended_at, llm_call_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    )
    call.run(
      'c1',
      'm1',
      'disk_usage',
      '{"path":"/"}',
      '{"error":"","result":{"used":1}}',
      'success',
      null,
      at(1),
      at(2),
      'call_1',
      at(1),
    )
    call.run(
      'c2',
      'm1',
      'web_search',
      '{}',
      null,
      'error',
      'not found: tool "web_search"',
      at(3),
      at(3),
      'call_2',
      at(3),
    )
    call.run('c3', 'm1', 'host_probe_http', '{}', null, 'pending', null, at(4), null, 'call_3', at(4))
    call.run(
      'c4',
      'gone',
      'disk_usage',
      '{}',
      null,
      'timeout',
      'context deadline exceeded',
      at(5),
      at(20),
      'call_4',
      at(5),
    )

    const h = await history(path, { llm: true })
    assert.deepEqual(
      h.map((r) => [r.id, r.skill, r.status, r.callerId, r.llm?.sessionId]),
      [
        ['c1', 'disk_usage', 'ok', 7n, 's1'],
        ['c2', 'web_search', 'error', 7n, 's1'],
        ['c4', 'disk_usage', 'timeout', null, null],
      ],
    )
    assert.deepEqual(
      (await history(path, { llm: true, filter: { status: 'pending' } })).map((r) => r.id),
      ['c3'],
    )
    assert.deepEqual(
      (await history(path, { llm: true, filter: { status: 'ok' } })).map((r) => r.id),
      ['c1'],
    )

    const r = run(path, { llm: true, follow: true, limit: 1 })
    await until('1 row', () => r.rows.length === 1, 5000)
    call.run('c5', 'm1', 'disk_usage', '{}', null, 'pending', null, at(30), null, 'call_5', at(30))
    await new Promise((res) => setTimeout(res, 200))
    assert.deepEqual(
      r.rows.map((x) => x.id),
      ['c4'],
      'pending calls wait',
    )
    l.prepare(
      "UPDATE chat_tool_calls SET status = 'success', result_json = '{}', ended_at = ? WHERE id IN ('c3', 'c5')",
    ).run(at(31))
    await until('3 rows', () => r.rows.length === 3, 5000)
    await new Promise((res) => setTimeout(res, 200))
    assert.deepEqual(r.rows.map((x) => x.id).sort(), ['c3', 'c4', 'c5'])
    r.stop()
    await r.done
    l.close()
  })
})
