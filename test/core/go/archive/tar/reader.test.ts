import assert from 'node:assert/strict'
import { test } from 'node:test'
import { TarWalk, tarEnding } from '../../../../../src/core/go/archive/tar/reader.js'
import { tarBytes } from '../../../../../src/core/marketplace/archive-write.js'

const entry = (rel: string, data = 'x', mode = 0o644) => ({ rel, dir: false, mode, data: Buffer.from(data) })

test('tar reader: Go’s own texts, and whether Next or the copy meets the end', async () => {
  const tar = await tarBytes('p', [entry('a.md', 'y'.repeat(1000))])
  // Inside a header: Next's io.ErrUnexpectedEOF.
  assert.deepEqual(tarEnding(tar.subarray(0, 512 + 100), false), { error: 'unexpected EOF', during: 'next' })
  // Inside a regular file's data: the copy's, while the caller copies it; Next's past that.
  const inData = tar.subarray(0, 512 * 2 + 100)
  assert.deepEqual(tarEnding(inData, false), { error: 'unexpected EOF', during: 'copy' })
  assert.deepEqual(tarEnding(inData, false, 10), { error: 'unexpected EOF', during: 'next' })
  // A whole stream ends cleanly; a damaged header block is archive/tar's ErrHeader, unwrapped.
  assert.equal(tarEnding(tar, false), null)
  const bad = Buffer.from(tar)
  bad[512 + 148] = 0x39 // the second header's checksum field
  const w = new TarWalk()
  w.push(bad)
  assert.deepEqual(w.ending(false), { error: 'archive/tar: invalid tar header', during: 'next' })
})
