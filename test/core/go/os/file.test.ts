import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import * as fs from 'node:fs'
import { after, before, describe, test } from 'node:test'
import type { Result } from '../../../../src/core/go/errors.js'
import {
  basename,
  type FileStat,
  fileModeFromSys,
  fileModeString,
  getwd,
  getwdResult,
  lstat,
  MODE_CHAR_DEVICE,
  MODE_DEVICE,
  MODE_DIR,
  MODE_NAMED_PIPE,
  MODE_PERM,
  MODE_SETUID,
  MODE_STICKY,
  MODE_SYMLINK,
  MODE_TYPE,
  readDirNames,
  readFile,
  readlink,
  stat,
  statIfAny,
} from '../../../../src/core/go/os/file.js'
import { inDir, makeFixture } from './fixture.js'

const DIR = ['drwxr-xr-x', 2147484141] as const
const FILE = ['-rw-r--r--', 420] as const
const LINK = ['Lrwxrwxrwx', 134218239] as const

function info(r: Result<FileStat>): [string, string, number] | string {
  return r.ok ? [r.value.name, fileModeString(r.value.mode), r.value.mode] : r.err.error()
}

function text<T>(r: Result<T>, show: (v: T) => unknown): unknown {
  return r.ok ? show(r.value) : r.err.error()
}

describe('FileMode', () => {
  test('constants', () => {
    assert.equal(MODE_DIR, 0x80000000)
    assert.equal(MODE_SYMLINK, 0x08000000)
    assert.equal(MODE_PERM, 0o777)
    assert.equal(MODE_TYPE, 0x8f280000)
  })

  test('fileModeFromSys and String, as Go prints them', () => {
    assert.equal(fileModeFromSys(0o040755), MODE_DIR + 0o755)
    assert.equal(fileModeString(fileModeFromSys(0o040755)), 'drwxr-xr-x')
    assert.equal(fileModeString(fileModeFromSys(0o120777)), 'Lrwxrwxrwx')
    assert.equal(fileModeString(fileModeFromSys(0o100644)), '-rw-r--r--')
    assert.equal(fileModeString(fileModeFromSys(0o104755)), 'urwxr-xr-x')
    assert.equal(fileModeString(fileModeFromSys(0o041777)), 'dtrwxrwxrwx')
    assert.equal(fileModeString(fileModeFromSys(0o020620)), 'Dcrw--w----')
    assert.equal(fileModeString(fileModeFromSys(0o010600)), 'prw-------')
    assert.equal(fileModeFromSys(0o020620), (MODE_DEVICE | MODE_CHAR_DEVICE | 0o620) >>> 0)
    assert.equal(fileModeFromSys(0o010600), MODE_NAMED_PIPE + 0o600)
    assert.equal(fileModeFromSys(0o104755), MODE_SETUID + 0o755)
    assert.equal(fileModeFromSys(0o041777), MODE_DIR + MODE_STICKY + 0o777)
    assert.equal(fileModeString(0), '----------')
  })

  test('os.basename', () => {
    assert.equal(basename(''), '')
    assert.equal(basename('/'), '/')
    assert.equal(basename('//'), '/')
    assert.equal(basename('a'), 'a')
    assert.equal(basename('a/'), 'a')
    assert.equal(basename('/x/y//'), 'y')
    assert.equal(basename('sub/\xff'), '\xff')
  })
})

