/**
 * The parts of Go's os package (Linux) that the loader needs: Stat, Lstat,
 * ReadFile, Readlink, Getwd, filepath's readDirNames, and FileInfo/FileMode.
 * Paths are byte strings; they reach Node as Buffers unless plain ASCII.
 */
import {
  closeSync,
  constants,
  type Dirent,
  lstatSync,
  openSync,
  readdirSync,
  readlinkSync,
  readSync,
  type Stats,
  statSync,
} from 'node:fs'
import { fail, type GoError, ok, type Result } from '../errors.js'
import { fromText, type GoString } from '../gostring.js'
import { EINVAL, ENOENT, errnoFromNode, fromNodeError, PathError, SyscallError } from './errors.js'

// io/fs FileMode bits. Values at or above 1<<31 do not fit JS's int32 bitwise
// operators, so they are spelled as plain numbers and results are made unsigned with `>>> 0`.
export const MODE_DIR = 2 ** 31 // d
export const MODE_APPEND = 2 ** 30 // a
export const MODE_EXCLUSIVE = 2 ** 29 // l
export const MODE_TEMPORARY = 2 ** 28 // T
export const MODE_SYMLINK = 2 ** 27 // L
export const MODE_DEVICE = 2 ** 26 // D
export const MODE_NAMED_PIPE = 2 ** 25 // p
export const MODE_SOCKET = 2 ** 24 // S
export const MODE_SETUID = 2 ** 23 // u
export const MODE_SETGID = 2 ** 22 // g
export const MODE_CHAR_DEVICE = 2 ** 21 // c
export const MODE_STICKY = 2 ** 20 // t
export const MODE_IRREGULAR = 2 ** 19 // ?
export const MODE_TYPE =
  (MODE_DIR |
    MODE_SYMLINK |
    MODE_NAMED_PIPE |
    MODE_SOCKET |
    MODE_DEVICE |
    MODE_CHAR_DEVICE |
    MODE_IRREGULAR) >>>
  0
export const MODE_PERM = 0o777

/** fs.FileInfo, minus ModTime and Sys. `mode` holds Go's FileMode bits (unsigned). */
export interface FileInfo {
  readonly name: GoString
  readonly size: number
  readonly mode: number
  isDir(): boolean
  isSymlink(): boolean
  isRegular(): boolean
}

/** os.fileStat: FileInfo plus the device and inode numbers that SameFile compares. */
export class FileStat implements FileInfo {
  constructor(
    readonly name: GoString,
    readonly size: number,
    readonly mode: number,
    readonly dev: number,
    readonly ino: number,
  ) {}
  isDir(): boolean {
    return (this.mode & MODE_DIR) !== 0
  }
  isSymlink(): boolean {
    return (this.mode & MODE_SYMLINK) !== 0
  }
  isRegular(): boolean {
    return (this.mode & MODE_TYPE) === 0
  }
}

/** FileMode.String, e.g. "drwxr-xr-x", "Lrwxrwxrwx", "-rw-r--r--". */
export function fileModeString(mode: number): string {
  const kinds = 'dalTLDpSugct?'
  let out = ''
  for (let i = 0; i < kinds.length; i++) {
    if ((mode & (2 ** (31 - i))) !== 0) out += kinds[i]
  }
  if (out === '') out = '-'
  const rwx = 'rwxrwxrwx'
  for (let i = 0; i < 9; i++) out += (mode & (1 << (8 - i))) !== 0 ? rwx[i] : '-'
  return out
}

const S_IFMT = 0o170000
const S_IFBLK = 0o060000
const S_IFCHR = 0o020000
const S_IFDIR = 0o040000
const S_IFIFO = 0o010000
const S_IFLNK = 0o120000
const S_IFSOCK = 0o140000
const S_ISUID = 0o4000
const S_ISGID = 0o2000
const S_ISVTX = 0o1000

