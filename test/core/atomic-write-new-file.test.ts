import assert from 'node:assert/strict'
import * as fs from 'node:fs'
import { join } from 'node:path'
import { after, test } from 'node:test'
import { createNewFile, removeCreated } from '../../src/core/atomic-write.js'
import { tempRoot } from '../helpers/tree.js'

// createNewFile is how `marketplace keygen` writes its keys: never over anything, never through a
// link, written through the descriptor it created, and the name checked to still be that file.

const { root, cleanup } = tempRoot('ongrid-new-file-')
after(cleanup)
let n = 0
const fresh = () => {
  const d = join(root, `d${n++}`)
  fs.mkdirSync(d)
  return d
}

test('a new file: its bytes, its mode exactly (whatever the umask), nothing else in the dir', () => {
  const d = fresh()
  const old = process.umask(0)
  try {
    createNewFile(join(d, 'k.pem'), 'secret\n', 0o600)
    createNewFile(join(d, 'k.pub'), 'public\n', 0o644)
  } finally {
    process.umask(old)
  }
  assert.equal(fs.readFileSync(join(d, 'k.pem'), 'utf8'), 'secret\n')
  assert.equal(fs.statSync(join(d, 'k.pem')).mode & 0o7777, 0o600)
  assert.equal(fs.statSync(join(d, 'k.pub')).mode & 0o7777, 0o644)
  assert.deepEqual(fs.readdirSync(d).sort(), ['k.pem', 'k.pub'])
})

test('never over a file, never through a planted symlink (dangling or not)', () => {
  const d = fresh()
  const victim = join(d, 'victim')
  fs.writeFileSync(victim, 'keep me\n')
  fs.writeFileSync(join(d, 'there.pem'), 'old key\n')
  fs.symlinkSync(victim, join(d, 'link.pem'))
  fs.symlinkSync(join(d, 'nowhere'), join(d, 'dangling.pem'))
  for (const name of ['there.pem', 'link.pem', 'dangling.pem']) {
    assert.throws(
      () => createNewFile(join(d, name), 'secret\n', 0o600),
      (e: Error & { exitCode?: number }) =>
        e.exitCode === 2 && e.message === `cannot write ${join(d, name)}: file exists`,
    )
  }
  assert.equal(fs.readFileSync(victim, 'utf8'), 'keep me\n')
  assert.equal(fs.readFileSync(join(d, 'there.pem'), 'utf8'), 'old key\n')
  assert.equal(fs.existsSync(join(d, 'nowhere')), false, 'the dangling link’s target is not created')
})

test('the name swapped for a symlink while the key is written: the key goes nowhere, the victim is kept', () => {
  const d = fresh()
  const victim = join(d, 'victim')
  fs.writeFileSync(victim, 'keep me\n')
  const key = join(d, 'k.pem')
  const moved = join(d, 'moved-away')
  let swapped = false
  assert.throws(
    () =>
      createNewFile(key, 'PRIVATE KEY\n', 0o600, {
        ops: {
          // Another user of the dir, between the create and the write: our file renamed to a
          // name of theirs, a symlink to the victim put in its place.
          write: (fd, data, off, len, pos) => {
            if (!swapped) {
              swapped = true
              fs.renameSync(key, moved)
              fs.symlinkSync(victim, key)
            }
            return fs.writeSync(fd, data, off, len, pos)
          },
        },
      }),
    (e: Error & { exitCode?: number }) =>
      e.exitCode === 2 &&
      /^cannot write .*k\.pem: it was moved or replaced while being written/.test(e.message),
  )
  assert.equal(fs.readFileSync(victim, 'utf8'), 'keep me\n', 'nothing written through the planted link')
  assert.equal(fs.readFileSync(moved, 'utf8'), '', 'the key’s bytes cut from the file now under their name')
  assert.ok(fs.lstatSync(key).isSymbolicLink(), 'their link is not ours to remove')
})

test('a write that fails: the file made is removed, and only while the name is still ours', () => {
  const d = fresh()
  const key = join(d, 'k.pem')
  assert.throws(
    () =>
      createNewFile(key, 'x', 0o600, {
        ops: {
          fsync: () => {
            throw Object.assign(new Error('no space'), { code: 'ENOSPC', errno: -28 })
          },
        },
      }),
    (e: Error) => /^cannot write .*k\.pem: no space left on device$/.test(e.message),
  )
  assert.deepEqual(fs.readdirSync(d), [])
  const made = createNewFile(key, 'x', 0o600)
  fs.renameSync(key, join(d, 'other'))
  fs.writeFileSync(key, 'not ours')
  removeCreated(made)
  assert.equal(fs.readFileSync(key, 'utf8'), 'not ours')
})
