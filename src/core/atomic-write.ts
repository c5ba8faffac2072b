/** The one writer for a file the CLI replaces or creates for the user: see docs/decisions.md, "Files written". */
import {
  closeSync,
  constants,
  fchmodSync,
  fchownSync,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  lstatSync,
  openSync,
  readFileSync,
  renameSync,
  type Stats,
  unlinkSync,
  writeSync,
} from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { UserError } from './errors.js'
import { reasonText } from './go/os/errors.js'
import { TooLargeError } from './read-bounded.js'

/** A file as it was read: the write goes ahead only if it still is this file, unchanged. */
export interface FileIdentity {
  dev: number
  ino: number
  size: number
  mtimeMs: number
}

/** The identity of what `fstat`/`lstat` said. */
export function identityOf(st: Stats): FileIdentity {
  return { dev: st.dev, ino: st.ino, size: st.size, mtimeMs: st.mtimeMs }
}

export interface AtomicWriteOptions {
  /** The mode of a new file (an existing file keeps its own). Default 0o644. */
  mode?: number
  /** The file as the caller read it: if it changed since, nothing is written. */
  expect?: FileIdentity
  /** Refuse (TooLargeError, nothing written) content longer than this. */
  maxBytes?: number
  /** The file operations, for tests that make one fail half way. */
  ops?: Partial<AtomicOps>
}

export type AtomicWriteResult =
  | { written: true; inPlace: boolean }
  /** The target changed since it was read (or vanished): left alone. */
  | { written: false }

/** A failure to write `path`: one line, exit 2; the temp file is already removed. */
export class WriteError extends UserError {
  constructor(
    readonly path: string,
    cause: unknown,
  ) {
    super(`cannot write ${path}: ${reasonText(cause)}`)
  }
}

/** The operations the writer uses (all of node:fs), so that a test can make one fail. */
export interface AtomicOps {
  open: (path: string, flags: number, mode: number) => number
  write: (fd: number, data: Buffer, offset: number, length: number, position: number) => number
  fsync: (fd: number) => void
  fchmod: (fd: number, mode: number) => void
  fchown: (fd: number, uid: number, gid: number) => void
  ftruncate: (fd: number, len: number) => void
  close: (fd: number) => void
  rename: (from: string, to: string) => void
  unlink: (path: string) => void
  lstat: (path: string) => Stats | undefined
  fstat: (fd: number) => Stats
}

const nodeOps: AtomicOps = {
  open: (p, f, m) => openSync(p, f, m),
  write: (fd, d, o, l, p) => writeSync(fd, d, o, l, p),
  fsync: (fd) => fsyncSync(fd),
  fchmod: (fd, m) => fchmodSync(fd, m),
  fchown: (fd, u, g) => fchownSync(fd, u, g),
  ftruncate: (fd, l) => ftruncateSync(fd, l),
  close: (fd) => closeSync(fd),
  rename: (a, b) => renameSync(a, b),
  unlink: (p) => unlinkSync(p),
  lstat: (p) => lstatSync(p, { throwIfNoEntry: false }),
  fstat: (fd) => fstatSync(fd),
}

const TEMP_SUFFIX = '.ongrid-tmp'

/** Random hex for a temp name; node:crypto is loaded at the first write, not when a command starts. */
function randomHex(bytes: number): string {
  return process.getBuiltinModule('node:crypto').randomBytes(bytes).toString('hex')
}

/**
 * A temp name of ours (`.<name>.<hex>.ongrid-tmp`), or one the older writers left after a crash:
 * `sign`'s `signature.json.tmp-<pid>`, `test --update`'s `.<case file>.json.<pid>.tmp`, `pack`'s
 * `<out>.tmp-<pid>.<format>` (an -o inside the pack): never part of a pack.
 */
export function isTempName(name: string): boolean {
  return (
    /^\..*\.[0-9a-f]{12}\.ongrid-tmp$/.test(name) ||
    /^signature\.json\.tmp-\d+$/.test(name) ||
    /^\..+\.json\.\d+\.tmp$/.test(name) ||
    /.\.tmp-\d+\.(tar\.gz|tgz|zip)$/.test(name)
  )
}