describe('os functions over the fixture tree', () => {
  let root = ''
  let cleanup = () => {}
  before(() => {
    ;({ root, cleanup } = makeFixture())
  })
  after(() => cleanup())

  // [path, Stat, Lstat, ReadFile, Readlink, readDirNames] from Go 1.19 with the cwd at the root.
  const CASES: [string, unknown, unknown, unknown, unknown, unknown][] = [
    [
      'a',
      ['a', ...FILE],
      ['a', ...FILE],
      'content of a',
      'readlink a: invalid argument',
      'readdirent a: not a directory',
    ],
    ['B', ['B', ...DIR], ['B', ...DIR], 'read B: is a directory', 'readlink B: invalid argument', ['x']],
    ['B/', ['B', ...DIR], ['B', ...DIR], 'read B/: is a directory', 'readlink B/: invalid argument', ['x']],
    [
      'link-file',
      ['link-file', ...FILE],
      ['link-file', ...LINK],
      'content of a',
      'a',
      'readdirent link-file: not a directory',
    ],
    ['link-dir', ['link-dir', ...DIR], ['link-dir', ...LINK], 'read link-dir: is a directory', 'B', ['x']],
    [
      'link-dir/',
      ['link-dir', ...DIR],
      ['link-dir', ...DIR],
      'read link-dir/: is a directory',
      'readlink link-dir/: invalid argument',
      ['x'],
    ],
    [
      'dangling',
      'stat dangling: no such file or directory',
      ['dangling', ...LINK],
      'open dangling: no such file or directory',
      'nowhere',
      'open dangling: no such file or directory',
    ],
    [
      'loop',
      'stat loop: too many levels of symbolic links',
      ['loop', ...LINK],
      'open loop: too many levels of symbolic links',
      'loop',
      'open loop: too many levels of symbolic links',
    ],
    [
      'loop/x',
      'stat loop/x: too many levels of symbolic links',
      'lstat loop/x: too many levels of symbolic links',
      'open loop/x: too many levels of symbolic links',
      'readlink loop/x: too many levels of symbolic links',
      'open loop/x: too many levels of symbolic links',
    ],
    [
      'a/x',
      'stat a/x: not a directory',
      'lstat a/x: not a directory',
      'open a/x: not a directory',
      'readlink a/x: not a directory',
      'open a/x: not a directory',
    ],
    [
      'a/',
      'stat a/: not a directory',
      'lstat a/: not a directory',
      'open a/: not a directory',
      'readlink a/: not a directory',
      'open a/: not a directory',
    ],
    [
      'missing',
      'stat missing: no such file or directory',
      'lstat missing: no such file or directory',
      'open missing: no such file or directory',
      'readlink missing: no such file or directory',
      'open missing: no such file or directory',
    ],
    [
      '',
      'stat : no such file or directory',
      'lstat : no such file or directory',
      'open : no such file or directory',
      'readlink : no such file or directory',
      'open : no such file or directory',
    ],
    [
      '\xff\xfe',
      ['\xff\xfe', ...FILE],
      ['\xff\xfe', ...FILE],
      'content of \xc3\xbf\xc3\xbe',
      'readlink \xff\xfe: invalid argument',
      'readdirent \xff\xfe: not a directory',
    ],
    [
      'sub/\xff',
      ['\xff', ...DIR],
      ['\xff', ...DIR],
      'read sub/\xff: is a directory',
      'readlink sub/\xff: invalid argument',
      ['inner'],
    ],
    [
      'exec.sh',
      ['exec.sh', '-rwxr-xr-x', 493],
      ['exec.sh', '-rwxr-xr-x', 493],
      '#!/bin/sh\n',
      'readlink exec.sh: invalid argument',
      'readdirent exec.sh: not a directory',
    ],
    [
      'abs-link',
      'stat abs-link: no such file or directory',
      ['abs-link', ...LINK],
      'open abs-link: no such file or directory',
      '/nonexistent-abs',
      'open abs-link: no such file or directory',
    ],
    [
      'a\x00b',
      'stat a\x00b: invalid argument',
      'lstat a\x00b: invalid argument',
      'open a\x00b: invalid argument',
      'readlink a\x00b: invalid argument',
      'open a\x00b: invalid argument',
    ],
    [
      'sub',
      ['sub', ...DIR],
      ['sub', ...DIR],
      'read sub: is a directory',
      'readlink sub: invalid argument',
      ['deeper', 'empty', '\xff'],
    ],
    [
      'real/file/',
      'stat real/file/: not a directory',
      'lstat real/file/: not a directory',
      'open real/file/: not a directory',
      'readlink real/file/: not a directory',
      'open real/file/: not a directory',
    ],
    [
      'x'.repeat(300),
      `stat ${'x'.repeat(300)}: file name too long`,
      `lstat ${'x'.repeat(300)}: file name too long`,
      `open ${'x'.repeat(300)}: file name too long`,
      `readlink ${'x'.repeat(300)}: file name too long`,
      `open ${'x'.repeat(300)}: file name too long`,
    ],
  ]

  test('Stat, Lstat, ReadFile, Readlink and readDirNames give Go’s values and errors', () => {
    inDir(root, () => {
      for (const [p, st, lst, rf, rl, rd] of CASES) {
        const label = JSON.stringify(p)
        assert.deepEqual(info(stat(p)), st, 'stat ' + label)
        assert.deepEqual(info(lstat(p)), lst, 'lstat ' + label)
        assert.deepEqual(
          text(readFile(p), (b) => b.toString('latin1')),
          rf,
          'readFile ' + label,
        )
        assert.deepEqual(
          text(readlink(p), (s) => s),
          rl,
          'readlink ' + label,
        )
        assert.deepEqual(
          text(readDirNames(p), (s) => s),
          rd,
          'readDirNames ' + label,
        )
      }
    })
  })

  test('statIfAny: Stat’s FileStat when it succeeds, null whatever its error', () => {
    inDir(root, () => {
      // Every case above plus the failures a config lookup meets: ENOENT, ENOTDIR, ELOOP, a NUL.
      for (const p of [...CASES.map((c) => c[0]), 'nowhere', 'a/x', 'dangling', 'loop', 'a\0b', 'sub/\xff']) {
        const want = stat(p)
        const got = statIfAny(p)
        if (!want.ok) assert.equal(got, null, JSON.stringify(p))
        else assert.deepEqual(info({ ok: true, value: got as FileStat }), info(want), JSON.stringify(p))
      }
    })
  })

  test('absolute paths, "/" and "."', () => {
    assert.deepEqual(info(lstat(root + '/B/x')), ['x', ...FILE])
    assert.equal(
      text(readDirNames(root + '/B/x'), (s) => s),
      'readdirent ' + root + '/B/x: not a directory',
    )
    const slash = stat('/')
    assert.ok(slash.ok)
    assert.equal(slash.value.name, '/')
    assert.equal(slash.value.isDir(), true)
    assert.equal(
      text(readFile('/'), () => ''),
      'read /: is a directory',
    )
    inDir(root, () => assert.deepEqual(info(lstat('.')), ['.', ...DIR]))
  })

  test('FileInfo fields and predicates', () => {
    const f = lstat(root + '/a')
    assert.ok(f.ok)
    assert.equal(f.value.size, 12)
    assert.equal(f.value.isRegular(), true)
    assert.equal(f.value.isDir(), false)
    assert.equal(f.value.isSymlink(), false)
    const l = lstat(root + '/link-dir')
    assert.ok(l.ok)
    assert.equal(l.value.size, 1)
    assert.equal(l.value.isSymlink(), true)
    assert.equal(l.value.isRegular(), false)
    assert.equal(l.value.isDir(), false)
    const d = stat(root + '/link-dir')
    assert.ok(d.ok)
    assert.equal(d.value.isDir(), true)
    assert.equal(d.value.isRegular(), false)
  })

  test('readDirNames sorts byte-wise: uppercase, then lowercase, then non-ASCII', () => {
    const r = readDirNames(root)
    assert.ok(r.ok)
    assert.deepEqual(r.value.slice(0, 6), ['-dash', '.hidden', 'B', 'Z', '_under', 'a'])
    assert.deepEqual(r.value.slice(-2), ['\xc3\xa9', '\xff\xfe'])
    const i = r.value.indexOf('skill.json')
    assert.deepEqual(r.value.slice(i, i + 3), ['skill.json', 'skill.json.bak', 'skill.json~'])
  })

  test('readFile of an empty and of a large file', () => {
    fs.writeFileSync(root + '/empty', '')
    const big = Buffer.alloc(70000, 0x61)
    big[69999] = 0x7a
    fs.writeFileSync(root + '/big', big)
    try {
      const e = readFile(root + '/empty')
      assert.ok(e.ok)
      assert.equal(e.value.length, 0)
      const b = readFile(root + '/big')
      assert.ok(b.ok)
      assert.ok(b.value.equals(big))
    } finally {
      fs.rmSync(root + '/empty')
      fs.rmSync(root + '/big')
    }
  })

  test('permission errors', {
    skip: process.getuid?.() === 0 && 'running as root: chmod cannot deny access',
  }, () => {
    fs.mkdirSync(root + '/locked')
    fs.writeFileSync(root + '/locked/f', '')
    fs.chmodSync(root + '/locked', 0)
    try {
      assert.equal(
        text(readDirNames(root + '/locked'), (s) => s),
        `open ${root}/locked: permission denied`,
      )
      assert.equal(info(lstat(root + '/locked/f')), `lstat ${root}/locked/f: permission denied`)
      assert.equal(
        text(readFile(root + '/locked/f'), () => ''),
        `open ${root}/locked/f: permission denied`,
      )
    } finally {
      fs.chmodSync(root + '/locked', 0o755)
      fs.rmSync(root + '/locked', { recursive: true })
    }
  })

  test('getwd: $PWD when it names the cwd, else the real directory', () => {
    inDir(root + '/real', () => {
      // Values from Go 1.19's os.Getwd in the same situations.
      process.env.PWD = root + '/l1'
      assert.equal(getwd(), root + '/l1')
      process.env.PWD = root + '/l1/'
      assert.equal(getwd(), root + '/l1/')
      process.env.PWD = root + '/l1/../real'
      assert.equal(getwd(), root + '/l1/../real')
      process.env.PWD = root + '/B'
      assert.equal(getwd(), root + '/real')
      process.env.PWD = 'l1'
      assert.equal(getwd(), root + '/real')
      delete process.env.PWD
      assert.deepEqual(getwdResult(), { ok: true, value: root + '/real' })
    })
  })

  test('getwd fails like Go when the cwd has been removed', () => {
    // Go 1.19 prints "getwd: no such file or directory" here with $PWD set or unset.
    const module = new URL('../../../../src/core/go/os/file.js', import.meta.url).href
    fs.writeFileSync(
      root + '/getwd.mjs',
      `import { getwdResult } from '${module}'\nconst r = getwdResult()\nprocess.stdout.write(r.ok ? 'ok ' + r.value : r.err.error())\n`,
    )
    const run = (unsetPwd: string) =>
      execFileSync(
        'sh',
        ['-c', `d=$(mktemp -d) && cd "$d" && rmdir "$d" && ${unsetPwd} exec "$NODE" "$ROOT/getwd.mjs"`],
        {
          env: { ...process.env, ROOT: root, NODE: process.execPath },
        },
      ).toString()
    try {
      assert.equal(run(''), 'getwd: no such file or directory')
      assert.equal(run('unset PWD;'), 'getwd: no such file or directory')
    } finally {
      fs.rmSync(root + '/getwd.mjs')
    }
  })

  test('getwd gives the exact bytes of a cwd that is not valid UTF-8', () => {
    // Node can only chdir to UTF-8 names, so a shell enters "sub/\xff" and runs a child Node there.
    const module = new URL('../../../../src/core/go/os/file.js', import.meta.url).href
    const script = `import { getwd } from '${module}'; process.stdout.write(Buffer.from(getwd(), 'latin1').toString('hex'))`
    const out = execFileSync(
      'sh',
      ['-c', 'cd "$ROOT/sub/$(printf "\\377")" && exec "$NODE" --input-type=module -e "$SCRIPT"'],
      {
        env: { ...process.env, ROOT: root, NODE: process.execPath, SCRIPT: script },
      },
    )
    assert.equal(Buffer.from(out.toString(), 'hex').toString('latin1'), root + '/sub/\xff')
  })
})
