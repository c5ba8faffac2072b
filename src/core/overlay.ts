/**
 * Unsaved editor buffers, read instead of the disk (`lsp`; `lint --stdin`'s text): the checks
 * judge the text being typed, at the path it will be saved to. Passed down from the one who holds
 * them (`lsp/server.ts`, `cli/actions/lint.ts`) to what reads files a user edits as text — a
 * skill.json (`manifest-read.ts`), a SKILL.md (`native/skill-md.ts`), a case file or the
 * args_file it names (`testcases/cases.ts`), a config (`lint/config.ts`); the walk still finds
 * files on disk, so a buffer counts once its file exists. None given: reads are the disk's.
 */
import type { GoString } from './go/gostring.js'

/** The buffer for an absolute path (a byte string); a path without one is read from the disk. */
export type Overlay = ReadonlyMap<GoString, Buffer>
