import { type GoString, toBuffer } from '../core/go/gostring.js'
import { terminalBytes, terminalLine } from '../ui/terminal.js'

/**
 * Buffered byte output for commands that print many lines: byte strings go out
 * exactly as Go would write them, flushed in large synchronous writes — but on a terminal,
 * where control characters are shown escaped (as %q would), not obeyed.
 */
export class ByteWriter {
  private chunks: GoString[] = []
  private size = 0
  private readonly tty: boolean

  constructor(private readonly fd: NodeJS.WriteStream) {
    this.tty = fd.isTTY === true
  }

  /** Whole records (their own newlines kept). */
  write(s: GoString): void {
    this.push(terminalBytes(s, this.tty))
  }

  /** One line and its newline: on a terminal, a newline inside it is shown as `\n`. */
  line(s: GoString): void {
    this.push(`${terminalLine(s, this.tty)}\n`)
  }

  private push(s: GoString): void {
    this.chunks.push(s)
    this.size += s.length
    if (this.size >= 1 << 16) this.flush()
  }

  flush(): void {
    if (this.size === 0) return
    this.fd.write(toBuffer(this.chunks.join('')))
    this.chunks = []
    this.size = 0
  }
}
