import assert from 'node:assert/strict'
import * as fs from 'node:fs'
import { join } from 'node:path'
import { after, test } from 'node:test'
import { cli } from '../helpers/lint-fixtures.js'
import { tempRoot } from '../helpers/tree.js'

// A private key goes only where no other user can swap, move or remove it.

const { root, cleanup } = tempRoot('ongrid-keygen-')
after(cleanup)

test('keygen refuses a dir others can write that is not sticky: one line, exit 2, nothing written', () => {
  const open = join(root, 'open')
  fs.mkdirSync(open)
  fs.chmodSync(open, 0o777)
  const r = cli(['marketplace', 'keygen', '-o', join(open, 'team.pem')])
  assert.equal(r.code, 2)
  assert.equal(
    r.stderr,
    `ongrid-skill: cannot write ${join(open, 'team.pem')}: ${open}: writable by group and others (mode 0777)\nhint: a private key goes only in a dir that no other user can write: choose one of your own with -o\n`,
  )
  assert.deepEqual(fs.readdirSync(open), [])
  // Below it too: whoever can write the dir above can swap the dir the key is in.
  fs.mkdirSync(join(open, 'mine'), { mode: 0o700 })
  assert.equal(cli(['marketplace', 'keygen', '-o', join(open, 'mine', 'team.pem')]).code, 2)
  assert.deepEqual(fs.readdirSync(join(open, 'mine')), [])
})

test('keygen writes into a sticky dir (as /tmp) and a dir of its own; a missing dir in Go’s words', () => {
  const sticky = join(root, 'sticky')
  fs.mkdirSync(sticky)
  fs.chmodSync(sticky, 0o1777)
  let r = cli(['marketplace', 'keygen', '-o', join(sticky, 'team.pem')])
  assert.equal(r.code, 0, r.stderr)
  assert.equal(fs.statSync(join(sticky, 'team.pem')).mode & 0o777, 0o600)
  assert.equal(fs.statSync(join(sticky, 'team.pub')).mode & 0o777, 0o644)
  r = cli(['marketplace', 'keygen', '-o', join(root, 'no', 'team.pem')])
  assert.equal(r.code, 2)
  assert.equal(
    r.stderr,
    `ongrid-skill: cannot write ${join(root, 'no', 'team.pem')}: no such file or directory\n`,
  )
})
