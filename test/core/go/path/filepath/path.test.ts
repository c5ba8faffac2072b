import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { bytesOf } from '../../../../../src/core/go/gostring.js'
import {
  abs,
  base,
  clean,
  dir,
  ext,
  isAbs,
  join,
  rel,
  SEPARATOR,
  split,
} from '../../../../../src/core/go/path/filepath/path.js'
import { inDir, makeFixture } from '../../os/fixture.js'

// Expected values are Go 1.19's output (path/filepath is unchanged in these respects through 1.25).

// [path, Clean, Base, Dir, Split dir, Split file, Ext]
const LEXICAL: [string, string, string, string, string, string, string][] = [
  ['', '.', '.', '.', '', '', ''],
  ['/', '/', '/', '/', '/', '', ''],
  ['//', '/', '/', '/', '//', '', ''],
  ['///', '/', '/', '/', '///', '', ''],
  ['.', '.', '.', '.', '', '.', '.'],
  ['..', '..', '..', '.', '', '..', '.'],
  ['./', '.', '.', '.', './', '', ''],
  ['../', '..', '..', '..', '../', '', ''],
  ['/.', '/', '.', '/', '/', '.', '.'],
  ['/..', '/', '..', '/', '/', '..', '.'],
  ['/./', '/', '.', '/', '/./', '', ''],
  ['/../', '/', '..', '/', '/../', '', ''],
  ['/x/./y/', '/x/y', 'y', '/x/y', '/x/./y/', '', ''],
  ['/x//y', '/x/y', 'y', '/x', '/x//', 'y', ''],
  ['/a/../b', '/b', 'b', '/', '/a/../', 'b', ''],
  ['a/../..', '..', '..', '.', 'a/../', '..', '.'],
  ['/../..', '/', '..', '/', '/../', '..', '.'],
  ['../../a/', '../../a', 'a', '../../a', '../../a/', '', ''],
  ['a/b/../../..', '..', '..', '.', 'a/b/../../', '..', '.'],
  ['abc', 'abc', 'abc', '.', '', 'abc', ''],
  ['abc/', 'abc', 'abc', 'abc', 'abc/', '', ''],
  ['/abc//', '/abc', 'abc', '/abc', '/abc//', '', ''],
  ['a/b.c/d', 'a/b.c/d', 'd', 'a/b.c', 'a/b.c/', 'd', ''],
  ['a.b/', 'a.b', 'a.b', 'a.b', 'a.b/', '', ''],
  ['.x', '.x', '.x', '.', '', '.x', '.x'],
  ['..x', '..x', '..x', '.', '', '..x', '.x'],
  ['x..', 'x..', 'x..', '.', '', 'x..', '.'],
  ['...', '...', '...', '.', '', '...', '.'],
  ['/...', '/...', '...', '/', '/', '...', '.'],
  ['.../', '...', '...', '...', '.../', '', ''],
  ['a/./b/../c/.', 'a/c', '.', 'a/c', 'a/./b/../c/', '.', '.'],
  ['a//b//', 'a/b', 'b', 'a/b', 'a//b//', '', ''],
  ['a/..hidden/..', 'a', '..', 'a/..hidden', 'a/..hidden/', '..', '.'],
  ['..a/../b', 'b', 'b', '.', '..a/../', 'b', ''],
  ['a/\xff/../b/c.\xfe', 'a/b/c.\xfe', 'c.\xfe', 'a/b', 'a/\xff/../b/', 'c.\xfe', '.\xfe'],
  ['x/y.tar.gz', 'x/y.tar.gz', 'y.tar.gz', 'x', 'x/', 'y.tar.gz', '.gz'],
  ['/a/b/c/../../../..', '/', '..', '/', '/a/b/c/../../../', '..', '.'],
  ['//a//..//b//', '/b', 'b', '/b', '//a//..//b//', '', ''],
]

// [elements joined by "|", Join]
const JOIN: [string, string][] = [
  ['', ''],
  ['|', ''],
  ['||', ''],
  ['a|b', 'a/b'],
  ['a||b', 'a/b'],
  ['|a', 'a'],
  ['/|a', '/a'],
  ['a|/b', 'a/b'],
  ['/a/|../b', '/b'],
  ['a/|', 'a'],
  ['../|..|x', '../../x'],
  ['.|.', '.'],
  ['|/', '/'],
  ['a|', 'a'],
  ['|.|', '.'],
  ['/|..', '/'],
  ['a|b/../..|..', '..'],
  ['x/|/y/', 'x/y'],
  ['..hidden|..|z', 'z'],
]

