/**
 * os.ReadFile of the files `marketplace check|verify|sign|pack` read in a pack (its manifest,
 * SKILL.md, agent and command files, signature.json, the files it hashes), bounded where the manager's is not: it would wait
 * for ever on a FIFO and read /dev/zero until it ran out of memory. Here a FIFO or a device at
 * such a name (directly or through a symlink) is refused, and so is a regular file over
 * MAX_PACK_FILE: one line, exit 2, nothing checked. Anything else — a regular file, a dir, a
 * missing file — is read as the manager reads it, with its errors.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs'
import { UserError } from '../errors.js'
import { fail, ok, type Result } from '../go/errors.js'
import { type GoString, toText } from '../go/gostring.js'
import { fromNodeError } from '../go/os/errors.js'
import { nodePath, readFile } from '../go/os/file.js'
import { sizeText } from '../read-bounded.js'

/** The most one pack file may hold: the upload endpoint's limit for a whole archive. */
export const MAX_PACK_FILE = 64 * 1024 * 1024

/** A pack file that cannot be judged: a FIFO, a device, or over MAX_PACK_FILE. */
export class PackFileError extends UserError {}

/**
 * Refuses (PackFileError) a FIFO, a device or a regular file over MAX_PACK_FILE at `p`, without
 * waiting on a FIFO; anything else is for the reader to open (and fail on, in Go's words).
 */
export function checkPackFile(p: GoString): void {
  const np = nodePath(p)
  let fd = -1
  try {
    // Opening a FIFO without O_NONBLOCK waits for a writer.
    if (np !== null) fd = openSync(np, constants.O_RDONLY | constants.O_NONBLOCK)
  } catch {
    // The reader's own error, in its words.
    return
  }
  if (fd < 0) return
  try {
    refuse(p, fstatSync(fd))
  } finally {
    closeSync(fd)
  }
}

/** Throws the PackFileError for what `st` says is at `p`, if anything. */
function refuse(p: GoString, st: { isFile(): boolean; isDirectory(): boolean; size: number }): void {
  if (!st.isFile() && !st.isDirectory())
    throw new PackFileError(
      `${toText(p)}: not a regular file (a FIFO or device: the manager would wait or read for ever); not checked`,
    )
  if (st.isFile() && st.size > MAX_PACK_FILE) throw tooLarge(p)
}

const tooLarge = (p: GoString) =>
  new PackFileError(`${toText(p)}: larger than ${sizeText(MAX_PACK_FILE)}; not checked`)

/**
 * os.ReadFile of a pack file that checkPackFile accepts, with one open: the fd that was
 * checked is the one read (a file swapped for a FIFO in between is not read). `regular`: the
 * caller's walk saw a regular file there (no fstat; the read is bounded all the same).
 */
export function readPackFile(p: GoString, opts: { regular?: boolean } = {}): Result<Buffer> {
  const np = nodePath(p)
  let fd = -1
  try {
    if (np !== null) fd = openSync(np, constants.O_RDONLY | constants.O_NONBLOCK)
  } catch {}
  // Not opened, or a dir: os.ReadFile's own error, in its words.
  if (fd < 0) return readFile(p)
  if (!opts.regular) {
    try {
      const st = fstatSync(fd)
      if (st.isDirectory()) {
        closeSync(fd)
        return readFile(p)
      }
      refuse(p, st)
    } catch (e) {
      closeSync(fd)
      throw e
    }
  }
  try {
    // Into one buffer reused from file to file, as readFile does; a file that grows while it
    // is read is read up to the bound, and refused past it.
    let n = 0
    for (;;) {
      if (n === scratch.length) {
        if (n > MAX_PACK_FILE) throw tooLarge(p)
        const bigger = Buffer.allocUnsafe(Math.min(scratch.length * 2, MAX_PACK_FILE + 1))
        scratch.copy(bigger)
        scratch = bigger
      }
      const got = readSync(fd, scratch, n, scratch.length - n, null)
      if (got === 0) break
      n += got
    }
    return ok(Buffer.from(scratch.subarray(0, n)))
  } catch (e) {
    if (e instanceof PackFileError) throw e
    return fail(fromNodeError(e, 'read', p))
  } finally {
    closeSync(fd)
  }
}

/** readPackFile's buffer, grown to the largest file read so far (at most MAX_PACK_FILE + 1). */
let scratch = Buffer.allocUnsafe(64 * 1024)
