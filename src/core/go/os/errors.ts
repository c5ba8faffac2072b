/**
 * Go's os/syscall error values on Linux: syscall.Errno, *fs.PathError,
 * *os.SyscallError, the io/fs sentinel errors and errors.Is over them.
 * Node's fs errors are converted here so that their messages never leak.
 */
import { constants } from 'node:os'
import { ErrorString, type GoError } from '../errors.js'
import type { GoString } from '../gostring.js'

// syscall's error table (zerrors_linux_amd64.go; the same in Go 1.19 and 1.25), indexed by errno.
const ERRNO_TEXT: readonly string[] = [
  '',
  'operation not permitted',
  'no such file or directory',
  'no such process',
  'interrupted system call',
  'input/output error',
  'no such device or address',
  'argument list too long',
  'exec format error',
  'bad file descriptor',
  'no child processes',
  'resource temporarily unavailable',
  'cannot allocate memory',
  'permission denied',
  'bad address',
  'block device required',
  'device or resource busy',
  'file exists',
  'invalid cross-device link',
  'no such device',
  'not a directory',
  'is a directory',
  'invalid argument',
  'too many open files in system',
  'too many open files',
  'inappropriate ioctl for device',
  'text file busy',
  'file too large',
  'no space left on device',
  'illegal seek',
  'read-only file system',
  'too many links',
  'broken pipe',
  'numerical argument out of domain',
  'numerical result out of range',
  'resource deadlock avoided',
  'file name too long',
  'no locks available',
  'function not implemented',
  'directory not empty',
  'too many levels of symbolic links',
  '',
  'no message of desired type',
  'identifier removed',
  'channel number out of range',
  'level 2 not synchronized',
  'level 3 halted',
  'level 3 reset',
  'link number out of range',
  'protocol driver not attached',
  'no CSI structure available',
  'level 2 halted',
  'invalid exchange',
  'invalid request descriptor',
  'exchange full',
  'no anode',
  'invalid request code',
  'invalid slot',
  '',
  'bad font file format',
  'device not a stream',
  'no data available',
  'timer expired',
  'out of streams resources',
  'machine is not on the network',
  'package not installed',
  'object is remote',
  'link has been severed',
  'advertise error',
  'srmount error',
  'communication error on send',
  'protocol error',
  'multihop attempted',
  'RFS specific error',
  'bad message',
  'value too large for defined data type',
  'name not unique on network',
  'file descriptor in bad state',
  'remote address changed',
  'can not access a needed shared library',
  'accessing a corrupted shared library',
  '.lib section in a.out corrupted',
  'attempting to link in too many shared libraries',
  'cannot exec a shared library directly',
  'invalid or incomplete multibyte or wide character',
  'interrupted system call should be restarted',
  'streams pipe error',
  'too many users',
  'socket operation on non-socket',
  'destination address required',
  'message too long',
  'protocol wrong type for socket',
  'protocol not available',
  'protocol not supported',
  'socket type not supported',
  'operation not supported',
  'protocol family not supported',
  'address family not supported by protocol',
  'address already in use',
  'cannot assign requested address',
  'network is down',
  'network is unreachable',
  'network dropped connection on reset',
  'software caused connection abort',
  'connection reset by peer',
  'no buffer space available',
  'transport endpoint is already connected',
  'transport endpoint is not connected',
  'cannot send after transport endpoint shutdown',
  'too many references: cannot splice',
  'connection timed out',
  'connection refused',
  'host is down',
  'no route to host',
  'operation already in progress',
  'operation now in progress',
  'stale NFS file handle',
  'structure needs cleaning',
  'not a XENIX named type file',
  'no XENIX semaphores available',
  'is a named type file',
  'remote I/O error',
  'disk quota exceeded',
  'no medium found',
  'wrong medium type',
  'operation canceled',
  'required key not available',
  'key has expired',
  'key has been revoked',
  'key was rejected by service',
  'owner died',
  'state not recoverable',
  'operation not possible due to RF-kill',
]

// io/fs's sentinel errors (internal/oserror), and errors.ErrUnsupported (Go 1.21+).
export const ERR_PERMISSION = new ErrorString('permission denied')
export const ERR_EXIST = new ErrorString('file already exists')
export const ERR_NOT_EXIST = new ErrorString('file does not exist')
export const ERR_UNSUPPORTED = new ErrorString('unsupported operation')

/** syscall.Errno. Compare by `errno` (or use `errnoValue`, which returns shared instances). */
export class Errno implements GoError {
  constructor(readonly errno: number) {}

  error(): GoString {
    const s = ERRNO_TEXT[this.errno]
    return s ? s : 'errno ' + this.errno
  }

