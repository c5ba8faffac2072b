/**
 * The unified diff of a file's fixes, made from the edits themselves (their byte ranges say which
 * lines change): what `lint --fix-dry-run` prints, in git's form (`diff --git`, mode lines), so
 * that `git apply` takes it. Texts are byte strings; the diff is too.
 */
import type { GoString } from '../go/gostring.js'
import { lineAt, lineStarts } from '../line-starts.js'
import { applyEdits } from './fix.js'
import type { TextEdit } from './types.js'

interface Block {
  /** First and last old line (0-based, inclusive) the block replaces. */
  first: number
  last: number
  edits: TextEdit[]
}

/** The lines of a byte range of text (split on `\n`; the last one may lack it). */
function linesOf(text: GoString): string[] {
  if (text === '') return []
  const out = text.split('\n')
  if (text.endsWith('\n')) out.pop()
  return out
}

/**
 * The hunks (`@@` headers and lines) of `edits` applied to `text`, `context` unchanged lines
 * around each change. Edits are those applyEdits applied (sorted, non-overlapping).
 */
export function hunks(text: GoString, edits: readonly TextEdit[], context = 3): string[] {
  const starts = lineStarts(text)
  // A text ending in `\n` has no line after it.
  const lineCount = text === '' ? 0 : text.endsWith('\n') ? starts.length - 1 : starts.length
  const lineOf = (off: number): number => Math.min(lineAt(starts, off), Math.max(0, lineCount - 1))
  const lineStart = (l: number) => (l < starts.length ? starts[l] : text.length)
  const lineEnd = (l: number) => (l + 1 < starts.length ? starts[l + 1] : text.length)

  const blocks: Block[] = []
  for (const e of [...edits].sort((a, b) => a.range[0] - b.range[0])) {
    const first = lineOf(e.range[0])
    const last = e.range[1] > e.range[0] ? lineOf(e.range[1] - 1) : first
    const prev = blocks.at(-1)
    if (prev && first <= prev.last) {
      prev.last = Math.max(prev.last, last)
      prev.edits.push(e)
    } else blocks.push({ first, last, edits: [e] })
  }

  const out: string[] = []
  let delta = 0
  for (let i = 0; i < blocks.length; ) {
    // Blocks close enough share a hunk.
    let j = i
    while (j + 1 < blocks.length && blocks[j + 1].first - blocks[j].last - 1 <= 2 * context) j++
    const from = Math.max(0, blocks[i].first - context)
    const to = Math.min(lineCount - 1, blocks[j].last + context)
    const body: string[] = []
    let oldN = 0
    let newN = 0
    const push = (sign: string, text: GoString, endsFile: boolean) => {
      const ls = linesOf(text)
      for (const [k, l] of ls.entries()) {
        body.push(`${sign}${l}`)
        if (endsFile && k === ls.length - 1 && !text.endsWith('\n')) body.push('\\ No newline at end of file')
      }
      return ls.length
    }
    let at = from
    for (let k = i; k <= j; k++) {
      const b = blocks[k]
      for (; at < b.first; at++) {
        const n = push(' ', text.slice(lineStart(at), lineEnd(at)), at === lineCount - 1)
        oldN += n
        newN += n
      }
      const s = lineStart(b.first)
      const e = lineEnd(b.last)
      const before = text.slice(s, e)
      const after = applyEdits(
        before,
        b.edits.map((x) => ({ range: [x.range[0] - s, x.range[1] - s] as const, text: x.text })),
      ).text
      const atEnd = e === text.length
      oldN += push('-', before, atEnd)
      newN += push('+', after, atEnd)
      at = b.last + 1
    }
    for (; at <= to; at++) {
      const n = push(' ', text.slice(lineStart(at), lineEnd(at)), at === lineCount - 1)
      oldN += n
      newN += n
    }
    const oldStart = oldN === 0 ? from : from + 1
    const newStart = newN === 0 ? from + delta : from + delta + 1
    out.push(`@@ -${oldStart},${oldN} +${newStart},${newN} @@`, ...body)
    delta += newN - oldN
    i = j + 1
  }
  return out
}

/**
 * One file's part of a git-style diff: `rel` the path shown (a/ and b/ prefixes added), the text
 * before and the edits, the mode before and after (for a mode fix).
 */
export function fileDiff(
  rel: string,
  text: GoString | null,
  edits: readonly TextEdit[],
  mode?: { before: number; after: number },
): string {
  const lines = [`diff --git a/${rel} b/${rel}`]
  if (mode && mode.before !== mode.after) {
    lines.push(
      `old mode 100${(mode.before & 0o777).toString(8).padStart(3, '0')}`,
      `new mode 100${(mode.after & 0o777).toString(8).padStart(3, '0')}`,
    )
  }
  if (text !== null && edits.length > 0) lines.push(`--- a/${rel}`, `+++ b/${rel}`, ...hunks(text, edits))
  return `${lines.join('\n')}\n`
}
