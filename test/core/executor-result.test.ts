import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { execute } from '../../src/core/executor.js'
import { MILLISECOND, SECOND } from '../../src/core/go/time/duration.js'
import { SH, script } from '../fixtures/run/helpers.js'
import { tempRoot } from '../helpers/tree.js'

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