/** The FileMode for a raw st_mode, as os.fillFileStatFromSys computes it. */
export function fileModeFromSys(m: number): number {
  let mode = m & 0o777
  switch (m & S_IFMT) {
    case S_IFBLK:
      mode |= MODE_DEVICE
      break
    case S_IFCHR:
      mode |= MODE_DEVICE | MODE_CHAR_DEVICE
      break
    case S_IFDIR:
      mode |= MODE_DIR
      break
    case S_IFIFO:
      mode |= MODE_NAMED_PIPE
      break
    case S_IFLNK:
      mode |= MODE_SYMLINK
      break
    case S_IFSOCK:
      mode |= MODE_SOCKET
      break
  }
  if ((m & S_ISGID) !== 0) mode |= MODE_SETGID
  if ((m & S_ISUID) !== 0) mode |= MODE_SETUID
  if ((m & S_ISVTX) !== 0) mode |= MODE_STICKY
  return mode >>> 0
}

/** os.basename: trailing slashes dropped, then everything up to the last slash. */
export function basename(name: GoString): GoString {
  let i = name.length - 1
  while (i > 0 && name.charCodeAt(i) === 0x2f) i--
  name = name.slice(0, i + 1)
  if (i < 1) return name
  const slash = name.lastIndexOf('/', i - 1)
  return slash >= 0 ? name.slice(slash + 1) : name
}

const PLAIN_ASCII = /^[\x01-\x7f]*$/

/**
 * A byte-string path as Node wants it: ASCII as is (Node's UTF-8 encoding leaves it
 * unchanged), anything else as its exact bytes. null when it holds a NUL byte, which
 * Go rejects with EINVAL before making the system call.
 */
export function nodePath(p: GoString): string | Buffer | null {
  if (PLAIN_ASCII.test(p)) return p
  if (p.indexOf('\0') >= 0) return null
  return Buffer.from(p, 'latin1')
}

function fileStatFromNode(name: GoString, st: Stats): FileStat {
  return new FileStat(name, st.size, fileModeFromSys(st.mode), st.dev, st.ino)
}

/**
 * Whether `throwIfNoEntry: false` answers undefined for ENOENT only. Node 22 and later answer
 * undefined for ENOTDIR too (`file/sub`), where Go says `not a directory`: there, stat throws
 * and the error tells which. Asked once, of a path under the node binary (a file).
 */
let noEntryIsExact: boolean | undefined
function quietNoEntry(): boolean {
  if (noEntryIsExact === undefined) {
    try {
      statSync(`${process.execPath}/x`, { throwIfNoEntry: false })
      noEntryIsExact = false
    } catch {
      noEntryIsExact = true
    }
  }
  return noEntryIsExact
}

function statAs(op: 'stat' | 'lstat', p: GoString): Result<FileStat> {
  const np = nodePath(p)
  if (np === null) return fail(new PathError(op, p, EINVAL))
  let st: Stats | undefined
  try {
    // throwIfNoEntry: false spares building a JS exception for the commonest failure.
    const throwIfNoEntry = !quietNoEntry()
    st = op === 'lstat' ? lstatSync(np, { throwIfNoEntry }) : statSync(np, { throwIfNoEntry })
  } catch (e) {
    return fail(fromNodeError(e, op, p))
  }
  if (st === undefined) return fail(new PathError(op, p, ENOENT))
  return ok(fileStatFromNode(basename(p), st))
}

/**
 * os.Stat for a caller that only asks whether it succeeded: the FileStat, or null on any error,
 * which is not built. Where quietNoEntry is false (Node 22 and later) every failed `stat` throws a
 * JS exception, and the commonest lookups (a config name that is not there) paid for one each.
 */
export function statIfAny(p: GoString): FileStat | null {
  const np = nodePath(p)
  if (np === null) return null
  try {
    const st = statSync(np, { throwIfNoEntry: false })
    return st === undefined ? null : fileStatFromNode(basename(p), st)
  } catch {
    return null
  }
}

/** os.Stat */
export function stat(p: GoString): Result<FileStat> {
  return statAs('stat', p)
}

/** os.Lstat */
export function lstat(p: GoString): Result<FileStat> {
  return statAs('lstat', p)
}

/**
 * An Lstat that remembers its answers, for resolving many paths in one pass over a tree
 * assumed not to change meanwhile (the loader resolves 10,000 entries under shared prefixes).
 */