/** Temp files staged and not yet committed or discarded (for stop-signal handlers). */
const live = new Set<string>()

/** Removes every staged temp file of this process (a stop signal's handler calls it). */
export function discardAllStaged(): void {
  for (const p of live) {
    try {
      unlinkSync(p)
    } catch {}
  }
  live.clear()
}

/** A temp file holding the new bytes, next to the target; commit or discard it. */
export interface Staged {
  /** The temp file's path (to check what was staged before committing it). */
  readonly path: string
  /** Puts the staged bytes in place (see the module's comment); the temp file is gone after. */
  commit(): AtomicWriteResult
  /** Removes the temp file (a no-op once committed or discarded). */
  discard(): void
}

/**
 * Stages `data` for `target` in an exclusive temp file in its dir. The target must be absent
 * or a regular file (a symlink, dir or device there is refused: resolve links first).
 */
export function stageFile(target: string, data: Buffer | string, opts: AtomicWriteOptions = {}): Staged {
  const ops = { ...nodeOps, ...opts.ops }
  const bytes = typeof data === 'string' ? Buffer.from(data) : data
  if (opts.maxBytes !== undefined && bytes.length > opts.maxBytes) throw new TooLargeError(opts.maxBytes)
  let cur: Stats | undefined
  try {
    cur = ops.lstat(target)
  } catch (e) {
    throw new WriteError(target, e)
  }
  if (cur !== undefined && !cur.isFile())
    throw new UserError(
      `cannot write ${target}: ${cur.isSymbolicLink() ? 'it is a symlink' : 'it exists and is not a regular file'}`,
    )
  const dir = dirname(target)
  // A name of at most 255 bytes whatever the target's.
  const stem = Buffer.from(basename(target)).subarray(0, 200).toString('latin1')
  let tmp = ''
  let fd = -1
  for (let i = 0; fd < 0; i++) {
    tmp = join(dir, `.${stem}.${randomHex(6)}${TEMP_SUFFIX}`)
    try {
      fd = ops.open(
        tmp,
        constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
        0o600,
      )
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST' && i < 8) continue
      throw new WriteError(target, e)
    }
  }
  live.add(tmp)
  let inPlace = false
  try {
    writeAll(ops, fd, bytes)
    ops.fchmod(fd, cur !== undefined ? cur.mode & 0o7777 : (opts.mode ?? 0o644))
    if (cur !== undefined && (cur.uid !== process.getuid?.() || cur.gid !== process.getgid?.())) {
      try {
        ops.fchown(fd, cur.uid, cur.gid)
        // chown clears set-id bits: give them back.
        ops.fchmod(fd, cur.mode & 0o7777)
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code
        if (code !== 'EPERM' && code !== 'EINVAL') throw e
        inPlace = true
      }
    }
    if (cur !== undefined && cur.nlink > 1) inPlace = true
    ops.fsync(fd)
  } catch (e) {
    ops.close(fd)
    drop(ops, tmp)
    throw new WriteError(target, e)
  }
  ops.close(fd)
  const discard = () => drop(ops, tmp)
  return {
    path: tmp,
    discard,
    commit: () => {
      if (!live.has(tmp)) throw new Error(`${tmp}: already committed or discarded`)
      try {
        const now = ops.lstat(target)
        const was = opts.expect ?? (cur ? identityOf(cur) : undefined)
        if (!sameFile(now, was)) {
          discard()
          return { written: false }
        }
        if (inPlace) {
          writeThrough(ops, target, bytes, tmp)
        } else {
          ops.rename(tmp, target)
          live.delete(tmp)
        }
        return { written: true, inPlace }
      } catch (e) {
        discard()
        throw e instanceof UserError ? e : new WriteError(target, e)
      }
    },
  }
}

/** Stages and commits at once. */
export function writeFileAtomic(
  target: string,
  data: Buffer | string,
  opts: AtomicWriteOptions = {},
): AtomicWriteResult {
  return stageFile(target, data, opts).commit()
}

