import assert from 'node:assert/strict'
import { test } from 'node:test'
import {
  readDirectory,
  ZIP_FORMAT,
  ZipError,
  zipMode,
} from '../../../../../src/core/go/archive/zip/reader.js'
import { update } from '../../../../../src/core/go/hash/crc32/crc32.js'
import { writeZip } from '../../../../../src/core/marketplace/archive-write.js'

const entry = (rel: string, data = 'x', mode = 0o644) => ({ rel, dir: false, mode, data: Buffer.from(data) })

test('zip reader: the directory with Go’s texts unwrapped, modes, crc32', async () => {
  const zip = await writeZip('p', [entry('run.sh', '#!/bin/sh\n', 0o755)])
  const files = readDirectory(zip)
  assert.deepEqual(
    files.map((f) => f.name),
    ['p/', 'p/run.sh'].filter((n) => files.some((f) => f.name === n)),
  )
  const run = files.find((f) => f.name === 'p/run.sh')
  assert.ok(run)
  assert.equal(zipMode(run.creatorVersion, run.externalAttrs, run.name).perm & 0o111, 0o111)
  assert.equal(run.crc32, update(0, Buffer.from('#!/bin/sh\n')))
  assert.throws(
    () => readDirectory(Buffer.from('not a zip')),
    (e) => e instanceof ZipError && e.goText === ZIP_FORMAT && e.exact,
  )
  assert.equal(update(0, Buffer.from('123456789')), 0xcbf43926)
})
