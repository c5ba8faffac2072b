/**
 * The one way manifests are read, bounded where the manager's is not. The manager reads a
 * skill.json with os.ReadFile: to the end, however long, blocking on a FIFO until a writer
 * comes. Here:
 * - a regular file is read whole, as the manager reads it (a valid 100 MB manifest registers),
 *   up to what one string can hold (beyond that it cannot be judged: `too-large`, our words);
 * - a FIFO is reported before it is opened (`fifo`): the loader then blocks on it as the
 *   manager does, having printed every line before it; lint does not open it;
 * - anything else (a device such as /dev/null or /dev/zero) is read up to DEVICE_CAP bytes: what
 *   ends before that is judged as the manager judges it; what does not is `endless` — the
 *   manager would read it forever (until it runs out of memory), and its boot never gets past it.
 */
import { constants } from 'node:buffer'
import { closeSync, constants as fsConstants, openSync, readSync } from 'node:fs'
import { fail, ok, type Result } from '../go/errors.js'
import type { GoString } from '../go/gostring.js'
import { fromNodeError } from '../go/os/errors.js'
import { type FileInfo, MODE_NAMED_PIPE, nodePath, readFile, stat } from '../go/os/file.js'
import type { Overlay } from '../overlay.js'

/** How much of a device is read before it counts as endless. */
export const DEVICE_CAP = 64 * 1024 * 1024

/** The largest manifest that can be judged: it is held as one byte string. */
export const MAX_MANIFEST_BYTES = constants.MAX_STRING_LENGTH

export type ManifestRead =
  /** What os.ReadFile gives: the bytes, or Go's error. */
  | { kind: 'read'; file: Result<Buffer> }
  /** A FIFO: opening it blocks until a writer comes (the manager's boot too). */
  | { kind: 'fifo' }
  /** A device still giving bytes after DEVICE_CAP: the manager would read it forever. */
  | { kind: 'endless' }
  /** A file over MAX_MANIFEST_BYTES: the manager reads it, ongrid-skill cannot hold it. */
  | { kind: 'too-large'; size: number }

/**
 * What reading a manifest takes. `info` is what the walk knows of the path (Lstat or the dir
 * listing): a regular file is `plain` at once; anything else (a symlink, a FIFO, a device) is
 * looked at first (stat). `plain` also covers what os.ReadFile will fail on (a dir, a dangling
 * link): its error is the manager's.
 */
export function probeManifest(
  path: GoString,
  info: FileInfo | null = null,
): 'plain' | 'fifo' | 'device' | 'too-large' {
  if (info?.isRegular()) return 'plain'
  const s = stat(path)
  if (!s.ok || s.value.isDir()) return 'plain'
  if ((s.value.mode & MODE_NAMED_PIPE) !== 0) return 'fifo'
  if (!s.value.isRegular()) return 'device'
  return s.value.size > MAX_MANIFEST_BYTES ? 'too-large' : 'plain'
}

/** Why a manifest read as `endless` or `too-large` is not judged: one line naming it. */
export function notJudgedText(path: string, kind: Exclude<ManifestRead['kind'], 'read'>): string {
  return kind === 'endless'
    ? `${path} does not end (a device such as /dev/zero): the manager would read it forever`
    : `${path} is more than ongrid-skill can judge (the manager reads it)`
}

/** Reads a manifest (see probeManifest): a FIFO is not opened here, a device not read past the cap; an editor's buffer when `overlay` holds one. */
export function readManifest(path: GoString, info: FileInfo | null = null, overlay?: Overlay): ManifestRead {
  const buffer = overlay?.get(path)
  if (buffer !== undefined) return { kind: 'read', file: ok(buffer) }
  switch (probeManifest(path, info)) {
    case 'fifo':
      return { kind: 'fifo' }
    case 'device':
      return readDevice(path)
    default:
      return whole(path)
  }
}

/** os.ReadFile of a file that ends; one too large for a string is reported, not a crash. */
export function whole(path: GoString): ManifestRead {
  try {
    const file = readFile(path)
    if (file.ok && file.value.length > MAX_MANIFEST_BYTES)
      return { kind: 'too-large', size: file.value.length }
    return { kind: 'read', file }
  } catch (e) {
    if (e instanceof RangeError) return { kind: 'too-large', size: Number.NaN }
    throw e
  }
}

/** A device, read as os.ReadFile would, but no further than DEVICE_CAP. */
function readDevice(path: GoString): ManifestRead {
  const np = nodePath(path)
  if (np === null) return whole(path)
  let fd: number
  try {
    fd = openSync(np, fsConstants.O_RDONLY)
  } catch (e) {
    return { kind: 'read', file: fail(fromNodeError(e, 'open', path)) }
  }
  try {
    const buf = Buffer.allocUnsafe(64 * 1024)
    const chunks: Buffer[] = []
    let n = 0
    for (;;) {
      const got = readSync(fd, buf, 0, buf.length, null)
      if (got === 0) break
      n += got
      if (n > DEVICE_CAP) return { kind: 'endless' }
      chunks.push(Buffer.from(buf.subarray(0, got)))
    }
    return { kind: 'read', file: ok(Buffer.concat(chunks, n)) }
  } catch (e) {
    return { kind: 'read', file: fail(fromNodeError(e, 'read', path)) }
  } finally {
    closeSync(fd)
  }
}
