/**
 * Lines of a text by offset, shared by every place that turns an offset into a line: finding
 * positions (core/lint/position.ts), SKILL.md's YAML offsets (core/native/skill-md.ts), the fix
 * diff's hunks (core/lint/unified-diff.ts) and the editor's positions (lsp/positions.ts).
 */

/** Where each line begins: 0, then one past each `\n`. */
export function lineStarts(text: string): number[] {
  const starts = [0]
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1)
  return starts
}

/** The 0-based line holding offset `off`: the last of `starts` (ascending, from 0) at or before it. */
export function lineAt(starts: readonly number[], off: number): number {
  let lo = 0
  let hi = starts.length - 1
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1
    if (starts[mid] <= off) lo = mid
    else hi = mid - 1
  }
  return lo
}
