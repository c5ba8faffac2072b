/**
 * splitFrontmatter of the manager's chatruntime (skill_parser.go, v0.13.4): a bufio.Scanner
 * with ScanLines (lines split on `\n`, one trailing `\r` dropped) and a 1 MiB token limit.
 */
import { type GoString, trimSpace } from '../go/gostring.js'

/** scanner.Buffer(make([]byte, 0, 64*1024), 1<<20) */
export const MAX_LINE = 1 << 20

export type Split =
  | {
      ok: true
      /** Null when the file has no frontmatter (the whole file is then the body). */
      frontmatter: GoString | null
      body: GoString
      /** 1-based file line of the opening `---` (0 when there is none). */
      openLine: number
      /** The first non-blank line and its 1-based number (what was compared with `---`). */
      firstLine: { text: GoString; line: number } | null
    }
  | {
      ok: false
      /** `frontmatter started with --- but never closed` or `scan: bufio.Scanner: token too long`. */
      err: GoString
      /** 1-based file line the error is about. */
      line: number
    }

/** Lines as bufio.Scanner(ScanLines) yields them, with the 1 MiB limit; lazily, as Go scans. */
class LineScanner {
  private pos = 0
  line = 0
  tooLong = false

  constructor(private readonly raw: GoString) {}

  /** The next line, or null at the end (or on a too-long line: then `tooLong`). */
  next(): GoString | null {
    const raw = this.raw
    if (this.pos >= raw.length || this.tooLong) return null
    const nl = raw.indexOf('\n', this.pos)
    const end = nl === -1 ? raw.length : nl
    // The token (with its CR) must fit in the buffer; a terminated line also needs its `\n`.
    if (end - this.pos >= MAX_LINE) {
      this.tooLong = true
      this.line++
      return null
    }
    let text = raw.slice(this.pos, end)
    if (text.endsWith('\r')) text = text.slice(0, -1)
    this.pos = nl === -1 ? raw.length : nl + 1
    this.line++
    return text
  }
}

function trimRightSpaceTab(s: GoString): GoString {
  let e = s.length
  while (e > 0 && (s.charCodeAt(e - 1) === 0x20 || s.charCodeAt(e - 1) === 0x09)) e--
  return s.slice(0, e)
}

const TOO_LONG = 'scan: bufio.Scanner: token too long'

export function splitFrontmatter(raw: GoString): Split {
  const sc = new LineScanner(raw)
  let first: { text: GoString; line: number } | null = null
  for (let l = sc.next(); l !== null; l = sc.next()) {
    if (trimSpace(l) === '') continue
    first = { text: l, line: sc.line }
    break
  }
  if (sc.tooLong) return { ok: false, err: TOO_LONG, line: sc.line }
  if (first === null || trimRightSpaceTab(first.text) !== '---') {
    return { ok: true, frontmatter: null, body: raw, openLine: 0, firstLine: first }
  }
  const fm: GoString[] = []
  let closed = false
  for (let l = sc.next(); l !== null; l = sc.next()) {
    if (trimRightSpaceTab(l) === '---') {
      closed = true
      break
    }
    fm.push(l)
  }
  if (sc.tooLong) return { ok: false, err: TOO_LONG, line: sc.line }
  if (!closed) return { ok: false, err: 'frontmatter started with --- but never closed', line: first.line }
  const body: GoString[] = []
  for (let l = sc.next(); l !== null; l = sc.next()) body.push(l)
  if (sc.tooLong) return { ok: false, err: TOO_LONG, line: sc.line }
  return {
    ok: true,
    frontmatter: fm.join('\n'),
    body: body.join('\n'),
    openLine: first.line,
    firstLine: first,
  }
}