export function memoLstat(): (p: GoString) => Result<FileInfo> {
  const seen = new Map<GoString, Result<FileInfo>>()
  return (p) => {
    let r = seen.get(p)
    if (r === undefined) {
      r = lstat(p)
      seen.set(p, r)
    }
    return r
  }
}

/** os.SameFile: same device and inode. */
export function sameFile(a: FileStat, b: FileStat): boolean {
  return a.dev === b.dev && a.ino === b.ino
}

/**
 * os.ReadFile. Open failures are "open P: …"; a directory opens fine and then
 * fails with "read P: is a directory".
 */
export function readFile(p: GoString): Result<Buffer> {
  const np = nodePath(p)
  if (np === null) return fail(new PathError('open', p, EINVAL))
  // Go opens, sizes the buffer from fstat and reads to the end; the failing system call tells
  // its two texts apart: open errors, and read errors such as a directory's. Reading to the end
  // into one reused buffer gives the same bytes and errors without the fstat, and without a
  // buffer per file for the loader's thousands of small manifests.
  let fd: number
  try {
    fd = openSync(np, constants.O_RDONLY)
  } catch (e) {
    return fail(fromNodeError(e, 'open', p))
  }
  try {
    let n = 0
    for (;;) {
      if (n === scratch.length) {
        const bigger = Buffer.allocUnsafe(scratch.length * 2)
        scratch.copy(bigger)
        scratch = bigger
      }
      const got = readSync(fd, scratch, n, scratch.length - n, null)
      if (got === 0) break
      n += got
    }
    return ok(Buffer.from(scratch.subarray(0, n)))
  } catch (e) {
    return fail(fromNodeError(e, 'read', p))
  } finally {
    closeSync(fd)
  }
}

/** readFile's buffer, grown to the largest file read so far. */
let scratch = Buffer.allocUnsafe(64 * 1024)

/** os.Readlink */
export function readlink(p: GoString): Result<GoString> {
  const np = nodePath(p)
  if (np === null) return fail(new PathError('readlink', p, EINVAL))
  try {
    return ok(readlinkSync(np, { encoding: 'latin1' }))
  } catch (e) {
    return fail(fromNodeError(e, 'readlink', p))
  }
}

/**
 * filepath's readDirNames: os.Open then Readdirnames(-1), names sorted byte-wise.
 * Open errors read "open P: …", listing errors "readdirent P: …".
 */
export function readDirNames(p: GoString): Result<GoString[]> {
  const np = nodePath(p)
  if (np === null) return fail(new PathError('open', p, EINVAL))
  let names: string[]
  try {
    names = readdirSync(np, { encoding: 'latin1' })
  } catch (e) {
    return fail(readDirError(e, np, p))
  }
  // Byte strings compare by char code, which is byte order.
  names.sort()
  return ok(names)
}

/**
 * A FileInfo built from a directory entry's type (d_type), so that a walk need not Lstat
 * every child. Size and permission bits, which d_type does not carry, are read with Lstat
 * on first use.
 */
export class DirentInfo implements FileInfo {
  private full: FileStat | null = null
  constructor(
    readonly name: GoString,
    private readonly path: GoString,
    /** The mode's type bits (MODE_DIR, MODE_SYMLINK, …; 0 for a regular file). */
    readonly typeBits: number,
  ) {}
  private load(): FileStat | null {
    if (this.full === null) {
      const r = lstat(this.path)
      if (r.ok) this.full = r.value
    }
    return this.full
  }
  get size(): number {
    return this.load()?.size ?? 0
  }
  get mode(): number {
    return this.load()?.mode ?? this.typeBits
  }
  isDir(): boolean {
    return this.typeBits === MODE_DIR
  }
  isSymlink(): boolean {
    return this.typeBits === MODE_SYMLINK
  }
  isRegular(): boolean {
    return this.typeBits === 0
  }
}

/**
 * readDirNames plus each entry's type, for walks over trees that are assumed not to change
 * meanwhile: the type comes from the directory listing (Node resolves an unknown d_type with
 * Lstat itself). Same errors as readDirNames; `dir` joins the names into paths.
 */