function sameFile(now: Stats | undefined, was: FileIdentity | undefined): boolean {
  if (now === undefined || was === undefined) return now === undefined && was === undefined
  return (
    now.isFile() &&
    now.dev === was.dev &&
    now.ino === was.ino &&
    now.size === was.size &&
    now.mtimeMs === was.mtimeMs
  )
}

/**
 * The new bytes through the target's own inode: links, owner, group and mode stay. The temp
 * file is removed first, so the blocks it held are free for the target to grow into; should
 * the write still fail half way, the old bytes are written back.
 */
function writeThrough(ops: AtomicOps, target: string, bytes: Buffer, tmp: string): void {
  const fd = ops.open(target, constants.O_RDWR | constants.O_NOFOLLOW, 0)
  try {
    const old = readFileSync(fd)
    drop(ops, tmp)
    try {
      writeAll(ops, fd, bytes)
      ops.ftruncate(fd, bytes.length)
      ops.fsync(fd)
    } catch (e) {
      try {
        writeAll(ops, fd, old)
        ops.ftruncate(fd, old.length)
      } catch {}
      throw e
    }
  } finally {
    ops.close(fd)
  }
}

function writeAll(ops: AtomicOps, fd: number, bytes: Buffer): void {
  let off = 0
  while (off < bytes.length) off += ops.write(fd, bytes, off, bytes.length - off, off)
}

function drop(ops: AtomicOps, tmp: string): void {
  if (!live.delete(tmp)) return
  try {
    ops.unlink(tmp)
  } catch {}
}

/** Where a file made by createNewFile is: removeCreated removes it only while it is still there. */
export interface Created {
  path: string
  dev: number
  ino: number
}

/**
 * Creates `path` holding `data`, for a file that must never replace anything (`marketplace
 * keygen`'s keys): `O_CREAT|O_EXCL|O_NOFOLLOW`, so nothing there (a file, a planted symlink,
 * even a dangling one) is written through or over; mode 0600 from the start, `mode` set with
 * fchmod once the bytes are in (exact, whatever the umask); every byte written through the
 * descriptor that open returned, never by name again. Then the name must still be this file
 * (lstat against fstat): if it was renamed or replaced meanwhile, the bytes written are cut
 * from the inode (it may now be another user's to read) and it is a WriteError. Any failure
 * removes the file while the name is still ours. An existing path is a WriteError (EEXIST).
 */
export function createNewFile(
  path: string,
  data: Buffer | string,
  mode: number,
  opts: { ops?: Partial<AtomicOps> } = {},
): Created {
  const ops = { ...nodeOps, ...opts.ops }
  const bytes = typeof data === 'string' ? Buffer.from(data) : data
  let fd: number
  try {
    fd = ops.open(
      path,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
      0o600,
    )
  } catch (e) {
    throw new WriteError(path, e)
  }
  let made: Created | null = null
  try {
    const st = ops.fstat(fd)
    made = { path, dev: st.dev, ino: st.ino }
    writeAll(ops, fd, bytes)
    ops.fchmod(fd, mode)
    ops.fsync(fd)
    const now = ops.lstat(path)
    if (now === undefined || !now.isFile() || now.dev !== st.dev || now.ino !== st.ino) {
      made = null
      throw new Error('it was moved or replaced while being written (another user can write its dir?)')
    }
  } catch (e) {
    try {
      ops.ftruncate(fd, 0)
    } catch {}
    ops.close(fd)
    if (made !== null) removeCreated(made, ops)
    throw e instanceof UserError ? e : new WriteError(path, e)
  }
  ops.close(fd)
  return made
}

/** Removes a file createNewFile made, only while its name is still that file. */
export function removeCreated(c: Created, ops: Partial<AtomicOps> = {}): void {
  const o = { ...nodeOps, ...ops }
  try {
    const now = o.lstat(c.path)
    if (now !== undefined && now.dev === c.dev && now.ino === c.ino) o.unlink(c.path)
  } catch {}
}
