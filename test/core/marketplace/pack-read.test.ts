import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { mkdirSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, describe, test } from 'node:test'
import {
  checkPackFile,
  MAX_PACK_FILE,
  PackFileError,
  readPackFile,
} from '../../../src/core/marketplace/pack-read.js'
import { tempRoot } from '../../helpers/tree.js'

const { root, cleanup } = tempRoot('ongrid-pack-read-')
after(cleanup)

describe('readPackFile', () => {
  test('a regular file is read whole; a missing file or a dir gives os.ReadFile’s error', () => {
    writeFileSync(join(root, 'a.md'), 'hello')
    const r = readPackFile(join(root, 'a.md'))
    assert.ok(r.ok && r.value.toString() === 'hello')
    const big = Buffer.alloc(200_000, 7)
    writeFileSync(join(root, 'b.md'), big)
    const b = readPackFile(join(root, 'b.md'), { regular: true })
    assert.ok(b.ok && b.value.equals(big))
    const missing = readPackFile(join(root, 'none.md'))
    assert.ok(
      !missing.ok && missing.err.error() === `open ${join(root, 'none.md')}: no such file or directory`,
    )
    mkdirSync(join(root, 'd'))
    const dir = readPackFile(join(root, 'd'))
    assert.ok(!dir.ok && dir.err.error() === `read ${join(root, 'd')}: is a directory`)
  })

  test('a FIFO is refused without waiting for a writer; a device (/dev/zero, through a link) too', () => {
    const fifo = join(root, 'fifo.md')
    execFileSync('mkfifo', [fifo])
    symlinkSync('/dev/zero', join(root, 'zero.md'))
    for (const p of [fifo, join(root, 'zero.md')]) {
      for (const f of [() => readPackFile(p), () => checkPackFile(p)])
        assert.throws(
          f,
          (e) =>
            e instanceof PackFileError &&
            e.exitCode === 2 &&
            e.message ===
              `${p}: not a regular file (a FIFO or device: the manager would wait or read for ever); not checked`,
        )
    }
  })

  test('a regular file over 64 MiB is refused, read or not', () => {
    const p = join(root, 'huge.md')
    writeFileSync(p, '')
    truncateSync(p, MAX_PACK_FILE + 1)
    assert.throws(() => readPackFile(p), { message: `${p}: larger than 64 MiB; not checked` })
    // Walked as regular: no fstat, the read itself stops at the bound.
    assert.throws(() => readPackFile(p, { regular: true }), {
      message: `${p}: larger than 64 MiB; not checked`,
    })
    truncateSync(p, MAX_PACK_FILE)
    const r = readPackFile(p, { regular: true })
    assert.ok(r.ok && r.value.length === MAX_PACK_FILE)
  })
})