export function readDirEntries(
  p: GoString,
  dir: (name: GoString) => GoString,
): Result<[GoString, DirentInfo][]> {
  const np = nodePath(p)
  if (np === null) return fail(new PathError('open', p, EINVAL))
  let entries: Dirent[]
  try {
    entries = readdirSync(np, { encoding: 'latin1', withFileTypes: true }) as unknown as Dirent[]
  } catch (e) {
    return fail(readDirError(e, np, p))
  }
  const out: [GoString, DirentInfo][] = entries.map((d) => {
    const name = d.name as string
    const bits = d.isDirectory()
      ? MODE_DIR
      : d.isSymbolicLink()
        ? MODE_SYMLINK
        : d.isFile()
          ? 0
          : d.isFIFO()
            ? MODE_NAMED_PIPE
            : d.isSocket()
              ? MODE_SOCKET
              : d.isCharacterDevice()
                ? MODE_DEVICE | MODE_CHAR_DEVICE
                : MODE_DEVICE
    return [name, new DirentInfo(name, dir(name), bits)]
  })
  out.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
  return ok(out)
}

// Node lists a directory with opendir(3), which fails on anything that is not a
// directory; Go's os.Open succeeds on any file and only getdents then fails.
// Probing with open(2) tells which of Go's two errors applies.
function readDirError(e: unknown, np: string | Buffer, p: GoString): GoError {
  const listErr = errnoFromNode(e)
  let fd: number
  try {
    // O_NONBLOCK so that a FIFO cannot hang the probe.
    fd = openSync(np, constants.O_RDONLY | constants.O_NONBLOCK)
  } catch (openErr) {
    return fromNodeError(openErr, 'open', p)
  }
  closeSync(fd)
  return new PathError('readdirent', p, listErr)
}

/**
 * os.Getwd (Go 1.25): $PWD when it is absolute and names the same directory as
 * ".", otherwise the kernel's getcwd. Go 1.25 stats "." only when $PWD is set
 * (1.19 always did, first). Not reproduced: for a cwd longer than PATH_MAX, Go
 * 1.25 falls back to climbing "..", where this fails with ENAMETOOLONG.
 */
export function getwdResult(): Result<GoString> {
  const pwd = process.env.PWD
  if (pwd?.startsWith('/')) {
    const dot = stat('.')
    if (!dot.ok) return dot
    // Node decodes the environment as UTF-8; a $PWD that is not valid UTF-8 will
    // not match here and the kernel's answer is used instead.
    const dir = fromText(pwd)
    const d = stat(dir)
    if (d.ok && sameFile(dot.value, d.value)) return ok(dir)
  }
  return syscallGetwd()
}

const DELETED = ' (deleted)'

/**
 * syscall.Getwd, wrapped as os.Getwd wraps it. The kernel's answer is read from
 * /proc/self/cwd: exact bytes, and unlike process.cwd() never a stale cached value.
 * getcwd(2) fails with ENOENT where procfs shows a removed directory as "… (deleted)"
 * or an unreachable one as a path not starting with "/".
 */
function syscallGetwd(): Result<GoString> {
  let dir: GoString
  try {
    dir = readlinkSync('/proc/self/cwd', { encoding: 'latin1' })
  } catch {
    // No procfs: ask Node (UTF-8 decoded, so exact only for valid UTF-8 names).
    try {
      return ok(fromText(process.cwd()))
    } catch (e) {
      return fail(new SyscallError('getwd', errnoFromNode(e)))
    }
  }
  if (dir.startsWith('/')) {
    if (!dir.endsWith(DELETED)) return ok(dir)
    // A live directory may really be named "x (deleted)".
    const dot = stat('.')
    const d = stat(dir)
    if (dot.ok && d.ok && sameFile(dot.value, d.value)) return ok(dir)
  }
  return fail(new SyscallError('getwd', ENOENT))
}

/** os.Getwd for callers that cannot fail: throws (with Go's text) if the cwd is gone. */
export function getwd(): GoString {
  const r = getwdResult()
  if (!r.ok) throw new Error(r.err.error())
  return r.value
}
