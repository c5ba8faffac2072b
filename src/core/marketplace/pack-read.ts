/**
 * os.ReadFile of the files `marketplace check|verify|sign|pack` read in a pack (its manifest,
 * SKILL.md, agent and command files, signature.json, the files it hashes), bounded where the manager's is not: it would wait
 * for ever on a FIFO and read /dev/zero until it ran out of memory. Here a FIFO or a device at
 * such a name (directly or through a symlink) is refused, and so is a regular file over
 * MAX_PACK_FILE: one line, exit 2, nothing checked. Anything else — a regular file, a dir, a
 * missing file — is read as the manager reads it, with its errors.
 */
import { closeSync, constants, fstatSync, openSync } from 'node:fs'
import { UserError } from '../errors.js'
import type { Result } from '../go/errors.js'
import { type GoString, toText } from '../go/gostring.js'
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
    const st = fstatSync(fd)
    if (!st.isFile() && !st.isDirectory())
      throw new PackFileError(
        `${toText(p)}: not a regular file (a FIFO or device: the manager would wait or read for ever); not checked`,
      )
    if (st.isFile() && st.size > MAX_PACK_FILE)
      throw new PackFileError(`${toText(p)}: larger than ${sizeText(MAX_PACK_FILE)}; not checked`)
  } finally {
    closeSync(fd)
  }
}

/** os.ReadFile of a pack file that checkPackFile accepts. */
export function readPackFile(p: GoString): Result<Buffer> {
  checkPackFile(p)
  return readFile(p)
}