  /** Errno.Is; the ErrUnsupported case is Go 1.21+ (absent in 1.19). */
  is(target: GoError): boolean {
    const e = this.errno
    if (target === ERR_PERMISSION) return e === 13 || e === 1
    if (target === ERR_EXIST) return e === 17 || e === 39
    if (target === ERR_NOT_EXIST) return e === 2
    if (target === ERR_UNSUPPORTED) return e === 38 || e === 95
    return false
  }
}

const ERRNO_CACHE = new Map<number, Errno>()

/** syscall.Errno(n), one shared instance per number. */
export function errnoValue(n: number): Errno {
  let e = ERRNO_CACHE.get(n)
  if (e === undefined) {
    e = new Errno(n)
    ERRNO_CACHE.set(n, e)
  }
  return e
}

export const EPERM = errnoValue(1)
export const ENOENT = errnoValue(2)
export const EACCES = errnoValue(13)
export const ENOTDIR = errnoValue(20)
export const EISDIR = errnoValue(21)
export const EINVAL = errnoValue(22)
export const ENAMETOOLONG = errnoValue(36)
export const ENOTEMPTY = errnoValue(39)
export const ELOOP = errnoValue(40)

/** *fs.PathError (os.PathError): "op path: err". */
export class PathError implements GoError {
  constructor(
    readonly op: GoString,
    readonly path: GoString,
    readonly err: GoError,
  ) {}
  error(): GoString {
    return this.op + ' ' + this.path + ': ' + this.err.error()
  }
  unwrap(): GoError {
    return this.err
  }
}

/** *os.SyscallError: "syscall: err". */
export class SyscallError implements GoError {
  constructor(
    readonly syscall: GoString,
    readonly err: GoError,
  ) {}
  error(): GoString {
    return this.syscall + ': ' + this.err.error()
  }
  unwrap(): GoError {
    return this.err
  }
}

// libuv's own codes (UV_EOF, UV_UNKNOWN, UV_EAI_*, …) are all at or below -3000.
const UV_OWN_CODES = 3000
const ERRNO_BY_NAME = constants.errno as Readonly<Record<string, number | undefined>>

/**
 * The Errno behind a Node fs error (its negated libuv `errno`; on Linux libuv's
 * codes are the kernel's). Anything that is not a system error (a TypeError for a
 * bad argument, say) is a bug on our side and is rethrown rather than disguised.
 */
export function errnoFromNode(e: unknown): Errno {
  if (e !== null && typeof e === 'object') {
    const { errno, code } = e as { errno?: unknown; code?: unknown }
    if (typeof errno === 'number' && errno < 0 && -errno < UV_OWN_CODES) return errnoValue(-errno)
    if (typeof code === 'string') {
      const n = ERRNO_BY_NAME[code]
      if (n !== undefined) return errnoValue(n)
    }
  }
  throw e
}

/**
 * What went wrong with a file, for one-line messages: a Node fs error's errno text as Go
 * prints it (`no such file or directory`), else the error's own message.
 */
export function reasonText(e: unknown): string {
  const { errno, code } = (e ?? {}) as { errno?: unknown; code?: unknown }
  if (typeof errno === 'number' || typeof code === 'string') {
    try {
      return errnoFromNode(e).error()
    } catch {}
  }
  return e instanceof Error ? e.message : String(e)
}

/** A Node fs error as Go's &PathError{Op: op, Path: path, Err: errno}. */
export function fromNodeError(e: unknown, op: GoString, path: GoString): PathError {
  return new PathError(op, path, errnoFromNode(e))
}

/** errors.Is: err or anything it wraps (via `unwrap()`, single or joined) is or matches target. */
export function errorsIs(err: GoError | null | undefined, target: GoError): boolean {
  while (err) {
    if (err === target) return true
    if (err instanceof Errno && target instanceof Errno && err.errno === target.errno) return true
    const x = err as GoError & { is?: (t: GoError) => boolean; unwrap?: () => GoError | GoError[] | null }
    if (typeof x.is === 'function' && x.is(target)) return true
    if (typeof x.unwrap !== 'function') return false
    const u = x.unwrap()
    if (Array.isArray(u)) return u.some((inner) => errorsIs(inner, target))
    err = u
  }
  return false
}

/** errors.Is(err, fs.ErrNotExist) */
export function isNotExist(err: GoError | null | undefined): boolean {
  return errorsIs(err, ERR_NOT_EXIST)
}

/** errors.Is(err, fs.ErrExist) */
export function isExist(err: GoError | null | undefined): boolean {
  return errorsIs(err, ERR_EXIST)
}

/** errors.Is(err, fs.ErrPermission) */
export function isPermission(err: GoError | null | undefined): boolean {
  return errorsIs(err, ERR_PERMISSION)
}
