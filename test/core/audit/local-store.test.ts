import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { fileURLToPath } from 'node:url'
import {
  defaultAuditPath,
  type ExecutionRow,
  executionRow,
  insertExecution,
  openLocalStore,
} from '../../../src/core/audit/local-store.js'
import { localOffsetMinutes, sqliteTime } from '../../../src/core/audit/time.js'
import { tempRoot } from '../../helpers/tree.js'

const STORE = fileURLToPath(new URL('../../../src/core/audit/local-store.js', import.meta.url))

let R = ''
let cleanup = () => {}
before(() => {
  ;({ root: R, cleanup } = tempRoot('ongrid-audit-'))
})
after(() => cleanup())

const row = (over: Partial<ExecutionRow> = {}): ExecutionRow => ({
  skillKey: 'disk_usage',
  edgeId: 0,
  callerId: 0,
  callerRole: 'local',
  class: 'safe',
  paramsJson: '{"path":"/"}',
  resultJson: '{"used":1}\n',
  error: '',
  startedNs: 1_700_000_000_123_456_789n,
  finishedNs: 1_700_000_001_000_000_000n,
  ...over,
})

/** Runs `fn` with TZ set (Node re-reads the zone when process.env.TZ changes). */
function withTZ<T>(tz: string, fn: () => T): T {
  const old = process.env.TZ
  process.env.TZ = tz
  try {
    return fn()
  } finally {
    if (old === undefined) delete process.env.TZ
    else process.env.TZ = old
  }
}

describe('sqliteTime: time.Time as the manager’s SQLite driver stores it', () => {
  // Expected texts from Go: t.Format("2006-01-02 15:04:05.999999999-07:00").
  test('UTC: space separator, +00:00, fraction trimmed or dropped', () => {
    assert.equal(sqliteTime(0n), '1970-01-01 00:00:00+00:00')
    assert.equal(sqliteTime(1_700_000_000_123_456_789n), '2023-11-14 22:13:20.123456789+00:00')
    assert.equal(sqliteTime(1_700_000_000_120_000_000n), '2023-11-14 22:13:20.12+00:00')
  })
  test('with an offset (created_at, local time)', () => {
    assert.equal(sqliteTime(1_700_000_000_123_456_789n, 330), '2023-11-15 03:43:20.123456789+05:30')
    assert.equal(sqliteTime(1_700_000_000_000_000_005n, -300), '2023-11-14 17:13:20.000000005-05:00')
  })
  test('localOffsetMinutes follows the process zone', () => {
    assert.equal(
      withTZ('Asia/Kolkata', () => localOffsetMinutes(1_700_000_000_000_000_000n)),
      330,
    )
    assert.equal(
      withTZ('America/New_York', () => localOffsetMinutes(1_700_000_000_000_000_000n)),
      -300,
    )
    assert.equal(
      withTZ('UTC', () => localOffsetMinutes(1_700_000_000_000_000_000n)),
      0,
    )
  })
})

describe('executionRow: the one row run, test --audit and mcp record', () => {
  const ran = {
    skill: { key: 'caf\xc3\xa9', class: 'mutating' },
    callerRole: 'mcp' as const,
    params: '',
    startedNs: 1n,
    finishedNs: 2n,
  }
  test('success: the stdout (bytes decoded as UTF-8, or text) is the result; no error is empty', () => {
    const fromBytes = executionRow({ ...ran, ok: true, stdout: Buffer.from('{"a":"é"}\n'), error: null })
    assert.deepEqual(fromBytes, {
      skillKey: 'café',
      edgeId: 0,
      callerId: 0,
      callerRole: 'mcp',
      class: 'mutating',
      paramsJson: '',
      resultJson: '{"a":"é"}\n',
      error: '',
      startedNs: 1n,
      finishedNs: 2n,
    })
    assert.deepEqual(executionRow({ ...ran, ok: true, stdout: '{"a":"é"}\n', error: null }), fromBytes)
    assert.equal(executionRow({ ...ran, ok: true, stdout: undefined, error: null }).resultJson, '')
  })
  test('failure: no result whatever the entry printed, the executor’s error as given', () => {
    const r = executionRow({
      ...ran,
      ok: false,
      stdout: Buffer.from('{"partial":1}'),
      error: 'subprocess skill café: exit 1',
    })
    assert.equal(r.resultJson, '')
    assert.equal(r.error, 'subprocess skill café: exit 1')
  })
})

describe('defaultAuditPath', () => {
  test('$XDG_STATE_HOME/ongrid-skill/audit.db, else ~/.local/state/…', () => {
    assert.equal(defaultAuditPath({ XDG_STATE_HOME: '/s' }), '/s/ongrid-skill/audit.db')
    assert.equal(
      defaultAuditPath({ XDG_STATE_HOME: '' }),
      join(homedir(), '.local/state/ongrid-skill/audit.db'),
    )
    assert.equal(defaultAuditPath({}), join(homedir(), '.local/state/ongrid-skill/audit.db'))
  })
})

