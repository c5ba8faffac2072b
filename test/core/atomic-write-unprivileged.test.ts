// Run as root and, by .ci/run, once more as uid 65534: a permission case is judged there.
import assert from 'node:assert/strict'
import * as fs from 'node:fs'
import { join } from 'node:path'
import { after, test } from 'node:test'
import { writeFileAtomic } from '../../src/core/atomic-write.js'
import { tempRoot } from '../helpers/tree.js'

const { root, cleanup } = tempRoot('ongrid-atomic-np-')
after(cleanup)

test('a dir the process may not write: one line, exit 2, nothing left', {
  skip: process.getuid?.() === 0 && 'root writes anywhere',
}, () => {
  const d = join(root, 'ro')
  fs.mkdirSync(d)
  fs.writeFileSync(join(d, 'f'), 'kept')
  fs.chmodSync(d, 0o555)
  try {
    assert.throws(
      () => writeFileAtomic(join(d, 'f'), 'x'),
      (e: Error & { exitCode?: number }) =>
        e.exitCode === 2 && e.message === `cannot write ${join(d, 'f')}: permission denied`,
    )
    assert.deepEqual(fs.readdirSync(d), ['f'])
    assert.equal(fs.readFileSync(join(d, 'f'), 'utf8'), 'kept')
  } finally {
    fs.chmodSync(d, 0o755)
  }
})
