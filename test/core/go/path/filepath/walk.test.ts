import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import * as fs from 'node:fs'
import * as os from 'node:os'
import { after, before, describe, test } from 'node:test'
import { ErrorString, type GoError } from '../../../../../src/core/go/errors.js'
import { fileModeString } from '../../../../../src/core/go/os/file.js'
import { base } from '../../../../../src/core/go/path/filepath/path.js'
import {
  SKIP_ALL,
  SKIP_DIR,
  splitWalk,
  type WalkOptions,
  walk,
} from '../../../../../src/core/go/path/filepath/walk.js'
import { inDir, makeFixture } from '../../os/fixture.js'

// One callback: [path, info.name, info.mode.String(), size (files and links only), err].
type Row = [string, string | null, string | null, number | null, string | null]

/** Walks root and records every callback; `results` maps a path to what the callback returns there. */
function record(
  root: string,
  results: Record<string, GoError> = {},
  opts: WalkOptions = {},
): { rows: Row[]; result: string | null } {
  const rows: Row[] = []
  const err = walk(
    root,
    (path, info, err) => {
      rows.push(
        info === null
          ? [path, null, null, null, err?.error() ?? null]
          : [
              path,
              info.name,
              fileModeString(info.mode),
              info.isDir() ? null : info.size,
              err?.error() ?? null,
            ],
      )
      return results[path] ?? null
    },
    opts,
  )
  return { rows, result: err?.error() ?? null }
}

