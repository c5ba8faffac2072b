import assert from 'node:assert/strict'
import * as fs from 'node:fs'
import * as os from 'node:os'
import { describe, test } from 'node:test'
import { ErrorString, WrapError } from '../../../../src/core/go/errors.js'
import {
  EACCES,
  EISDIR,
  ELOOP,
  ENAMETOOLONG,
  ENOENT,
  ENOTDIR,
  ENOTEMPTY,
  EPERM,
  ERR_EXIST,
  ERR_NOT_EXIST,
  ERR_PERMISSION,
  ERR_UNSUPPORTED,
  Errno,
  errnoFromNode,
  errnoValue,
  errorsIs,
  fromNodeError,
  isExist,
  isNotExist,
  isPermission,
  PathError,
  SyscallError,
} from '../../../../src/core/go/os/errors.js'

describe('Errno', () => {
  test('texts match Go on linux/amd64, with "errno N" for numbers without one', () => {
    // Output of syscall.Errno(n).Error() under Go 1.19.
    const want: Record<number, string> = {
      0: 'errno 0',
      1: 'operation not permitted',
      2: 'no such file or directory',
      5: 'input/output error',
      12: 'cannot allocate memory',
      13: 'permission denied',
      17: 'file exists',
      20: 'not a directory',
      21: 'is a directory',
      22: 'invalid argument',
      23: 'too many open files in system',
      24: 'too many open files',
      28: 'no space left on device',
      30: 'read-only file system',
      36: 'file name too long',
      39: 'directory not empty',
      40: 'too many levels of symbolic links',
      41: 'errno 41',
      42: 'no message of desired type',
      58: 'errno 58',
      59: 'bad font file format',
      75: 'value too large for defined data type',
      95: 'operation not supported',
      116: 'stale NFS file handle',
      122: 'disk quota exceeded',
      132: 'operation not possible due to RF-kill',
      133: 'errno 133',
      4095: 'errno 4095',
    }
    for (const [n, text] of Object.entries(want))
      assert.equal(new Errno(Number(n)).error(), text, `errno ${n}`)
  })

  test('named constants', () => {
    assert.equal(ENOENT.errno, 2)
    assert.equal(ENOTDIR.error(), 'not a directory')
    assert.equal(EISDIR.error(), 'is a directory')
    assert.equal(ELOOP.error(), 'too many levels of symbolic links')
    assert.equal(ENAMETOOLONG.error(), 'file name too long')
    assert.equal(errnoValue(2), ENOENT)
  })

  test('Is matches the io/fs sentinels like syscall.Errno.Is', () => {
    assert.equal(ENOENT.is(ERR_NOT_EXIST), true)
    assert.equal(ENOTDIR.is(ERR_NOT_EXIST), false)
    assert.equal(EACCES.is(ERR_PERMISSION), true)
    assert.equal(EPERM.is(ERR_PERMISSION), true)
    assert.equal(errnoValue(17).is(ERR_EXIST), true)
    assert.equal(ENOTEMPTY.is(ERR_EXIST), true)
    assert.equal(errnoValue(38).is(ERR_UNSUPPORTED), true)
    assert.equal(errnoValue(95).is(ERR_UNSUPPORTED), true)
  })
})

describe('PathError and SyscallError', () => {
  test('texts', () => {
    assert.equal(
      new PathError('lstat', '/x/run.sh', ENOENT).error(),
      'lstat /x/run.sh: no such file or directory',
    )
    assert.equal(new PathError('open', '', ENOENT).error(), 'open : no such file or directory')
    assert.equal(new PathError('read', 'a\xff', EISDIR).error(), 'read a\xff: is a directory')
    assert.equal(new SyscallError('getwd', ENOENT).error(), 'getwd: no such file or directory')
  })

  test('errors.Is looks through PathError, SyscallError and WrapError', () => {
    const pe = new PathError('stat', 'x', ENOENT)
    assert.equal(isNotExist(pe), true)
    assert.equal(isNotExist(new WrapError('loading: ', pe)), true)
    assert.equal(isNotExist(new SyscallError('getwd', ENOENT)), true)
    assert.equal(isNotExist(new PathError('stat', 'x', ENOTDIR)), false)
    assert.equal(isNotExist(new ErrorString('no such file or directory')), false)
    assert.equal(isNotExist(null), false)
    assert.equal(isNotExist(ERR_NOT_EXIST), true)
    assert.equal(isExist(new PathError('mkdir', 'x', errnoValue(17))), true)
    assert.equal(isPermission(new PathError('open', 'x', EACCES)), true)
    assert.equal(errorsIs(new PathError('open', 'x', errnoValue(20)), ENOTDIR), true)
    assert.equal(errorsIs(new PathError('open', 'x', ENOENT), ENOTDIR), false)
  })
})

describe('fromNodeError', () => {
  test('converts real Node fs errors without leaking their messages', () => {
    const dir = fs.mkdtempSync(os.tmpdir() + '/go-os-errors-')
    try {
      fs.writeFileSync(dir + '/f', '')
      const cases: [() => unknown, string, string][] = [
        [() => fs.lstatSync(dir + '/missing'), 'lstat', 'no such file or directory'],
        [() => fs.lstatSync(dir + '/f/x'), 'lstat', 'not a directory'],
        [() => fs.readlinkSync(dir + '/f'), 'readlink', 'invalid argument'],
        [() => fs.readdirSync(dir + '/f'), 'open', 'not a directory'],
        [() => fs.lstatSync(dir + '/' + 'x'.repeat(300)), 'lstat', 'file name too long'],
      ]
      for (const [f, op, text] of cases) {
        let caught: unknown
        try {
          f()
        } catch (e) {
          caught = e
        }
        assert.ok(caught, 'the fs call should have failed')
        const err = fromNodeError(caught, op, 'P\xff')
        assert.equal(err.error(), op + ' P\xff: ' + text)
        assert.doesNotMatch(err.error(), /\bE[A-Z]{2,}\b/)
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })

  test('falls back to the code when errno is missing, and rethrows non-system errors', () => {
    assert.equal(errnoFromNode({ code: 'EISDIR' }), EISDIR)
    assert.equal(errnoFromNode({ code: 'ENOENT', errno: -2 }), ENOENT)
    const typeErr = new TypeError('bad argument')
    assert.throws(
      () => errnoFromNode(typeErr),
      (e) => e === typeErr,
    )
    assert.throws(() => errnoFromNode({ code: 'UNKNOWN', errno: -4094 }))
  })
})
