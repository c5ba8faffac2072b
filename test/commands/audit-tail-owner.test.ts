import assert from 'node:assert/strict'
import * as fs from 'node:fs'
import { join } from 'node:path'
import { after, test } from 'node:test'
import { insertExecution, openLocalStore } from '../../src/core/audit/local-store.js'
import { runCliSync } from '../helpers/cli.js'
import { tempRoot } from '../helpers/tree.js'

// `audit tail` reads the default store only as `run` writes it: in a dir of this user's own, a
// file of theirs that no one else may write. A `--db sqlite:PATH` is read as given.

const { root: R, cleanup } = tempRoot('ongrid-tail-owner-')
after(cleanup)
let n = 0

/** A state dir holding a default store with one row, as `run` leaves it. */
async function state(): Promise<{ state: string; dir: string; db: string }> {
  const s = join(R, `s${n++}`)
  const db = join(s, 'ongrid-skill', 'audit.db')
  const store = await openLocalStore(db)
  insertExecution(store, {
    skillKey: 'disk_usage',
    edgeId: 0,
    callerId: 0,
    callerRole: 'local',
    class: 'safe',
    paramsJson: '',
    resultJson: '{}',
    error: '',
    startedNs: 1_777_636_800_000_000_000n,
    finishedNs: 1_777_636_801_000_000_000n,
  })
  store.close()
  return { state: s, dir: join(s, 'ongrid-skill'), db }
}

const tail = (s: string, ...args: string[]) =>
  runCliSync(['audit', 'tail', '--json', ...args], {
    env: { XDG_STATE_HOME: s, TZ: 'UTC' },
    timeoutMs: 30_000,
  })

function refused(r: ReturnType<typeof tail>, line: string): void {
  assert.equal(r.code, 2, r.stderr)
  assert.equal(r.stderr, `ongrid-skill: ${line}\n`)
  const doc = JSON.parse(r.stdout)
  assert.equal(doc.ok, false)
}

test('the default store as run writes it is read', async () => {
  const s = await state()
  const r = tail(s.state)
  assert.equal(r.code, 0, r.stderr)
  assert.match(r.stdout, /"skill":"disk_usage"/)
})

test('its dir writable by others, the file writable by others, a symlink: refused in one line', async () => {
  let s = await state()
  fs.chmodSync(s.dir, 0o777)
  refused(tail(s.state), `${s.dir}: writable by group and others (mode 0777)`)
  // The same file named by the user is theirs to read.
  const r = tail(s.state, '--db', `sqlite:${s.db}`)
  assert.equal(r.code, 0, r.stderr)
  assert.match(r.stdout, /"skill":"disk_usage"/)

  s = await state()
  fs.chmodSync(s.db, 0o666)
  refused(tail(s.state), `${s.db}: writable by group and others (mode 0666)`)

  s = await state()
  const elsewhere = join(R, `elsewhere${n++}.db`)
  fs.renameSync(s.db, elsewhere)
  fs.symlinkSync(elsewhere, s.db)
  refused(tail(s.state), `${s.db}: a symbolic link, not a file`)
})

test('a state dir below a dir others can write (not sticky): refused', async () => {
  const open = join(R, `open${n++}`)
  fs.mkdirSync(open)
  const s = await state()
  const moved = join(open, 'state')
  fs.renameSync(s.state, moved)
  fs.chmodSync(open, 0o777)
  refused(tail(moved), `${open}: writable by group and others (mode 0777)`)
})

test('a store another user owns: refused', {
  skip: process.getuid?.() !== 0 && 'needs root to chown',
}, async () => {
  let s = await state()
  fs.chownSync(s.db, 65534, 65534)
  refused(tail(s.state), `${s.db}: owned by uid 65534, not by this user (uid 0)`)
  s = await state()
  fs.chownSync(s.dir, 65534, 65534)
  refused(tail(s.state), `${s.dir}: owned by uid 65534, not by this user (uid 0)`)
})

test('no store yet: said as before', () => {
  const s = join(R, `none${n++}`)
  const r = tail(s)
  assert.equal(r.code, 2)
  assert.match(r.stderr, /no local audit store at .* yet/)
})
