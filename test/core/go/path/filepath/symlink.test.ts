import assert from 'node:assert/strict'
import * as fs from 'node:fs'
import * as os from 'node:os'
import { after, before, describe, test } from 'node:test'
import { Errno } from '../../../../../src/core/go/os/errors.js'
import { lstat } from '../../../../../src/core/go/os/file.js'
import { evalSymlinks, walkDirSymlinks } from '../../../../../src/core/go/path/filepath/symlink.js'
import { inDir, makeFixture } from '../../os/fixture.js'

function evalText(p: string): [string, string | null] {
  const r = evalSymlinks(p)
  return r.ok ? [r.value, null] : ['', r.err.error()]
}

describe('filepath.EvalSymlinks', () => {
  let absoluteCases: string[] = []
  let R = ''
  let cleanup = () => {}
  before(() => {
    ;({ root: R, cleanup } = makeFixture())
  })
  after(() => cleanup())

  test('absolute paths (Go 1.19 and 1.25 agree on all of these)', () => {
    const parent = R.slice(0, R.lastIndexOf('/'))
    const cases: [string, string, string | null][] = [
      [R + '/l1/file', R + '/real/file', null],
      [R + '/chain1', R + '/real/file', null],
      [R + '/abs/sub', R + '/real/sub', null],
      [R + '/loop1', '', 'EvalSymlinks: too many links'],
      [R + '/self/x', '', 'EvalSymlinks: too many links'],
      [R + '/real/file/x', '', 'not a directory'],
      [R + '/real/file/', '', 'not a directory'],
      [R + '/file-link/x', '', 'not a directory'],
      [R + '/file-link', R + '/real/file', null],
      [R + '/missing/x', '', 'lstat ' + R + '/missing: no such file or directory'],
      [R + '/real/missing', '', 'lstat ' + R + '/real/missing: no such file or directory'],
      [R + '/dangling', '', 'lstat ' + R + '/nowhere: no such file or directory'],
      [R + '/dangling/x', '', 'lstat ' + R + '/nowhere: no such file or directory'],
      [R + '/dotdot/..', R + '/real', null],
      [R + '/dotdot/../file', R + '/real/file', null],
      [R + '/real/../missing', '', 'lstat ' + R + '/missing: no such file or directory'],
      [R + '/./real//./file', R + '/real/file', null],
      ['/', '/', null],
      ['', '.', null],
      [R + '/up/sub', R + '/real/sub', null],
      [R + '/slash' + R, R, null],
      [R + '/a/..', '', 'not a directory'],
      [R + '/trail/file', R + '/real/file', null],
      [R + '/dot-slash/a', R + '/a', null],
      [R + '/l1/../a', R + '/a', null],
      [R + '//l1///sub//', R + '/real/sub', null],
      [R + '/abs-link', '', 'lstat /nonexistent-abs: no such file or directory'],
      [R + '/sub/\xff/inner', R + '/sub/\xff/inner', null],
      [R + '/a\x00b', '', 'lstat ' + R + '/a\x00b: invalid argument'],
      [R + '/B/../../x/..', '', 'lstat ' + parent + '/x: no such file or directory'],
    ]
    for (const [p, want, wantErr] of cases) assert.deepEqual(evalText(p), [want, wantErr], JSON.stringify(p))
    absoluteCases = cases.map(([p]) => p)
  })

  test('resuming after a known dir (KnownPrefix) gives what the walk from "/" gives', () => {
    // Every absolute case, resumed after each of its prefixes that ends before a "/": links in
    // the prefix, links after it, "..", loops, the link limit and every error text included.
    let resumed = 0
    for (const p of [...absoluteCases, R + '/l1/sub/..', R + '/chain1/../x', R + '/loop1/a']) {
      for (let i = p.indexOf('/', 1); i > 0; i = p.indexOf('/', i + 1)) {
        const at = walkDirSymlinks(p.slice(0, i))
        if (!at.ok) continue
        const r = evalSymlinks(p, lstat, { prefix: p.slice(0, i), at: at.value })
        assert.deepEqual(
          r.ok ? [r.value, null] : ['', r.err.error()],
          evalText(p),
          `${p} after ${p.slice(0, i)}`,
        )
        resumed++
      }
    }
    assert.ok(resumed > 50, `only ${resumed} resumptions`)
    // A dir that fails as a prefix is not resumed from: walkDirSymlinks says why.
    const file = walkDirSymlinks(R + '/real/file')
    assert.equal(file.ok ? null : file.err.error(), 'not a directory')
  })

  test('relative paths stay relative unless a link is absolute', () => {
    inDir(R, () => {
      const cases: [string, string, string | null][] = [
        ['l1/file', 'real/file', null],
        ['.', '.', null],
        ['./l1/../l1', 'real', null],
        ['chain1', 'real/file', null],
        ['abs/../real', R + '/real', null],
        ['up', '../' + R.slice(R.lastIndexOf('/') + 1) + '/real', null],
        ['dotdot/../../a', 'a', null],
        ['loop', '', 'EvalSymlinks: too many links'],
        ['a/b', '', 'not a directory'],
        ['l1/..', '.', null],
        ['l1/../..', '..', null],
        ['\xff\xfe', '\xff\xfe', null],
        ['sub/\xff/inner', 'sub/\xff/inner', null],
        ['..', '..', null],
        ['../', '..', null],
        ['missing/../a', '', 'lstat missing: no such file or directory'],
        ['l1/sub/../../a', 'a', null],
      ]
      for (const [p, want, wantErr] of cases)
        assert.deepEqual(evalText(p), [want, wantErr], JSON.stringify(p))
    })
  })

  test('".." after an absolute link in a relative path: Go 1.25 keeps the result absolute', () => {
    // Go 1.19 gives "lstat tmp: no such file or directory" and "lstat x: …" here: it lost the
    // leading "/" and went on relative to the cwd. Go 1.25's walkSymlinks makes "/" the prefix.
    inDir(R, () => {
      assert.deepEqual(evalText('top/..' + R), [R, null])
      assert.deepEqual(evalText('slash/..' + R), [R, null])
      assert.deepEqual(evalText('slash/../x'), ['', 'lstat /../x: no such file or directory'])
    })
  })

  test('a non-directory before more components is the bare ENOTDIR Errno', () => {
    const r = evalSymlinks(R + '/real/file/x')
    assert.ok(!r.ok)
    assert.ok(r.err instanceof Errno)
    assert.equal(r.err.errno, 20)
  })

  test('up to 255 links are followed; the 256th fails', () => {
    const dir = fs.realpathSync(fs.mkdtempSync(os.tmpdir() + '/go-eval-links-'))
    try {
      // l0 -> l1 -> … -> l254 -> target: 255 links.
      fs.writeFileSync(dir + '/target', '')
      for (let i = 0; i < 255; i++) fs.symlinkSync(i === 254 ? 'target' : 'l' + (i + 1), dir + '/l' + i)
      assert.deepEqual(evalText(dir + '/l0'), [dir + '/target', null])
      fs.symlinkSync('l0', dir + '/m')
      assert.deepEqual(evalText(dir + '/m'), ['', 'EvalSymlinks: too many links'])
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})
