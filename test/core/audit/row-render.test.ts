import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { type AuditRow, executionStatus, toolCallStatus } from '../../../src/core/audit/row.js'
import {
  embedJson,
  formatDuration,
  humanLine,
  jsonLine,
  localTime,
  painterFor,
} from '../../../src/ui/audit.js'

const T0 = BigInt(Date.parse('2026-05-01T12:00:00Z')) * 1_000_000n

function row(o: Partial<AuditRow> = {}): AuditRow {
  return {
    id: 42n,
    skill: 'disk_usage',
    class: 'safe',
    callerId: 3n,
    callerRole: 'admin',
    edgeId: 0n,
    params: '{"path":"/"}',
    result: '{"used":42}\n',
    error: '',
    startedNs: T0 + 123_456_789n,
    finishedNs: T0 + 1_334_567_890n,
    status: 'ok',
    ...o,
  }
}

describe('status', () => {
  test('skill_executions: from error', () => {
    assert.equal(executionStatus(''), 'ok')
    assert.equal(executionStatus(null), 'ok')
    assert.equal(executionStatus('subprocess skill disk_usage: timed out after 30s'), 'timeout')
    assert.equal(executionStatus('subprocess skill disk_usage: exit 1 (stderr: boom)'), 'error')
  })
  test('chat_tool_calls: the column, success as ok', () => {
    assert.deepEqual(['success', 'error', 'timeout', 'pending'].map(toolCallStatus), [
      'ok',
      'error',
      'timeout',
      'pending',
    ])
  })
})

describe('jsonLine', () => {
  test('stable keys in order; params and result as JSON; RFC 3339 UTC times; duration in ms', () => {
    const line = jsonLine(row())
    assert.equal(
      line,
      '{"id":42,"skill":"disk_usage","class":"safe","caller_id":3,"caller_role":"admin","edge_id":0,' +
        '"params":{"path":"/"},"result":{"used":42},"error":"",' +
        '"started_at":"2026-05-01T12:00:00.123456789Z","finished_at":"2026-05-01T12:00:01.33456789Z",' +
        '"duration_ms":1211.111,"status":"ok"}\n',
    )
    assert.deepEqual(Object.keys(JSON.parse(line)), [
      'id',
      'skill',
      'class',
      'caller_id',
      'caller_role',
      'edge_id',
      'params',
      'result',
      'error',
      'started_at',
      'finished_at',
      'duration_ms',
      'status',
    ])
  })

  test('invalid JSON stays a string; big numbers keep every digit; uint64 ids exact', () => {
    const r = JSON.parse(
      jsonLine(row({ id: 18446744073709551615n, params: '', result: '{"n": 12345678901234567890}' })),
    )
    assert.equal(r.params, '')
    assert.equal(jsonLine(row({ id: 18446744073709551615n })).slice(0, 27), '{"id":18446744073709551615,')
    assert.equal(
      embedJson('{"n": 12345678901234567890,\n "s": "a  b"}'),
      '{"n":12345678901234567890,"s":"a  b"}',
    )
    assert.equal(embedJson('not json'), '"not json"')
    assert.equal(embedJson(null), 'null')
  })

  test('tool calls: uuid id, null class and role, session keys appended', () => {
    const line = jsonLine(
      row({
        id: 'c1',
        class: null,
        callerRole: null,
        callerId: null,
        edgeId: null,
        finishedNs: null,
        status: 'pending',
        llm: { sessionId: 's1', messageId: 'm1', llmCallId: 'call_1' },
      }),
    )
    const o = JSON.parse(line)
    assert.equal(o.id, 'c1')
    assert.equal(o.class, null)
    assert.equal(o.duration_ms, null)
    assert.deepEqual(Object.keys(o).slice(-4), ['status', 'session_id', 'message_id', 'llm_call_id'])
  })
})

describe('humanLine', () => {
  test('time (local), skill, class, caller, duration, status, the first line of the error', () => {
    const line = humanLine(
      row({ error: 'subprocess skill disk_usage: exit 1 (stderr: no)\nmore', status: 'error', edgeId: 2n }),
    )
    assert.equal(
      line,
      `${localTime(T0 + 123_456_789n)}  disk_usage              safe       admin#3 edge=2         1.21s  error   subprocess skill disk_usage: exit 1 (stderr: no)\n`,
    )
    assert.match(humanLine(row()), / {2}ok\n$/)
  })

  test('durations', () => {
    const d = (ms: number) =>
      formatDuration(row({ finishedNs: T0 + BigInt(Math.round(ms * 1e6)), startedNs: T0 }))
    assert.deepEqual([d(0), d(0.42), d(87), d(1210), d(125_000)], ['0ms', '0.42ms', '87ms', '1.21s', '2m05s'])
  })

  test('colour only on a colour terminal, never with NO_COLOR', async () => {
    const tty = { isTTY: true } as NodeJS.WriteStream
    const pipe = { isTTY: false } as NodeJS.WriteStream
    const plain = humanLine(row())
    assert.equal(humanLine(row(), await painterFor(pipe, {})), plain)
    assert.equal(humanLine(row(), await painterFor(tty, { NO_COLOR: '1', FORCE_COLOR: '1' })), plain)
    assert.notEqual(humanLine(row(), await painterFor(pipe, { FORCE_COLOR: '1' })), plain)
  })
})
