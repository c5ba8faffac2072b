import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { collectGarbage } from '../../src/cli/gc.js'

const SRC = fileURLToPath(new URL('../../../src/', import.meta.url))

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : [],
  )
}

describe('collectGarbage (the executor hook the CLI passes)', () => {
  test('collects: an object only a WeakRef holds is gone after it', async () => {
    const ref = (() => new WeakRef({ big: Buffer.alloc(1024) }))()
    // A WeakRef's target lives until the end of the job that made it.
    await new Promise((r) => setImmediate(r))
    collectGarbage()
    assert.equal(ref.deref(), undefined)
    collectGarbage() // the second call reuses what the first set up
  })

  test('V8 flags are set at the CLI edge only, never in core', () => {
    const setters = sources(join(SRC, 'core')).filter((f) =>
      readFileSync(f, 'utf8').includes('setFlagsFromString'),
    )
    assert.deepEqual(setters, [])
  })
})