// [basepath, targpath, Rel, error]
const REL: [string, string, string, string | null][] = [
  ['/a', '/a/b', 'b', null],
  ['/a/b', '/a', '..', null],
  ['a', 'b', '../b', null],
  ['/x/..hidden', '/x/y', '../y', null],
  ['/x', '/x/..hidden', '..hidden', null],
  ['/x/..hidden', '/x', '..', null],
  ['..', 'a', '', "Rel: can't make a relative to .."],
  ['../a', 'b', '', "Rel: can't make b relative to ../a"],
  ['a', '../b', '../../b', null],
  ['/', '/a', 'a', null],
  ['/a', '/', '..', null],
  ['a/', 'a/b/', 'b', null],
  ['.', 'a', 'a', null],
  ['a', '.', '../.', null],
  ['/a', 'b', '', "Rel: can't make b relative to /a"],
  ['a', '/b', '', "Rel: can't make /b relative to a"],
  ['/a/b/c', '/a/x/y', '../../x/y', null],
  ['', '', '.', null],
  ['', 'a', 'a', null],
  ['a/../..', 'x', '', "Rel: can't make x relative to a/../.."],
  ['/..hidden', '/..hidden/x', 'x', null],
  ['../..', '..', '', "Rel: can't make .. relative to ../.."],
  ['..', '../..', '..', null],
  ['a/b', 'a/b/', '.', null],
  ['/x/./y/', '/x//y/z', 'z', null],
  ['/a/../b', '/b/c', 'c', null],
  ['..a', '..a/b', 'b', null],
  ['a/..', '../x', '../x', null],
  ['./a//b/', 'a/b/c/', 'c', null],
]

describe('filepath lexical functions', () => {
  test('Clean, Base, Dir, Split and Ext', () => {
    for (const [p, c, b, d, sd, sf, e] of LEXICAL) {
      assert.equal(clean(p), c, `Clean(${JSON.stringify(p)})`)
      assert.equal(base(p), b, `Base(${JSON.stringify(p)})`)
      assert.equal(dir(p), d, `Dir(${JSON.stringify(p)})`)
      assert.deepEqual(split(bytesOf(p)), [sd, sf], `Split(${JSON.stringify(p)})`)
      assert.equal(ext(p), e, `Ext(${JSON.stringify(p)})`)
    }
  })

  test('Clean returns an already clean path unchanged and is idempotent', () => {
    for (const [, c] of LEXICAL) assert.equal(clean(c), c)
  })

  test('Join', () => {
    for (const [elems, want] of JOIN) {
      const parts = elems === '' ? [] : elems.split('|')
      assert.equal(join(...parts), want, `Join(${JSON.stringify(parts)})`)
    }
  })

  test('Rel', () => {
    for (const [b, t, want, wantErr] of REL) {
      const r = rel(b, t)
      if (wantErr === null) {
        assert.ok(r.ok, `Rel(${b}, ${t}) failed: ${r.ok ? '' : r.err.error()}`)
        assert.equal(r.value, want, `Rel(${JSON.stringify(b)}, ${JSON.stringify(t)})`)
      } else {
        assert.ok(!r.ok, `Rel(${b}, ${t}) should fail`)
        assert.equal(r.err.error(), wantErr)
      }
    }
  })

  test('IsAbs and SEPARATOR', () => {
    assert.equal(SEPARATOR, '/')
    assert.equal(isAbs('/'), true)
    assert.equal(isAbs('/a'), true)
    assert.equal(isAbs(''), false)
    assert.equal(isAbs('a/b'), false)
    assert.equal(isAbs('./a'), false)
  })
})

describe('filepath.Abs', () => {
  test('cleans absolute paths without looking at the cwd', () => {
    assert.deepEqual(abs('/a/./b/'), { ok: true, value: '/a/b' })
    assert.deepEqual(abs('/../x//'), { ok: true, value: '/x' })
  })

  test('joins relative paths to Getwd', () => {
    const { root, cleanup } = makeFixture()
    try {
      const parent = root.slice(0, root.lastIndexOf('/')) || '/'
      inDir(root, () => {
        assert.deepEqual(abs(''), { ok: true, value: root })
        assert.deepEqual(abs('.'), { ok: true, value: root })
        assert.deepEqual(abs('x/../y'), { ok: true, value: root + '/y' })
        assert.deepEqual(abs('a//b/'), { ok: true, value: root + '/a/b' })
        assert.deepEqual(abs('../q'), { ok: true, value: parent === '/' ? '/q' : parent + '/q' })
      })
      // $PWD names the cwd through a symlink and "..": Go returns it, then Join cleans it lexically.
      inDir(root + '/real', () => {
        process.env.PWD = root + '/l1/../real'
        assert.deepEqual(abs('x'), { ok: true, value: root + '/real/x' })
        process.env.PWD = root + '/l1'
        assert.deepEqual(abs('x'), { ok: true, value: root + '/l1/x' })
      })
    } finally {
      cleanup()
    }
  })
})
