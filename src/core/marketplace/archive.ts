/**
 * The upload endpoint's archive handling (server/marketplace/upload.go, v0.13.4): the format
 * (archive/detect.ts), the entries written as the endpoint writes them (archive/dest.ts) from a
 * tar, tar.gz or zip (archive/tar.ts, gzip.ts, zip.ts), then descendSingleDir. The upload itself
 * is held whole (at most 64 MiB, archive/framing.ts); what it expands to is streamed, counted and
 * stopped at limits of ours (archive/limits.ts).
 */

import { statSync } from 'node:fs'
import { UserError } from '../errors.js'
import { fromText, type GoString } from '../go/gostring.js'
import { fromNodeError, reasonText } from '../go/os/errors.js'
import { readDirEntries } from '../go/os/file.js'
import { join } from '../go/path/filepath/path.js'
import { quote } from '../go/strconv/quote.js'
import { NotRegularError, readFileBounded, TooLargeError } from '../read-bounded.js'
import { Dest } from './archive/dest.js'
import { archiveFormat } from './archive/detect.js'
import { ExtractError } from './archive/errors.js'
import { MAX_UPLOAD, minUploadRequest, UPLOAD_TOO_LARGE } from './archive/framing.js'
import { Budget, TooBig } from './archive/limits.js'
import { extractTar } from './archive/tar.js'
import { extractZip } from './archive/zip.js'
import { makeScratch, scratchPlaces } from './scratch.js'

export { safeJoin } from './archive/dest.js'
export { archiveFormat } from './archive/detect.js'
export { MAX_UPLOAD, minUploadRequest, UPLOAD_TOO_LARGE, uploadFraming } from './archive/framing.js'
export { EXTRACT_LIMITS } from './archive/limits.js'
export { tarEnding } from './archive/tar.js'

export interface Extracted {
  /** The temp dir everything was extracted into (byte string; remove with cleanup). */
  dest: GoString
  /** The pack root: dest, or its single top-level dir (byte string). */
  root: GoString
  /** Whether descendSingleDir went into a top-level folder. */
  descended: boolean
  cleanup: () => void
}

export type ExtractResult =
  | { ok: true; value: Extracted }
  /**
   * `error` is the handler's error after `invalid argument\n`; `exact` false when it is ours;
   * `ours` when it is no refusal of the manager's but a limit of ours (a bomb: not extracted).
   */
  | { ok: false; error: GoString; exact: boolean; ours?: boolean }

/**
 * Extracts `file` into a fresh `ongrid-pack-*` dir as the upload endpoint does, and descends.
 * `file` is a Buffer when its name is not UTF-8; `filename` is then its name as text.
 */
export async function extractUpload(file: string | Buffer, filename = String(file)): Promise<ExtractResult> {
  const format = archiveFormat(filename.slice(filename.lastIndexOf('/') + 1))
  const base = filename.slice(filename.lastIndexOf('/') + 1)
  if (format === null) {
    return {
      ok: false,
      error: `unsupported archive ${quote(base)} (need .zip / .tar.gz / .tgz / .tar)`,
      exact: true,
    }
  }
  let size: number
  try {
    size = statSync(file).size
  } catch (e) {
    throw new ExtractError(fromNodeError(e, 'stat', fromText(filename)).error())
  }
  if (minUploadRequest(size, base) > MAX_UPLOAD) {
    // ParseMultipartForm under the 64 MiB MaxBytesReader: no client can send it.
    return { ok: false, error: UPLOAD_TOO_LARGE, exact: true }
  }
  // At most 64 MiB: read whole; what it expands to is streamed and counted. A FIFO or a device
  // (its size says nothing) is not read: it would block, or never end.
  let buf: Buffer
  try {
    buf = readFileBounded(file, MAX_UPLOAD, { regularOnly: true })
  } catch (e) {
    if (e instanceof TooLargeError) return { ok: false, error: UPLOAD_TOO_LARGE, exact: true }
    // Ours to say, not the endpoint's (no client sends a FIFO): one line, exit 2.
    if (e instanceof NotRegularError)
      throw new UserError(`${filename}: not a regular file (a FIFO or device; give a pack dir or an archive)`)
    throw new UserError(`${filename}: ${reasonText(e)}`)
  }
  const places = scratchPlaces()
  for (let i = 0; i < places.length; i++) {
    const { dir: destText, remove: cleanup } = makeScratch(places[i])
    const dest = fromText(destText)
    try {
      const budget = new Budget()
      if (format === 'zip') await extractZip(buf, new Dest(dest), budget)
      else await extractTar(buf, new Dest(dest), format === 'tar.gz', budget)
    } catch (e) {
      cleanup()
      // A full memory file system: try the next place.
      if (e instanceof ExtractError && / no space left on device$/.test(e.goText) && i + 1 < places.length)
        continue
      if (e instanceof TooBig) return { ok: false, error: e.goText, exact: false, ours: true }
      if (e instanceof ExtractError) return { ok: false, error: e.goText, exact: e.exact }
      throw e
    }
    const root = descendSingleDir(dest)
    return { ok: true, value: { dest, root, descended: root !== dest, cleanup } }
  }
  throw new Error('unreachable')
}

/** descendSingleDir: the single entry when it is a real directory (byte strings). */
export function descendSingleDir(dir: GoString): GoString {
  const ents = readDirEntries(dir, (n) => join(dir, n))
  if (!ents.ok || ents.value.length !== 1 || !ents.value[0][1].isDir()) return dir
  return join(dir, ents.value[0][0])
}
