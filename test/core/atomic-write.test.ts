import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import * as fs from 'node:fs'
import { join } from 'node:path'
import { after, describe, test } from 'node:test'
import {
  discardAllStaged,
  identityOf,
  isTempName,
  stageFile,
  WriteError,
  writeFileAtomic,
} from '../../src/core/atomic-write.js'
import { UserError } from '../../src/core/errors.js'
import { TooLargeError } from '../../src/core/read-bounded.js'
import { tempRoot } from '../helpers/tree.js'

const { root, cleanup } = tempRoot('ongrid-atomic-')
after(cleanup)
let n = 0
const fresh = () => {
  const d = join(root, `d${n++}`)
  fs.mkdirSync(d)
  return d
}
const names = (d: string) => fs.readdirSync(d).sort()
const isRoot = process.getuid?.() === 0

describe('writeFileAtomic', () => {
  test('a new file: the bytes, the mode asked for, nothing else left in the dir', () => {
    const d = fresh()
    const r = writeFileAtomic(join(d, 'f.json'), 'hello', { mode: 0o640 })
    assert.deepEqual(r, { written: true, inPlace: false })
    assert.equal(fs.readFileSync(join(d, 'f.json'), 'utf8'), 'hello')
    assert.equal(fs.statSync(join(d, 'f.json')).mode & 0o777, 0o640)
    assert.deepEqual(names(d), ['f.json'])
  })

  test('an existing file is replaced (a new inode) and keeps its mode, set-id bits included', () => {
    const d = fresh()
    const f = join(d, 'f')
    fs.writeFileSync(f, 'old')
    fs.chmodSync(f, 0o2751)
    const ino = fs.statSync(f).ino
    writeFileAtomic(f, 'new')
    assert.equal(fs.readFileSync(f, 'utf8'), 'new')
    assert.equal(fs.statSync(f).mode & 0o7777, 0o2751)
    assert.notEqual(fs.statSync(f).ino, ino)
    assert.deepEqual(names(d), ['f'])
  })

  test('the temp name is random and exclusive: a symlink planted at any old guessable name is not written through', () => {
    const d = fresh()
    const victim = join(d, 'victim')
    fs.writeFileSync(victim, 'precious')
    for (const planted of [
      `signature.json.tmp-${process.pid}`,
      `.signature.json.${process.pid}.tmp`,
      `signature.json.tmp-${process.pid}.tar.gz`,
    ])
      fs.symlinkSync(victim, join(d, planted))
    writeFileAtomic(join(d, 'signature.json'), 'sig')
    assert.equal(fs.readFileSync(victim, 'utf8'), 'precious')
    assert.ok(!fs.lstatSync(join(d, 'signature.json')).isSymbolicLink())
    assert.equal(fs.readFileSync(join(d, 'signature.json'), 'utf8'), 'sig')
  })

  test('a temp name already taken is never opened: O_EXCL, then another name', () => {
    const d = fresh()
    const seen: string[] = []
    let first = true
    writeFileAtomic(join(d, 'f'), 'x', {
      ops: {
        open: (p, flags, mode) => {
          seen.push(p)
          assert.ok(
            flags & fs.constants.O_EXCL && flags & fs.constants.O_NOFOLLOW && flags & fs.constants.O_CREAT,
          )
          if (first) {
            first = false
            throw Object.assign(new Error('exists'), { code: 'EEXIST' })
          }
          return fs.openSync(p, flags, mode)
        },
      },
    })
    assert.equal(seen.length, 2)
    assert.notEqual(seen[0], seen[1])
    assert.ok(seen.every((p) => isTempName(p.slice(d.length + 1))))
  })

  test('a symlink, a dir or a device at the target is refused, nothing written', () => {
    const d = fresh()
    fs.writeFileSync(join(d, 'real'), 'keep')
    fs.symlinkSync(join(d, 'real'), join(d, 'link'))
    fs.mkdirSync(join(d, 'dir'))
    assert.throws(() => writeFileAtomic(join(d, 'link'), 'x'), {
      message: `cannot write ${join(d, 'link')}: it is a symlink`,
    })
    assert.throws(() => writeFileAtomic(join(d, 'dir'), 'x'), /it exists and is not a regular file$/)
    assert.throws(
      () => writeFileAtomic('/dev/full', 'x'),
      (e) => e instanceof UserError && e.exitCode === 2,
    )
    assert.equal(fs.readFileSync(join(d, 'real'), 'utf8'), 'keep')
    assert.deepEqual(names(d), ['dir', 'link', 'real'])
  })

  test('a file changed since it was read is left alone and the caller told', () => {
    const d = fresh()
    const f = join(d, 'f')
    fs.writeFileSync(f, 'as read')
    const expect = identityOf(fs.statSync(f))
    fs.writeFileSync(f, 'changed!')
    assert.deepEqual(writeFileAtomic(f, 'update', { expect }), { written: false })
    assert.equal(fs.readFileSync(f, 'utf8'), 'changed!')
    assert.deepEqual(names(d), ['f'])
  })

  test('a file that changed between staging and commit is left alone too', () => {
    const d = fresh()
    const f = join(d, 'f')
    fs.writeFileSync(f, 'one')
    const s = stageFile(f, 'two')
    fs.writeFileSync(f, 'three, longer')
    assert.deepEqual(s.commit(), { written: false })
    assert.equal(fs.readFileSync(f, 'utf8'), 'three, longer')
    assert.deepEqual(names(d), ['f'])
  })

  test('content over maxBytes is refused before anything is written', () => {
    const d = fresh()
    fs.writeFileSync(join(d, 'f'), 'small')
    assert.throws(() => writeFileAtomic(join(d, 'f'), Buffer.alloc(11), { maxBytes: 10 }), TooLargeError)
    assert.equal(fs.readFileSync(join(d, 'f'), 'utf8'), 'small')
    assert.deepEqual(names(d), ['f'])
  })

  test('a hardlinked file is written through its inode: every link sees the new bytes', () => {
    const d = fresh()
    const f = join(d, 'f')
    fs.writeFileSync(f, 'a much longer old content')
    fs.linkSync(f, join(d, 'other-name'))
    const ino = fs.statSync(f).ino
    assert.deepEqual(writeFileAtomic(f, 'short'), { written: true, inPlace: true })
    assert.equal(fs.statSync(f).ino, ino)
    assert.equal(fs.statSync(f).nlink, 2)
    assert.equal(fs.readFileSync(join(d, 'other-name'), 'utf8'), 'short')
    assert.deepEqual(names(d), ['f', 'other-name'])
  })

  test('a write through the inode that fails half way puts the old bytes back', () => {
    const d = fresh()
    const f = join(d, 'f')
    fs.writeFileSync(f, 'old bytes')
    fs.linkSync(f, join(d, 'g'))
    let writes = 0
    assert.throws(
      () =>
        writeFileAtomic(f, 'NEW BYTES, MORE OF THEM', {
          ops: {
            write: (fd, b, o, l, p) => {
              // The staged copy, then the first half of the write through the inode, then ENOSPC.
              if (++writes === 3) throw Object.assign(new Error('nospc'), { code: 'ENOSPC', errno: -28 })
              return fs.writeSync(fd, b, o, writes === 2 ? 4 : l, p)
            },
          },
        }),
      { message: `cannot write ${f}: no space left on device` },
    )
    assert.equal(fs.readFileSync(f, 'utf8'), 'old bytes')
    assert.deepEqual(names(d), ['f', 'g'])
  })

  test('owner and group are carried over (root), the file replaced', {
    skip: !isRoot && 'needs root',
  }, () => {
    const d = fresh()
    const f = join(d, 'f')
    fs.writeFileSync(f, 'old')
    fs.chownSync(f, 65534, 65534)
    fs.chmodSync(f, 0o4755)
    writeFileAtomic(f, 'new')
    const st = fs.statSync(f)
    assert.deepEqual([st.uid, st.gid, st.mode & 0o7777], [65534, 65534, 0o4755])
    assert.equal(fs.readFileSync(f, 'utf8'), 'new')
  })

  test('owner the process may not give: written through the inode, owner kept', () => {
    const d = fresh()
    const f = join(d, 'f')
    fs.writeFileSync(f, 'old')
    const before = fs.statSync(f)
    const r = writeFileAtomic(f, 'new', {
      ops: {
        lstat: (p) => {
          const st = fs.lstatSync(p, { throwIfNoEntry: false })
          // Seen as another user's file: fchown to it is refused.
          return st && p === f ? Object.assign(st, { uid: st.uid + 1 }) : st
        },
        fchown: () => {
          throw Object.assign(new Error('eperm'), { code: 'EPERM' })
        },
      },
    })
    assert.deepEqual(r, { written: true, inPlace: true })
    assert.equal(fs.statSync(f).ino, before.ino)
    assert.equal(fs.readFileSync(f, 'utf8'), 'new')
    assert.deepEqual(names(d), ['f'])
  })

  test('ENOSPC, EACCES, EROFS mid-write: one line, exit 2, the temp file removed, the target kept', () => {
    for (const [code, errno, text] of [
      ['ENOSPC', -28, 'no space left on device'],
      ['EACCES', -13, 'permission denied'],
      ['EROFS', -30, 'read-only file system'],
    ] as const) {
      const d = fresh()
      fs.writeFileSync(join(d, 'f'), 'kept')
      for (const at of ['write', 'fsync', 'rename'] as const) {
        const fail = () => {
          throw Object.assign(new Error(code), { code, errno })
        }
        assert.throws(
          () => writeFileAtomic(join(d, 'f'), 'new', { ops: { [at]: fail } }),
          (e) =>
            e instanceof WriteError &&
            e.exitCode === 2 &&
            e.message === `cannot write ${join(d, 'f')}: ${text}`,
        )
        assert.equal(fs.readFileSync(join(d, 'f'), 'utf8'), 'kept')
        assert.deepEqual(names(d), ['f'], `${code} at ${at}`)
      }
    }
  })

  test('a real full filesystem (a 64 KiB tmpfs): one line, temp removed', {
    skip: !isRoot && 'needs root',
  }, (t) => {
    const d = fresh()
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', d], { stdio: 'ignore' })
    } catch {
      t.skip('cannot mount a tmpfs here')
      return
    }
    try {
      fs.writeFileSync(join(d, 'f'), 'kept')
      assert.throws(() => writeFileAtomic(join(d, 'f'), Buffer.alloc(1024 * 1024)), {
        message: `cannot write ${join(d, 'f')}: no space left on device`,
      })
      assert.equal(fs.readFileSync(join(d, 'f'), 'utf8'), 'kept')
      assert.deepEqual(names(d), ['f'])
    } finally {
      execFileSync('umount', [d])
    }
  })

  test('staged files: discard, and discardAllStaged for a stop signal, remove them', () => {
    const d = fresh()
    const a = stageFile(join(d, 'a'), 'a')
    const b = stageFile(join(d, 'b'), 'b')
    assert.equal(names(d).length, 2)
    assert.ok(names(d).every(isTempName))
    a.discard()
    assert.deepEqual(names(d), [b.path.slice(d.length + 1)])
    discardAllStaged()
    assert.deepEqual(names(d), [])
    assert.throws(() => b.commit(), /already committed or discarded/)
  })
})

describe('isTempName', () => {
  test('ours and the older writers’ leftovers, not ordinary names', () => {
    assert.ok(isTempName('.signature.json.0123456789ab.ongrid-tmp'))
    assert.ok(isTempName('signature.json.tmp-4242'))
    assert.ok(!isTempName('signature.json'))
    assert.ok(!isTempName('notes.ongrid-tmp'))
    assert.ok(!isTempName('.x.0123456789ab.ongrid-tmp.md'))
  })
})
