import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { execute } from '../../../src/core/executor/executor.js'
import { MILLISECOND, SECOND } from '../../../src/core/go/time/duration.js'
import { SH, script } from '../../fixtures/run/helpers.js'
import { tempRoot } from '../../helpers/tree.js'

let R = ''
let cleanup = () => {}
before(() => {
  ;({ root: R, cleanup } = tempRoot('ongrid-exec-result-'))
})
after(() => cleanup())

const run = (body: string, timeoutNs: bigint, name: string) =>
  execute({ key: 'k', entry: script(R, name, `${SH}${body}`), envAllow: null, timeoutNs }, '', {
    environ: {},
  })

describe('execute: the result', () => {
  test('a non-zero exit is a failure, with its code and the stderr tail', async () => {
    const r = await run("echo '{}'\necho ' why ' >&2\nexit 3\n", 5n * SECOND, 'exit3.sh')
    assert.equal(r.ok, false)
    assert.equal(r.exitCode, 3)
    assert.equal(r.error, 'subprocess skill k: exit 3 (stderr: why)')
    assert.equal(r.timedOut, false)
  })

  test('a timeout too long for a timer (≥ 2^31 ms) never fires; 2^31 − 1 ms is still a timer', async () => {
    // Node would fire an out-of-range timer after 1 ms; Go's deadline is just far away.
    const far = await run("echo '{}'\n", 2n ** 31n * MILLISECOND, 'far.sh')
    assert.equal(far.error, null)
    assert.equal(far.ok, true)
    const max = await run("echo '{}'\n", (2n ** 31n - 1n) * MILLISECOND, 'max.sh')
    assert.equal(max.ok, true)
  })
})

describe('execute: the deadline (mocked monotonic clock)', () => {
  test('a run that ends at its deadline is timed out; a nanosecond before, it is not', async (t) => {
    // Go's context is done at its deadline itself (time.Until(d) <= 0), whether or not the
    // timer has killed anything: the final check is `now >= deadline`. The executor reads the
    // monotonic clock through process.hrtime.bigint; the real timer here is far away.
    let clock = 10n ** 15n
    t.mock.method(process.hrtime, 'bigint', () => clock)
    const timeoutNs = 60n * SECOND
    const at = execute(
      { key: 'k', entry: script(R, 'at.sh', `${SH}echo '{}'\n`), envAllow: null, timeoutNs },
      '',
      {
        environ: {},
      },
    )
    // Started and the deadline taken (synchronously); the child's exit is seen later.
    clock += timeoutNs
    const a = await at
    assert.equal(a.error, 'subprocess skill k: timed out after 1m0s')
    assert.equal(a.timedOut, true)
    assert.equal(a.exitCode, 0)
    const before = execute(
      { key: 'k', entry: script(R, 'before.sh', `${SH}echo '{}'\n`), envAllow: null, timeoutNs },
      '',
      { environ: {} },
    )
    clock += timeoutNs - 1n
    const b = await before
    assert.equal(b.error, null)
    assert.equal(b.ok, true)
  })
})
