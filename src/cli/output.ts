import { type GoString, toBuffer } from '../core/go/gostring.js'
import { terminalBytes } from '../ui/terminal.js'

/**
 * Buffered byte output for commands that print many lines: byte strings go out
 * exactly as Go would write them, flushed in large synchronous writes — but on a terminal,
 * where control characters are shown escaped (as %q would), not obeyed.
 */
export class ByteWriter {
  private chunks: GoString[] = []
  private size = 0

  constructor(private readonly fd: NodeJS.WriteStream) {}

  write(s: GoString): void {
    this.chunks.push(s)
    this.size += s.length
    if (this.size >= 1 << 16) this.flush()
  }

  flush(): void {
    if (this.size === 0) return
    this.fd.write(toBuffer(terminalBytes(this.chunks.join(''), this.fd.isTTY === true)))
    this.chunks = []
    this.size = 0
  }
}
