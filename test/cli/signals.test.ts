import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { describe, test } from 'node:test'
import { STOP_SIGNALS } from '../helpers/signals.js'

// src/cli/signals.ts in a Node of its own: a stop signal is handed to JavaScript only when the
// event loop turns, so one that lands during synchronous work must survive the command's
// removal of its handlers and the end of the loop.

const SIGNALS = new URL('../../src/cli/signals.js', import.meta.url).href

function node(body: string): { status: number | null; signal: string | null; stderr: string } {
  const r = spawnSync(
    process.execPath,
    ['--input-type=module', '-e', `import * as s from '${SIGNALS}'\n${body}`],
    {
      encoding: 'utf8',
      timeout: 20_000,
    },
  )
  return { status: r.status, signal: r.signal, stderr: r.stderr }
}

describe('onStopSignals', () => {
  for (const [signal, code] of STOP_SIGNALS) {
    test(`${signal} pending when the handlers are removed (synchronous work): exit ${code}, not 0`, () => {
      // The signal is sent while the main thread is busy: it is pending, not yet handled, when
      // the command ends and removes its handlers.
      const r = node(`const off = s.onStopSignals(() => {})
process.kill(process.pid, '${signal}')
off()
process.exitCode = 0`)
      assert.deepEqual(r, { status: code, signal: null, stderr: '' })
    })
  }

  test('a signal handled by the command: stoppedCode() is its exit, whatever the command returned', () => {
    const out = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import * as s from '${SIGNALS}'\nconst off = s.onStopSignals(() => {})\nprocess.kill(process.pid, 'SIGTERM')\nsetTimeout(() => { off(); process.stdout.write(String(s.stoppedCode())) }, 50)`,
      ],
      { encoding: 'utf8' },
    ).stdout
    assert.equal(out, '143')
  })

  test('no signal: the process ends as it would have (no handler keeps it), stoppedCode() null', () => {
    const r = node(`const off = s.onStopSignals(() => {})
off()
if (s.stoppedCode() !== null) process.exitCode = 9
else process.exitCode = 3`)
    assert.deepEqual(r, { status: 3, signal: null, stderr: '' })
  })

  test('while a second registration is active, a late handler leaves the signal to it', () => {
    const r = node(`const off1 = s.onStopSignals(() => {})
off1()
let got = null
const off2 = s.onStopSignals((sig, code) => { got = code })
process.kill(process.pid, 'SIGINT')
setTimeout(() => { off2(); process.exitCode = got === 130 ? 5 : 6 }, 50)`)
    assert.deepEqual(r, { status: 5, signal: null, stderr: '' })
  })
})
