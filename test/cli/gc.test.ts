import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { collectGarbage } from '../../src/cli/gc.js'

describe('collectGarbage (the executor hook the CLI passes)', () => {
  test('collects: an object only a WeakRef holds is gone after it', async () => {
    const ref = (() => new WeakRef({ big: Buffer.alloc(1024) }))()
    // A WeakRef's target lives until the end of the job that made it.
    await new Promise((r) => setImmediate(r))
    collectGarbage()
    assert.equal(ref.deref(), undefined)
    collectGarbage() // the second call reuses what the first set up
  })
})