describe('the local store', () => {
  test('created with parent dirs, in WAL mode, with the manager’s skill_executions columns', async () => {
    const path = join(R, 'a/b/audit.db')
    const db = await openLocalStore(path)
    try {
      assert.equal(db.pragma('journal_mode'), 'wal')
      const cols = db.prepare('PRAGMA table_info(skill_executions)').all() as {
        name: string
        type: string
        notnull: number
        pk: number
      }[]
      assert.deepEqual(
        cols.map((c) => [c.name, c.type.toLowerCase(), c.notnull, c.pk]),
        [
          ['id', 'INTEGER', 0, 1],
          ['skill_key', 'TEXT', 1, 0],
          ['edge_id', 'INTEGER', 1, 0],
          ['caller_id', 'INTEGER', 1, 0],
          ['caller_role', 'TEXT', 1, 0],
          ['class', 'TEXT', 1, 0],
          ['params_json', 'TEXT', 1, 0],
          ['result_json', 'TEXT', 0, 0],
          ['error', 'TEXT', 0, 0],
          ['started_at', 'DATETIME', 1, 0],
          ['finished_at', 'DATETIME', 1, 0],
          ['created_at', 'DATETIME', 0, 0],
        ].map(([n, t, nn, pk]) => [n, String(t).toLowerCase(), nn, pk]),
      )
      const idx = db
        .prepare(
          "SELECT name FROM sqlite_master WHERE type='index' AND tbl_name='skill_executions' ORDER BY name",
        )
        .all() as { name: string }[]
      assert.deepEqual(
        idx.map((i) => i.name),
        ['idx_skill_executions_edge', 'idx_skill_executions_key', 'idx_skill_executions_started'],
      )
    } finally {
      db.close()
    }
    // Opening again keeps the table and its rows.
    const again = await openLocalStore(path)
    again.close()
  })
  test('a row per insert, with the values given and the times as the manager writes them', async () => {
    const db = await openLocalStore(join(R, 'rows.db'))
    try {
      const id1 = withTZ('Asia/Kolkata', () => insertExecution(db, row()))
      const id2 = insertExecution(
        db,
        row({ resultJson: '', error: 'subprocess skill k: exit 1 (stderr: x)', paramsJson: '' }),
      )
      assert.equal(id2, id1 + 1)
      const rows = db.prepare('SELECT * FROM skill_executions ORDER BY id').all() as Record<string, unknown>[]
      assert.equal(rows.length, 2)
      const { created_at, ...rest } = rows[0]
      assert.deepEqual(rest, {
        id: id1,
        skill_key: 'disk_usage',
        edge_id: 0,
        caller_id: 0,
        caller_role: 'local',
        class: 'safe',
        params_json: '{"path":"/"}',
        result_json: '{"used":1}\n',
        error: '',
        started_at: '2023-11-14 22:13:20.123456789+00:00',
        finished_at: '2023-11-14 22:13:21+00:00',
      })
      assert.match(String(created_at), /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d{1,9})?\+05:30$/)
      assert.equal(rows[1].params_json, '')
      assert.equal(rows[1].result_json, '')
      assert.equal(rows[1].error, 'subprocess skill k: exit 1 (stderr: x)')
    } finally {
      db.close()
    }
  })
  test('8 processes appending at once lose no rows', async () => {
    const path = join(R, 'parallel.db')
    // Create the store first, as a run would on a fresh machine, racing included below.
    const writer = `
      const { openLocalStore, insertExecution } = await import(${JSON.stringify(STORE)})
      const db = await openLocalStore(${JSON.stringify(path)})
      for (let i = 0; i < 25; i++) insertExecution(db, { skillKey: 'w' + process.argv[1], edgeId: 0, callerId: 0,
        callerRole: 'local', class: 'safe', paramsJson: '', resultJson: String(i), error: '',
        startedNs: 1n, finishedNs: 2n })
      db.close()`
    const codes = await Promise.all(
      Array.from(
        { length: 8 },
        (_, w) =>
          new Promise<number | null>((resolve) => {
            const c = spawn(process.execPath, ['--input-type=module', '-e', writer, String(w)], {
              stdio: 'inherit',
            })
            c.on('exit', (code) => resolve(code))
          }),
      ),
    )
    assert.deepEqual(codes, Array(8).fill(0))
    const db = await openLocalStore(path)
    try {
      const counts = db
        .prepare(
          'SELECT skill_key, count(*) AS n FROM skill_executions GROUP BY skill_key ORDER BY skill_key',
        )
        .all()
      assert.deepEqual(
        counts.map((r) => ({ ...r })),
        Array.from({ length: 8 }, (_, w) => ({ skill_key: `w${w}`, n: 25 })),
      )
    } finally {
      db.close()
    }
  })
})
