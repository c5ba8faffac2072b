import assert from 'node:assert/strict'
import * as fs from 'node:fs'
import { join } from 'node:path'
import { after, afterEach, test } from 'node:test'
import { scratchPlaces } from '../../src/core/marketplace/scratch.js'
import { tempBase, UnsafeDirError } from '../../src/core/user-dirs.js'
import { tempRoot } from '../helpers/tree.js'

// Temp dirs go only where no other user can rename a dir of ours and put theirs in its place:
// a TMPDIR another user may write without the sticky bit is passed over for a private dir.

const { root, cleanup } = tempRoot('ongrid-temp-base-')
after(cleanup)
const saved = process.env.TMPDIR
afterEach(() => {
  if (saved === undefined) delete process.env.TMPDIR
  else process.env.TMPDIR = saved
})
let n = 0
function dir(mode: number, under = root): string {
  const d = join(under, `d${n++}`)
  fs.mkdirSync(d)
  fs.chmodSync(d, mode)
  return d
}
const env = (cache: string) => ({ ...process.env, XDG_CACHE_HOME: cache })

test('a TMPDIR no one else can write, or a sticky one (as /tmp): used as it is', () => {
  const cache = dir(0o700)
  for (const mode of [0o700, 0o755, 0o1777]) {
    process.env.TMPDIR = dir(mode)
    assert.equal(tempBase(env(cache)), process.env.TMPDIR)
  }
  assert.deepEqual(fs.readdirSync(cache), [], 'no private dir made')
})

test('a TMPDIR others can write without the sticky bit (or below such a dir): a private dir instead', () => {
  const cache = dir(0o700)
  const own = join(cache, 'ongrid-skill', 'tmp')
  process.env.TMPDIR = dir(0o777)
  assert.equal(tempBase(env(cache)), own)
  assert.equal(fs.statSync(own).mode & 0o7777, 0o700)
  process.env.TMPDIR = dir(0o700, dir(0o777))
  assert.equal(tempBase(env(cache)), own)
  process.env.TMPDIR = dir(0o770)
  assert.equal(tempBase(env(cache)), own, 'group-writable too')
  process.env.TMPDIR = join(root, 'missing')
  assert.equal(tempBase(env(cache)), own, 'a TMPDIR that does not exist')
  // The archives' scratch place follows it (after /dev/shm, when that is there and safe).
  process.env.TMPDIR = dir(0o777)
  const places = scratchPlaces()
  assert.notEqual(places.at(-1), process.env.TMPDIR)
  assert.ok(!places.includes(process.env.TMPDIR))
})

test('no safe TMPDIR and no private dir to fall back on: one line naming both', () => {
  const open = dir(0o777)
  process.env.TMPDIR = open
  const cache = dir(0o777)
  assert.throws(
    () => tempBase(env(cache)),
    (e: Error & { exitCode?: number }) =>
      e instanceof UnsafeDirError &&
      e.exitCode === 2 &&
      e.message ===
        `no safe temp dir: TMPDIR ${open}: writable by group and others (mode 0777); and ${cache}: writable by group and others (mode 0777)`,
  )
})
