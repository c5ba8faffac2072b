/**
 * Unsaved editor buffers, read instead of the disk (`lsp`): the checks judge the text being typed,
 * at the path it will be saved to. Only the files a user edits as text are read through it — a
 * skill.json (`manifest-read.ts`), a SKILL.md (`native/skill-md.ts`), a case file or the
 * args_file it names (`testcases/cases.ts`), a config (`lint/config.ts`); the walk still finds
 * files on disk, so a buffer counts once its file exists. The CLI sets none: reads are the disk's.
 */
import type { GoString } from './go/gostring.js'

const buffers = new Map<GoString, Buffer>()

/** The buffer for an absolute path (a byte string), or undefined: read the disk. */
export function overlayOf(path: GoString): Buffer | undefined {
  return buffers.size === 0 ? undefined : buffers.get(path)
}

/** Sets (bytes) or removes (null) the buffer read for `path`. */
export function setOverlay(path: GoString, bytes: Buffer | null): void {
  if (bytes === null) buffers.delete(path)
  else buffers.set(path, bytes)
}