describe('filepath.Walk', () => {
  let R = ''
  let cleanup = () => {}
  before(() => {
    ;({ root: R, cleanup } = makeFixture())
  })
  after(() => cleanup())

  /** The whole fixture, as Go 1.19's filepath.Walk reports it (sizes of root-dependent links computed). */
  function full(): Row[] {
    const TOP_LEN = R.indexOf('/', 1)
    const UP_LEN = ('../' + base(R) + '/real').length
    return [
      [R, base(R), 'drwxr-xr-x', null, null],
      [R + '/-dash', '-dash', '-rw-r--r--', 16, null],
      [R + '/.hidden', '.hidden', '-rw-r--r--', 18, null],
      [R + '/B', 'B', 'drwxr-xr-x', null, null],
      [R + '/B/x', 'x', '-rw-r--r--', 1, null],
      [R + '/Z', 'Z', '-rw-r--r--', 12, null],
      [R + '/_under', '_under', '-rw-r--r--', 17, null],
      [R + '/a', 'a', '-rw-r--r--', 12, null],
      [R + '/a.txt', 'a.txt', '-rw-r--r--', 16, null],
      [R + '/abs', 'abs', 'Lrwxrwxrwx', R.length + 5, null],
      [R + '/abs-link', 'abs-link', 'Lrwxrwxrwx', 16, null],
      [R + '/back\\slash', 'back\\slash', '-rw-r--r--', 21, null],
      [R + '/chain1', 'chain1', 'Lrwxrwxrwx', 6, null],
      [R + '/chain2', 'chain2', 'Lrwxrwxrwx', 6, null],
      [R + '/chain3', 'chain3', 'Lrwxrwxrwx', 9, null],
      [R + '/dangling', 'dangling', 'Lrwxrwxrwx', 7, null],
      [R + '/dot-slash', 'dot-slash', 'Lrwxrwxrwx', 2, null],
      [R + '/dotdot', 'dotdot', 'Lrwxrwxrwx', 8, null],
      [R + '/exec.sh', 'exec.sh', '-rwxr-xr-x', 10, null],
      [R + '/file-link', 'file-link', 'Lrwxrwxrwx', 9, null],
      [R + "/it's", "it's", '-rw-r--r--', 15, null],
      [R + '/l1', 'l1', 'Lrwxrwxrwx', 4, null],
      [R + '/link-dir', 'link-dir', 'Lrwxrwxrwx', 1, null],
      [R + '/link-file', 'link-file', 'Lrwxrwxrwx', 1, null],
      [R + '/loop', 'loop', 'Lrwxrwxrwx', 4, null],
      [R + '/loop1', 'loop1', 'Lrwxrwxrwx', 5, null],
      [R + '/loop2', 'loop2', 'Lrwxrwxrwx', 5, null],
      [R + '/name\nwith newline', 'name\nwith newline', '-rw-r--r--', 28, null],
      [R + '/quote"s', 'quote"s', '-rw-r--r--', 18, null],
      [R + '/real', 'real', 'drwxr-xr-x', null, null],
      [R + '/real/file', 'file', '-rw-r--r--', 1, null],
      [R + '/real/sub', 'sub', 'drwxr-xr-x', null, null],
      [R + '/self', 'self', 'Lrwxrwxrwx', 4, null],
      [R + '/skill.json', 'skill.json', '-rw-r--r--', 21, null],
      [R + '/skill.json.bak', 'skill.json.bak', '-rw-r--r--', 25, null],
      [R + '/skill.json~', 'skill.json~', '-rw-r--r--', 22, null],
      [R + '/slash', 'slash', 'Lrwxrwxrwx', 1, null],
      [R + '/space name', 'space name', '-rw-r--r--', 21, null],
      [R + '/sub', 'sub', 'drwxr-xr-x', null, null],
      [R + '/sub/deeper', 'deeper', 'drwxr-xr-x', null, null],
      [R + '/sub/deeper/file', 'file', '-rw-r--r--', 4, null],
      [R + '/sub/empty', 'empty', 'drwxr-xr-x', null, null],
      [R + '/sub/\xff', '\xff', 'drwxr-xr-x', null, null],
      [R + '/sub/\xff/inner', 'inner', '-rw-r--r--', 1, null],
      [R + '/tab\there', 'tab\there', '-rw-r--r--', 19, null],
      [R + '/top', 'top', 'Lrwxrwxrwx', TOP_LEN, null],
      [R + '/trail', 'trail', 'Lrwxrwxrwx', 5, null],
      [R + '/up', 'up', 'Lrwxrwxrwx', UP_LEN, null],
      [R + '/\xc3\xa9', '\xc3\xa9', '-rw-r--r--', 15, null],
      [R + '/\xff\xfe', '\xff\xfe', '-rw-r--r--', 15, null],
    ]
  }

  test('visits everything in byte order, Lstat-ing and never following links', () => {
    assert.deepEqual(record(R), { rows: full(), result: null })
  })

  test('with direntTypes, the same callbacks (types from the listing, sizes and modes on demand)', () => {
    assert.deepEqual(record(R, {}, { direntTypes: true }), { rows: full(), result: null })
    const skip = { [`${R}/sub`]: SKIP_DIR, [`${R}/a`]: SKIP_DIR }
    assert.deepEqual(record(R, skip, { direntTypes: true }), record(R, skip))
  })

  test('a root with a trailing slash is reported as given; children are joined cleanly', () => {
    const want = full()
    want[0] = [R + '/', ...want[0].slice(1)] as Row
    assert.deepEqual(record(R + '/'), { rows: want, result: null })
  })

  test('an unclean root', () => {
    assert.deepEqual(record(R + '/./sub/../sub/'), {
      rows: [
        [R + '/./sub/../sub/', 'sub', 'drwxr-xr-x', null, null],
        [R + '/sub/deeper', 'deeper', 'drwxr-xr-x', null, null],
        [R + '/sub/deeper/file', 'file', '-rw-r--r--', 4, null],
        [R + '/sub/empty', 'empty', 'drwxr-xr-x', null, null],
        [R + '/sub/\xff', '\xff', 'drwxr-xr-x', null, null],
        [R + '/sub/\xff/inner', 'inner', '-rw-r--r--', 1, null],
      ],
      result: null,
    })
  })

  test('roots that are a symlink, a file, missing, or reached through a file', () => {
    assert.deepEqual(record(R + '/link-dir'), {
      rows: [[R + '/link-dir', 'link-dir', 'Lrwxrwxrwx', 1, null]],
      result: null,
    })
    // With a trailing slash the kernel follows the link, so the walk descends.
    assert.deepEqual(record(R + '/link-dir/'), {
      rows: [
        [R + '/link-dir/', 'link-dir', 'drwxr-xr-x', null, null],
        [R + '/link-dir/x', 'x', '-rw-r--r--', 1, null],
      ],
      result: null,
    })
    assert.deepEqual(record(R + '/a'), { rows: [[R + '/a', 'a', '-rw-r--r--', 12, null]], result: null })
    assert.deepEqual(record(R + '/missing'), {
      rows: [[R + '/missing', null, null, null, 'lstat ' + R + '/missing: no such file or directory']],
      result: null,
    })
    assert.deepEqual(record(R + '/a/x'), {
      rows: [[R + '/a/x', null, null, null, 'lstat ' + R + '/a/x: not a directory']],
      result: null,
    })
    assert.deepEqual(record(R + '/abs-link/'), {
      rows: [[R + '/abs-link/', null, null, null, 'lstat ' + R + '/abs-link/: no such file or directory']],
      result: null,
    })
  })

  test('relative roots', () => {
    inDir(R, () => {
      const dot = record('.')
      assert.deepEqual(dot.rows.slice(0, 4), [
        ['.', '.', 'drwxr-xr-x', null, null],
        ['-dash', '-dash', '-rw-r--r--', 16, null],
        ['.hidden', '.hidden', '-rw-r--r--', 18, null],
        ['B', 'B', 'drwxr-xr-x', null, null],
      ])
      assert.deepEqual(
        dot.rows.slice(1),
        full()
          .slice(1)
          .map(([p, ...rest]) => [p.slice(R.length + 1), ...rest]),
      )
      assert.deepEqual(record('sub/./'), {
        rows: [
          ['sub/./', '.', 'drwxr-xr-x', null, null],
          ['sub/deeper', 'deeper', 'drwxr-xr-x', null, null],
          ['sub/deeper/file', 'file', '-rw-r--r--', 4, null],
          ['sub/empty', 'empty', 'drwxr-xr-x', null, null],
          ['sub/\xff', '\xff', 'drwxr-xr-x', null, null],
          ['sub/\xff/inner', 'inner', '-rw-r--r--', 1, null],
        ],
        result: null,
      })
      assert.deepEqual(record('./B'), {
        rows: [
          ['./B', 'B', 'drwxr-xr-x', null, null],
          ['B/x', 'x', '-rw-r--r--', 1, null],
        ],
        result: null,
      })
      assert.deepEqual(record(''), {
        rows: [['', null, null, null, 'lstat : no such file or directory']],
        result: null,
      })
    })
  })

  test('SKIP_DIR on a directory skips its contents', () => {
    assert.deepEqual(record(R + '/sub', { [R + '/sub/deeper']: SKIP_DIR }), {
      rows: [
        [R + '/sub', 'sub', 'drwxr-xr-x', null, null],
        [R + '/sub/deeper', 'deeper', 'drwxr-xr-x', null, null],
        [R + '/sub/empty', 'empty', 'drwxr-xr-x', null, null],
        [R + '/sub/\xff', '\xff', 'drwxr-xr-x', null, null],
        [R + '/sub/\xff/inner', 'inner', '-rw-r--r--', 1, null],
      ],
      result: null,
    })
    assert.deepEqual(record(R + '/sub', { [R + '/sub']: SKIP_DIR }), {
      rows: [[R + '/sub', 'sub', 'drwxr-xr-x', null, null]],
      result: null,
    })
  })

  test('SKIP_DIR on a file skips the rest of its directory', () => {
    const want = full()
    const stop = want.findIndex((r) => r[0] === R + '/a.txt')
    assert.deepEqual(record(R, { [R + '/a.txt']: SKIP_DIR }), { rows: want.slice(0, stop + 1), result: null })
    assert.deepEqual(record(R + '/sub', { [R + '/sub/deeper/file']: SKIP_DIR }), {
      rows: [
        [R + '/sub', 'sub', 'drwxr-xr-x', null, null],
        [R + '/sub/deeper', 'deeper', 'drwxr-xr-x', null, null],
        [R + '/sub/deeper/file', 'file', '-rw-r--r--', 4, null],
        [R + '/sub/empty', 'empty', 'drwxr-xr-x', null, null],
        [R + '/sub/\xff', '\xff', 'drwxr-xr-x', null, null],
        [R + '/sub/\xff/inner', 'inner', '-rw-r--r--', 1, null],
      ],
      result: null,
    })
    // For a root that is a file, SkipDir is swallowed by Walk.
    assert.deepEqual(record(R + '/B/x', { [R + '/B/x']: SKIP_DIR }), {
      rows: [[R + '/B/x', 'x', '-rw-r--r--', 1, null]],
      result: null,
    })
  })

  test('SKIP_DIR or an error for a path whose Lstat failed', () => {
    assert.deepEqual(record(R + '/missing', { [R + '/missing']: SKIP_DIR }).result, null)
    const boom = new ErrorString('boom')
    assert.deepEqual(record(R + '/missing', { [R + '/missing']: boom }).result, 'boom')
  })

  test('any other error stops the walk and is returned as is', () => {
    const boom = new ErrorString('boom')
    let returned: GoError | null = null
    const rows: string[] = []
    returned = walk(R + '/sub', (path) => {
      rows.push(path)
      return path === R + '/sub/deeper' ? boom : null
    })
    assert.equal(returned, boom)
    assert.deepEqual(rows, [R + '/sub', R + '/sub/deeper'])
    assert.deepEqual(record(R + '/sub/', { [R + '/sub/']: boom }), {
      rows: [[R + '/sub/', 'sub', 'drwxr-xr-x', null, null]],
      result: 'boom',
    })
  })

  test('SKIP_ALL stops the walk and Walk returns null (Go 1.20+)', () => {
    const rows: string[] = []
    const err = walk(R + '/sub', (path) => {
      rows.push(path)
      return path === R + '/sub/deeper/file' ? SKIP_ALL : null
    })
    assert.equal(err, null)
    assert.deepEqual(rows, [R + '/sub', R + '/sub/deeper', R + '/sub/deeper/file'])
  })

  test('a directory that cannot be read gets one callback with the error, then is skipped', {
    skip: process.getuid?.() === 0 && 'running as root: chmod cannot make a directory unreadable',
  }, () => {
    fs.mkdirSync(R + '/sub/locked')
    fs.writeFileSync(R + '/sub/locked/f', '')
    fs.chmodSync(R + '/sub/locked', 0o311)
    try {
      const { rows } = record(R + '/sub')
      const i = rows.findIndex((r) => r[0] === R + '/sub/locked')
      assert.deepEqual(rows[i], [
        R + '/sub/locked',
        'locked',
        'd-wx--x--x',
        null,
        'open ' + R + '/sub/locked: permission denied',
      ])
      assert.equal(rows[i + 1][0], R + '/sub/\xff')
    } finally {
      fs.chmodSync(R + '/sub/locked', 0o755)
      fs.rmSync(R + '/sub/locked', { recursive: true })
    }
  })

  test('a directory entry that vanishes between listing and Lstat is reported with a nil info', () => {
    const dir = fs.mkdtempSync(os.tmpdir() + '/go-walk-race-')
    try {
      for (const n of ['a', 'b', 'c']) fs.writeFileSync(dir + '/' + n, '')
      const rows: Row[] = []
      const err = walk(dir, (path, info, err) => {
        rows.push([path, info?.name ?? null, null, null, err?.error() ?? null])
        // The names are read before the directory's callback, so removing b here is a race Walk sees.
        if (path === dir) fs.rmSync(dir + '/b')
        // SKIP_DIR for a failed Lstat just moves on to the next name.
        return info === null ? SKIP_DIR : null
      })
      assert.equal(err, null)
      assert.deepEqual(rows, [
        [dir, base(dir), null, null, null],
        [dir + '/a', 'a', null, null, null],
        [dir + '/b', null, null, null, 'lstat ' + dir + '/b: no such file or directory'],
        [dir + '/c', 'c', null, null, null],
      ])
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('filepath.Walk past PATH_MAX', () => {
  let R = ''
  let deep = ''
  const seg = 'd'.repeat(250)
  before(() => {
    R = fs.realpathSync(fs.mkdtempSync(os.tmpdir() + '/go-walk-deep-'))
    // Nested by relative steps (no absolute path this long can be made in one call); a file and
    // a directory named skill.json at the depth where paths pass 4096 bytes.
    const cwd = process.cwd()
    try {
      process.chdir(R)
      deep = R
      while (deep.length + 251 < 4096) {
        fs.mkdirSync(seg)
        process.chdir(seg)
        deep += `/${seg}`
      }
      fs.mkdirSync(seg)
      fs.writeFileSync('f', 'x')
      process.chdir(seg)
      fs.writeFileSync('z', 'x')
    } finally {
      process.chdir(cwd)
    }
  })
  // rm(1) removes what Node's rmSync cannot reach by absolute paths.
  after(() => execFileSync('rm', ['-rf', R]))

  test('a path of 4096 bytes or more is an lstat error, with or without direntTypes, as in Go', () => {
    const long = `${deep}/${seg}`
    assert.ok(long.length >= 4096 && deep.length + 2 < 4096)
    const want = [
      // Go 1.19's filepath.Walk here (test/differential/filepath.test.ts): Lstat fails, the walk goes on.
      [long, null, null, null, `lstat ${long}: file name too long`],
      [`${deep}/f`, 'f', '-rw-r--r--', 1, null],
    ]
    for (const direntTypes of [false, true]) {
      const { rows, result } = record(R, {}, { direntTypes })
      assert.deepEqual(rows.slice(-2), want, `direntTypes ${direntTypes}`)
      assert.equal(result, null)
      // SKIP_DIR there moves on; another error stops the walk with it.
      assert.equal(record(R, { [long]: SKIP_DIR }, { direntTypes }).result, null)
      assert.equal(record(R, { [long]: new ErrorString('boom') }, { direntTypes }).result, 'boom')
    }
    const split = splitWalk(R, () => null)
    assert.ok(split !== null)
    const rows: string[] = []
    assert.equal(
      split.walkChild(0, (p, _info, err) => {
        if (err) rows.push(`${p === long}: ${err.error() === `lstat ${long}: file name too long`}`)
        return null
      }),
      null,
    )
    assert.deepEqual(rows, ['true: true'])
  })
})

describe('filepath.Walk over a directory that can be listed but not searched', () => {
  test('each child is an lstat error, with or without direntTypes (splitWalk too), as in Go', {
    skip: process.getuid?.() === 0 && 'running as root: root may search any directory',
  }, () => {
    const R = fs.mkdtempSync(`${os.tmpdir()}/go-walk-noexec-`)
    try {
      fs.mkdirSync(`${R}/top/sub`, { recursive: true })
      fs.writeFileSync(`${R}/top/skill.json`, '{}')
      fs.writeFileSync(`${R}/top/sub/f`, '')
      fs.chmodSync(`${R}/top`, 0o644) // r--: the names can be read, nothing below it reached
      const want: Row[] = [
        [`${R}/top/skill.json`, null, null, null, `lstat ${R}/top/skill.json: permission denied`],
        [`${R}/top/sub`, null, null, null, `lstat ${R}/top/sub: permission denied`],
      ]
      for (const direntTypes of [false, true]) {
        const { rows, result } = record(R, {}, { direntTypes })
        assert.deepEqual(rows.slice(-2), want, `direntTypes ${direntTypes}`)
        assert.equal(result, null)
      }
      // The loader's walk of a root's children: the root itself not searchable.
      const rows: Row[] = []
      const split = splitWalk(`${R}/top`, () => null)
      assert.ok(split)
      for (let i = 0; i < split.names.length; i++) {
        split.walkChild(i, (path, info, err) => {
          rows.push([path, info?.name ?? null, null, null, err?.error() ?? null])
          return null
        })
      }
      assert.deepEqual(rows, want)
    } finally {
      fs.chmodSync(`${R}/top`, 0o755)
      fs.rmSync(R, { recursive: true, force: true })
    }
  })
})
