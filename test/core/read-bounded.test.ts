import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, test } from 'node:test'
import { NotRegularError, readRegularSized, TooLargeError } from '../../src/core/read-bounded.js'

const dir = mkdtempSync(join(tmpdir(), 'ongrid-read-sized-'))
after(() => rmSync(dir, { recursive: true, force: true }))

test('readRegularSized: a regular file whole, over the limit refused or cut, a FIFO never waited for', () => {
  const file = join(dir, 'f')
  writeFileSync(file, 'abcdef')
  assert.equal(readRegularSized(file, 6).toString(), 'abcdef')
  assert.equal(readRegularSized(Buffer.from(file), 100).toString(), 'abcdef')
  assert.throws(
    () => readRegularSized(file, 5),
    (e) => e instanceof TooLargeError && e.limit === 5,
  )
  assert.equal(readRegularSized(file, 4, { cut: true }).toString(), 'abcd')
  const fifo = join(dir, 'p')
  execFileSync('mkfifo', [fifo])
  assert.throws(() => readRegularSized(fifo, 10), NotRegularError)
  assert.throws(() => readRegularSized(dir, 10), NotRegularError)
  assert.throws(() => readRegularSized(join(dir, 'none'), 10), /ENOENT/)
})
