/**
 * Positions in a file's bytes, as the editor counts them. The checks locate a finding by a byte
 * offset, or by Go's line (split on `\n`) and a column counting code points; the Language Server
 * Protocol counts lines broken by `\n`, `\r\n` or `\r`, and characters in UTF-16 code units. Bytes
 * that are not UTF-8 count as editors decode them: one U+FFFD per maximal bad subsequence
 * (`core/utf8-units.ts`).
 */

import { lineAt } from '../core/line-starts.js'
import { charAt } from '../core/utf8-units.js'

export interface Position {
  line: number
  character: number
}

/** Bytes of the character at `i` and its UTF-16 length. */
function sequenceAt(buf: Buffer, i: number): [bytes: number, units: number] {
  return charAt((k) => buf[k], i)
}

export class ByteText {
  /** Byte offsets where each editor line starts. */
  private readonly starts: number[] = [0]

  constructor(readonly bytes: Buffer) {
    for (let i = 0; i < bytes.length; i++) {
      const b = bytes[i]
      if (b === 0x0a) this.starts.push(i + 1)
      else if (b === 0x0d) {
        if (bytes[i + 1] === 0x0a) i++
        this.starts.push(i + 1)
      }
    }
  }

  /** The editor's position of byte offset `at` (clamped to the file). */
  positionAt(at: number): Position {
    const off = Math.max(0, Math.min(at, this.bytes.length))
    const lo = lineAt(this.starts, off)
    let character = 0
    for (let i = this.starts[lo]; i < off; ) {
      const [n, units] = sequenceAt(this.bytes, i)
      // An offset inside a sequence (never given by the checks) counts as its start.
      if (i + n > off) break
      character += units
      i += n
    }
    return { line: lo, character }
  }

  /** The byte offset of an editor position (clamped to its line). */
  offsetAt(p: Position): number {
    if (p.line >= this.starts.length) return this.bytes.length
    const start = this.starts[Math.max(0, p.line)]
    const end = p.line + 1 < this.starts.length ? this.starts[p.line + 1] : this.bytes.length
    let i = start
    let units = 0
    while (i < end && units < p.character) {
      const b = this.bytes[i]
      if (b === 0x0a || b === 0x0d) break
      const [n, u] = sequenceAt(this.bytes, i)
      i += n
      units += u
    }
    return i
  }

  /** The byte offset of Go's 1-based line (split on `\n`) and column (code points). */
  offsetOfLineColumn(line: number, column: number): number {
    const buf = this.bytes
    let i = 0
    for (let l = 1; l < line; l++) {
      const nl = buf.indexOf(0x0a, i)
      if (nl === -1) return buf.length
      i = nl + 1
    }
    for (let c = 1; c < column && i < buf.length && buf[i] !== 0x0a; c++) i += sequenceAt(buf, i)[0]
    return i
  }

  /**
   * Where the token at byte `at` ends: a JSON string (to its closing quote), a word (a literal,
   * a number, a YAML key), else one character; never past the line.
   */
  tokenEnd(at: number): number {
    const buf = this.bytes
    if (at >= buf.length) return at
    const b = buf[at]
    if (b === 0x0a || b === 0x0d) return at
    if (b === 0x22) {
      for (let i = at + 1; i < buf.length; i++) {
        const c = buf[i]
        if (c === 0x0a || c === 0x0d) return i
        if (c === 0x5c) i++
        else if (c === 0x22) return i + 1
      }
      return buf.length
    }
    const word = (c: number) =>
      (c >= 0x30 && c <= 0x39) ||
      (c >= 0x41 && c <= 0x5a) ||
      (c >= 0x61 && c <= 0x7a) ||
      c === 0x2d ||
      c === 0x2e ||
      c === 0x2b ||
      c === 0x5f ||
      c >= 0x80
    if (!word(b)) return at + sequenceAt(buf, at)[0]
    let i = at
    while (i < buf.length && word(buf[i])) i++
    return i
  }
}
