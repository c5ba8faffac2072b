import assert from 'node:assert/strict'
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  readdirSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { join } from 'node:path'
import { after, describe, test } from 'node:test'
import { namedPrivateDir, privateDir, UnsafeDirError, userDir, xdgBase } from '../../src/core/user-dirs.js'
import { runCliSync } from '../helpers/cli.js'
import { tempRoot } from '../helpers/tree.js'

// What another user made, as the tests can make it: as root, a dir of nobody's (uid 65534); as
// any other user, one of ours that everyone may write. Both are refused alike.
const ROOT = process.getuid?.() === 0
const T = tempRoot('ongrid-user-dirs-')
after(T.cleanup)
let n = 0
const fresh = () => {
  const d = join(T.root, `case-${n++}`)
  mkdirSync(d, { mode: 0o700 })
  return d
}
const theirs = (dir: string) => {
  if (ROOT) chownSync(dir, 65534, 65534)
  else chmodSync(dir, 0o777)
}
const refused = (f: () => unknown, why: RegExp) =>
  assert.throws(f, (e: unknown) => e instanceof UnsafeDirError && why.test((e as Error).message))

describe('xdgBase', () => {
  test('$XDG_*_HOME when absolute, else its default under $HOME', () => {
    assert.equal(xdgBase('cache', { XDG_CACHE_HOME: '/x/c', HOME: '/h' }), '/x/c')
    assert.equal(xdgBase('cache', { XDG_CACHE_HOME: 'rel', HOME: '/h' }), '/h/.cache')
    assert.equal(xdgBase('config', { HOME: '/h' }), '/h/.config')
    assert.equal(xdgBase('state', { HOME: '/h' }), '/h/.local/state')
    assert.equal(xdgBase('state', { HOME: 'relative' }), null)
  })
})

describe('privateDir', () => {
  test('creates the missing dirs 0700 and returns the real path', () => {
    const d = fresh()
    symlinkSync(d, join(T.root, 'link-to-case'))
    const got = privateDir(join(T.root, 'link-to-case', 'base'), ['ongrid-skill', 'sea'])
    assert.equal(got, join(d, 'base', 'ongrid-skill', 'sea'))
    for (const p of ['base', 'base/ongrid-skill', 'base/ongrid-skill/sea'])
      assert.equal(statSync(join(d, p)).mode & 0o777, 0o700, p)
    // Again: the same dir, found as it is.
    assert.equal(privateDir(join(d, 'base'), ['ongrid-skill', 'sea']), got)
  })

  test('a dir of its own that another user made or may write is refused', () => {
    const d = fresh()
    mkdirSync(join(d, 'ongrid-skill'))
    theirs(join(d, 'ongrid-skill'))
    refused(
      () => privateDir(d, ['ongrid-skill', 'sea']),
      ROOT
        ? /ongrid-skill: owned by uid 65534, not by this user \(uid 0\)$/
        : /ongrid-skill: writable by group and others \(mode 0777\)$/,
    )
    assert.equal(existsSync(join(d, 'ongrid-skill', 'sea')), false, 'nothing made inside')
  })

  test('group-writable, a symlink, a file: refused', () => {
    const d = fresh()
    mkdirSync(join(d, 'g'))
    chmodSync(join(d, 'g'), 0o770)
    refused(() => privateDir(d, ['g']), /g: writable by group \(mode 0770\)$/)
    mkdirSync(join(d, 'real'), { mode: 0o700 })
    symlinkSync(join(d, 'real'), join(d, 'link'))
    refused(() => privateDir(d, ['link']), /link: a symbolic link, not a directory$/)
    writeFileSync(join(d, 'file'), '')
    refused(() => privateDir(d, ['file']), /file: not a directory$/)
    refused(() => privateDir(d, ['..']), /not a plain name$/)
  })

  test('a dir above that another user may write is refused, unless sticky (/tmp)', () => {
    const d = fresh()
    const shared = join(d, 'shared')
    mkdirSync(shared)
    theirs(shared)
    if (ROOT) chmodSync(shared, 0o777)
    refused(
      () => privateDir(shared, ['ongrid-skill']),
      /shared: (owned by uid 65534|writable by group and others)/,
    )
    assert.deepEqual(readdirSync(shared), [], 'nothing made in it')
    // Sticky and root's (as /tmp is): what is ours there stays ours.
    const sticky = join(d, 'sticky')
    mkdirSync(sticky)
    chmodSync(sticky, 0o1777)
    assert.equal(privateDir(sticky, ['ongrid-skill']), join(sticky, 'ongrid-skill'))
  })

  test('namedPrivateDir: the named dir itself is checked; relative paths and / are refused', () => {
    const d = fresh()
    assert.equal(namedPrivateDir(`${join(d, 'cache')}/`), join(d, 'cache'))
    symlinkSync(join(d, 'cache'), join(d, 'alias'))
    refused(() => namedPrivateDir(join(d, 'alias')), /a symbolic link/)
    refused(() => namedPrivateDir('rel/dir'), /not an absolute path$/)
    refused(() => namedPrivateDir('/'), /root dir/)
  })

  test('userDir: <base>/ongrid-skill/<parts>', () => {
    const d = fresh()
    assert.equal(userDir('cache', ['x'], { XDG_CACHE_HOME: join(d, 'c') }), join(d, 'c', 'ongrid-skill', 'x'))
    assert.equal(userDir('state', [], { HOME: d }), join(d, '.local', 'state', 'ongrid-skill'))
  })
})

describe('the local audit store’s default dir', () => {
  test('another user’s dir: the run is not recorded, nothing is written there', () => {
    const home = fresh()
    const dir = join(home, '.local', 'state', 'ongrid-skill')
    mkdirSync(dir, { recursive: true })
    theirs(dir)
    const pack = join(T.root, 'echo')
    mkdirSync(pack)
    writeFileSync(
      join(pack, 'skill.json'),
      JSON.stringify({ name: 'echo', description: 'says ok', entry: 'run.sh', timeout_seconds: 5 }),
    )
    writeFileSync(join(pack, 'run.sh'), '#!/bin/sh\ncat >/dev/null\necho \'{"ok":true}\'\n', { mode: 0o755 })
    const r = runCliSync(['run', pack, '--json'], { env: { HOME: home, XDG_STATE_HOME: undefined } })
    assert.equal(r.code, 0, r.stderr)
    const audit = JSON.parse(r.stdout).audit
    assert.equal(audit.recorded, false)
    assert.match(
      audit.reason,
      ROOT ? /ongrid-skill: owned by uid 65534/ : /ongrid-skill: writable by group and others/,
    )
    assert.deepEqual(readdirSync(dir), [])
    // In a dir of the user's own it is.
    const mine = fresh()
    const ok = runCliSync(['run', pack, '--json'], { env: { HOME: mine, XDG_STATE_HOME: undefined } })
    assert.equal(JSON.parse(ok.stdout).audit.recorded, true, ok.stdout)
    assert.ok(existsSync(join(mine, '.local', 'state', 'ongrid-skill', 'audit.db')))
  })
})
