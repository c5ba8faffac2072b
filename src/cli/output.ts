import { fstatSync, writeSync } from 'node:fs'
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

/**
 * Whether bin/run.js has left process.stdout unmade so far: its getter is then the launcher's,
 * marked `unmade` (making the stream costs 2–4 ms at start, a socket for a pipe).
 */
function stdoutUnmade(): boolean {
  const get = Object.getOwnPropertyDescriptor(process, 'stdout')?.get as { unmade?: boolean } | undefined
  return get?.unmade === true
}

/**
 * What fd 1 is, by fstat: a terminal is a character device other than a memory device (Linux's
 * major 1: /dev/null, /dev/zero, /dev/full…, never a terminal), and only then is node:tty asked
 * (loading it loads node:net and node:stream, 2–4 ms at start).
 */
function stdoutKind(): 'file' | 'device' | 'terminal' | 'other' {
  let st: ReturnType<typeof fstatSync>
  try {
    st = fstatSync(1)
  } catch {
    return 'other'
  }
  if (st.isFile()) return 'file'
  if (!st.isCharacterDevice()) return 'other'
  if (deviceMajor(st.rdev) === MEMORY_DEVICES) return 'device'
  return process.getBuiltinModule('node:tty').isatty(1) ? 'terminal' : 'device'
}

/** Linux's major number of the memory devices (Documentation/admin-guide/devices.txt). */
const MEMORY_DEVICES = 1

/** A device number's major, as glibc's gnu_dev_major splits it. */
function deviceMajor(rdev: number): number {
  return ((rdev >>> 8) & 0xfff) | (Math.floor(rdev / 2 ** 32) & ~0xfff)
}

/** Whether fd 1 is a terminal, without making process.stdout (whose isTTY says the same). */
export function stdoutIsTTY(): boolean {
  return stdoutUnmade() ? stdoutKind() === 'terminal' : process.stdout.isTTY === true
}

/**
 * A command's whole output, in one go: straight to fd 1 while process.stdout is unmade and fd 1 is
 * a regular file or a device that is not a terminal (`> report.txt`, `>/dev/null`), where a write
 * never waits on a reader; else through process.stdout. A pipe always goes through it: a reader
 * that stops reading must not leave the command blocked in a write no stop signal can end.
 */
export function writeStdout(text: string): void {
  const kind = stdoutUnmade() ? stdoutKind() : 'other'
  if (kind !== 'file' && kind !== 'device') {
    process.stdout.write(text)
    return
  }
  const bytes = Buffer.from(text, 'utf8')
  let at = 0
  while (at < bytes.length) at += writeSync(1, bytes, at, bytes.length - at)
}
