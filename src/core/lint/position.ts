import type { GoString } from '../go/gostring.js'
import { lineAt, lineStarts } from '../line-starts.js'

/**
 * Byte offsets → line:column. Lines are split on `\n` as Go splits them (a `\r` before it
 * counts as a character of the line). Columns are 1-based and count characters: Unicode code
 * points, i.e. the bytes before the offset on that line that are not UTF-8 continuation bytes.
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
    for (let i = starts[lo]; i < off; i++) {
      const c = raw.charCodeAt(i)
      if (c < 0x80 || c >= 0xc0) column++
    }
    return { line: lo + 1, column }
  }
}
