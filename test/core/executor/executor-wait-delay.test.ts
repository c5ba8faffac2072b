import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { execute } from '../../../src/core/executor/executor.js'
import { MILLISECOND, SECOND } from '../../../src/core/go/time/duration.js'
import { aliveWithMarker, killAll, marker, SH, script } from '../../fixtures/run/helpers.js'
import { tempRoot } from '../../helpers/tree.js'

// Go's os/exec as the manager sets it up: Cmd.WaitDelay = 1 s. The wall-clock tests in
// executor.test.ts bound the wait loosely (a loaded machine is slow); here the clock is mocked,
// so the delay is pinned to the millisecond whatever the machine's load.

let R = ''
let cleanup = () => {}
before(() => {
  ;({ root: R, cleanup } = tempRoot('ongrid-waitdelay-'))
})
after(() => cleanup())

/** Whether process pid exists (a zombie counts: it has not been reaped). */
function exists(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

const sleeper = new Int32Array(new SharedArrayBuffer(4))
/** Lets pending I/O callbacks and promise reactions run (setImmediate is not mocked). */
async function turns(n = 20): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r))
}

// Alone in its file: it mocks setTimeout for the whole process.
describe('execute: the WaitDelay is 1 s (mocked clock)', () => {
  test('pipes held after the exit: still waiting at 999 ms, WaitDelay expired at 1000 ms', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] })
    const m = marker('wd-mocked')
    const p = script(R, 'run.sh', `${SH}/bin/sh -c '/bin/sleep 30; :' ${m} &\necho note >&2\necho '{}'\n`)
    let pid = 0
    let done = false
    const pending = execute({ key: 'k', entry: p, envAllow: null, timeoutNs: 60n * SECOND }, '', {
      environ: {},
      onStart: (x) => (pid = x),
    }).then((r) => {
      done = true
      return r
    })
    try {
      assert.ok(pid > 0)
      // The entry exits at once; its background child keeps stdout and stderr open. Once the
      // entry is reaped, its exit has been handled (the same libuv callback): the delay runs.
      while (exists(pid)) {
        Atomics.wait(sleeper, 0, 0, 2)
        await turns(1)
      }
      await turns()
      t.mock.timers.tick(999)
      await turns()
      assert.equal(done, false, 'finished before the WaitDelay was over')
      t.mock.timers.tick(1)
      await turns()
      assert.equal(done, true, 'still waiting once the WaitDelay was over')
      const r = await pending
      assert.equal(r.error, 'subprocess skill k: exec: WaitDelay expired before I/O complete (stderr: note)')
      assert.equal(r.ok, false)
      assert.equal(r.exitCode, 0)
      assert.equal(r.stdout.toString(), '{}\n')
    } finally {
      killAll(aliveWithMarker(m), pid)
      await pending
    }
  })

  test('an abort after the exit kills nothing: the background child keeps its pipes until the WaitDelay', async (t) => {
    // Go's watchCtx is gone once the process has been reaped: a cancel then is not a kill.
    t.mock.timers.enable({ apis: ['setTimeout'] })
    const m = marker('wd-abort')
    const p = script(R, 'abort.sh', `${SH}/bin/sh -c '/bin/sleep 30; :' ${m} &\necho '{}'\n`)
    const ac = new AbortController()
    let pid = 0
    let done = false
    const pending = execute({ key: 'k', entry: p, envAllow: null, timeoutNs: 60n * SECOND }, '', {
      environ: {},
      signal: ac.signal,
      onStart: (x) => (pid = x),
    }).then((r) => {
      done = true
      return r
    })
    try {
      while (exists(pid)) {
        Atomics.wait(sleeper, 0, 0, 2)
        await turns(1)
      }
      await turns()
      ac.abort()
      await turns()
      assert.equal(done, false, 'finished at the abort')
      assert.equal(aliveWithMarker(m).length > 0, true, 'the background child was killed')
      t.mock.timers.tick(1000)
      await turns()
      assert.equal(done, true)
      const r = await pending
      assert.equal(r.error, 'subprocess skill k: exec: WaitDelay expired before I/O complete (stderr: )')
      assert.equal(r.exitCode, 0)
    } finally {
      killAll(aliveWithMarker(m), pid)
      await pending
    }
  })
})

describe('execute: the timeout timer at its bound (mocked clock)', () => {
  test('2^31 − 1 ms, the longest timer Node keeps, fires at that time', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] })
    const p = script(R, 'long.sh', `${SH}/bin/sleep 30\n`)
    let pid = 0
    let done = false
    const pending = execute(
      { key: 'k', entry: p, envAllow: null, timeoutNs: (2n ** 31n - 1n) * MILLISECOND },
      '',
      { environ: {}, onStart: (x) => (pid = x) },
    ).then((r) => {
      done = true
      return r
    })
    try {
      assert.ok(pid > 0)
      await turns()
      t.mock.timers.tick(2 ** 31 - 2)
      await turns()
      assert.equal(done, false, 'timed out early')
      t.mock.timers.tick(1)
      // The kill, the exit and the close of the pipes: real time.
      for (let i = 0; i < 3000 && !done; i++) {
        Atomics.wait(sleeper, 0, 0, 2)
        await turns(1)
      }
      assert.equal(done, true, 'no timeout at 2^31 − 1 ms')
      const r = await pending
      assert.equal(r.error, 'subprocess skill k: timed out after 596h31m23.647s')
      assert.equal(r.exitCode, -1)
    } finally {
      killAll([], pid)
      await pending
    }
  })
})
