import type { GoString } from '../go/gostring.js'
import { lineAt, lineStarts } from '../line-starts.js'
import { charAt } from '../utf8-units.js'

/**
 * Byte offsets → line:column. Lines are split on `\n` as Go splits them (a `\r` before it
 * counts as a character of the line). Columns are 1-based and count characters: Unicode code
 * points, and for bytes that are not UTF-8 one U+FFFD per maximal bad subsequence, as editors
 * decode them (`core/utf8-units.ts`; the column of an offset inside a character is its start's).
 */
export class LineIndex {
  private starts: number[] | null = null

  constructor(private readonly raw: GoString) {}

  private lineStarts(): number[] {
    if (this.starts) return this.starts
    this.starts = lineStarts(this.raw)
    return this.starts
  }

  /** The 1-based line and column of byte offset `at` (clamped to the file). */
  position(at: number): { line: number; column: number } {
    const raw = this.raw
    const off = Math.max(0, Math.min(at, raw.length))
    const starts = this.lineStarts()
    const lo = lineAt(starts, off)
    let column = 1
    const byteAt = (i: number) => (i < raw.length ? raw.charCodeAt(i) : undefined)
    for (let i = starts[lo]; i < off; ) {
      const n = charAt(byteAt, i)[0]
      if (i + n > off) break
      column++
      i += n
    }
    return { line: lo + 1, column }
  }
}
