/**
 * Applying a file's fixes on disk (`lint --fix`), or only computing them (`--fix-dry-run`):
 * the file is read with a bound and only when regular, left alone when it changed since the run
 * began (or since this run last wrote it), written through core/atomic-write.ts (owner, mode and
 * hard links kept; a change between the read and the rename leaves it alone too).
 */
import { chmodSync, lstatSync, type Stats } from 'node:fs'
import { type FileIdentity, identityOf, stageFile } from '../atomic-write.js'
import { fromBuffer, type GoString, toBuffer } from '../go/gostring.js'
import { reasonText } from '../go/os/errors.js'
import { readFileBounded } from '../read-bounded.js'
import { applyEdits, type FilePlan } from './fix.js'
import type { Finding, TextEdit } from './types.js'
import { writeRefusal } from './write-refusal.js'

/** Files larger than this are not fixed (a skill.json, a SKILL.md or a case file is a few KiB). */
export const MAX_FIX_BYTES = 16 * 1024 * 1024

export interface FileFixed {
  kind: 'fixed'
  file: string
  /** The text before and the edits applied (null: a mode fix only). */
  before: GoString | null
  edits: TextEdit[]
  after: GoString | null
  mode?: { before: number; after: number }
  /** The findings whose fix was applied whole. */
  fixed: Finding[]
}

export interface FileLeft {
  kind: 'left'
  file: string
  /** Why (our words). */
  reason: string
}

/** When a file counts as unchanged: not modified since the run began, or as this run left it. */
export class ChangeGuard {
  private readonly mine = new Map<string, FileIdentity & { ctimeMs: number }>()

  constructor(private readonly startedMs: number) {}

  unchanged(file: string, st: Stats): boolean {
    const m = this.mine.get(file)
    if (m)
      return (
        m.dev === st.dev &&
        m.ino === st.ino &&
        m.size === st.size &&
        m.mtimeMs === st.mtimeMs &&
        m.ctimeMs === st.ctimeMs
      )
    return st.mtimeMs <= this.startedMs && st.ctimeMs <= this.startedMs
  }

  /** Records the file as this run left it. */
  wrote(file: string): void {
    try {
      const st = lstatSync(file)
      this.mine.set(file, { ...identityOf(st), ctimeMs: st.ctimeMs })
    } catch {}
  }
}

const editKey = (e: TextEdit) => `${e.range[0]}:${e.range[1]}:${e.text}`

/** Applies (or with dryRun only computes) one file's fixes. */
export function fixFile(plan: FilePlan, guard: ChangeGuard, dryRun: boolean): FileFixed | FileLeft {
  const left = (reason: string): FileLeft => ({ kind: 'left', file: plan.file, reason })
  let st: Stats
  try {
    st = lstatSync(plan.file)
  } catch (e) {
    // Found by its bytes, not by Node's text of them: fixes are written by text paths.
    if ((e as NodeJS.ErrnoException).code === 'ENOENT' && plan.file.includes('\ufffd'))
      return left('not fixed: its path is not UTF-8, and fixes are written by text paths')
    return left(`not fixed: ${reasonText(e)}`)
  }
  // As the check said (a fix is not offered for such a file), in case it changed since.
  const refused = writeRefusal(st)
  if (refused !== null) return left(`not fixed: it ${refused}`)
  if (!guard.unchanged(plan.file, st)) return left('changed during the run: left alone')
  let before: GoString | null = null
  let after: GoString | null = null
  let applied: TextEdit[] = []
  if (plan.edits.length > 0) {
    try {
      before = fromBuffer(readFileBounded(plan.file, MAX_FIX_BYTES, { regularOnly: true }))
    } catch (e) {
      return left(`not fixed: ${e instanceof Error && !('code' in e) ? e.message : reasonText(e)}`)
    }
    const r = applyEdits(before, plan.edits)
    after = r.text
    applied = r.applied
  }
  const done = new Set(applied.map(editKey))
  const fixed = plan.findings.filter((x) => {
    const f = x.fix
    if (!f) return false
    if (f.mode !== undefined && f.edits.length === 0) return true
    return f.edits.length > 0 && f.edits.every((e) => done.has(editKey(e)))
  })
  const perm = st.mode & 0o7777
  const mode = plan.mode !== undefined && plan.mode !== perm ? { before: perm, after: plan.mode } : undefined
  if (!dryRun) {
    if (after !== null && after !== before) {
      try {
        const r = stageFile(plan.file, toBuffer(after), { expect: identityOf(st) }).commit()
        if (!r.written) return left('changed during the run: left alone')
      } catch (e) {
        // A WriteError says `cannot write PATH: reason`: the reason is what is left to say.
        return left(
          `not fixed: ${e instanceof Error ? e.message.replace(/^cannot write .*?: (?=[^:]*$)/, '') : String(e)}`,
        )
      }
    }
    if (mode) {
      try {
        chmodSync(plan.file, mode.after)
      } catch (e) {
        return left(`mode not set: ${reasonText(e)}`)
      }
    }
    guard.wrote(plan.file)
  }
  return { kind: 'fixed', file: plan.file, before, edits: applied, after, ...(mode ? { mode } : {}), fixed }
}
