import { fromText, type GoString, toText } from '../core/go/gostring.js'
import { escapeUnprintable } from '../core/go/strconv/quote.js'
import { fullRune, runeStart } from '../core/go/unicode/utf8.js'

/**
 * Text from skills, entries and databases shown on a terminal: control characters escaped as
 * %q would, so that an OSC 52 clipboard write, a title change or `ESC[2J` in a skill's name, its
 * stderr or an audit row is shown, not obeyed. Output that is not a terminal stays byte-exact:
 * these change nothing unless `tty`.
 */
export function terminalBytes(s: GoString, tty: boolean): GoString {
  return tty ? escapeUnprintable(s) : s
}

/**
 * A value embedded in one line (a name, a path, a row's field, a finding's message), for a
 * terminal: as terminalBytes, and a newline shown as `\n` too, so that no value starts a line of
 * its own there (a forged `registered` line, a forged `✓`). Only a message of ours may keep its
 * own newlines (terminalBytes).
 */
export function terminalLine(s: GoString, tty: boolean): GoString {
  return tty ? escapeUnprintable(s).replace(/\n/g, '\\n') : s
}

/** terminalLine for JS (UTF-16) text. */
export function terminalLineText(s: string, tty: boolean): string {
  return tty ? toText(terminalLine(fromText(s), true)) : s
}

/**
 * Whether this is a CI job, by the rule ink itself applies (CI or CONTINUOUS_INTEGRATION set and
 * neither `0` nor `false`): ink then draws no frame until it unmounts, so a live view would show
 * nothing while cases run; plain lines are used instead.
 */
export function inCi(env: NodeJS.ProcessEnv = process.env): boolean {
  const set = (v: string | undefined) => v !== undefined && v !== '0' && v !== 'false'
  return set(env.CI) || set(env.CONTINUOUS_INTEGRATION)
}

/**
 * Whether an ink view can be drawn on `out`: a terminal, not a CI job (inCi), and one that
 * knows its width. A pseudo-terminal nobody sized (script(1), some CI runners) says 0 columns,
 * and ink would wrap at no width, a character per line: plain lines there too.
 */
export function liveTerminal(out: NodeJS.WriteStream, env: NodeJS.ProcessEnv = process.env): boolean {
  return out.isTTY === true && (out.columns ?? 0) > 0 && !inCi(env)
}

/** terminalBytes for JS (UTF-16) text. */
export function terminalText(s: string, tty: boolean): string {
  return tty ? toText(escapeUnprintable(fromText(s))) : s
}

/**
 * A byte stream (an entry's stderr) for a terminal, chunk by chunk: a UTF-8 sequence cut
 * between two chunks is held back until its end arrives, so it is not taken for invalid bytes.
 */
export class TerminalStream {
  private carry = ''
  constructor(private readonly tty: boolean) {}

  push(chunk: Buffer): Buffer {
    if (!this.tty) return chunk
    let s = this.carry + chunk.toString('latin1')
    this.carry = ''
    // An incomplete sequence at the end: at most 3 bytes from the last rune start.
    for (let back = 1; back <= Math.min(3, s.length); back++) {
      const at = s.length - back
      if (runeStart(s.charCodeAt(at))) {
        if (s.charCodeAt(at) >= 0x80 && !fullRune(s, at)) {
          this.carry = s.slice(at)
          s = s.slice(0, at)
        }
        break
      }
    }
    return Buffer.from(escapeUnprintable(s), 'latin1')
  }

  /** What is held back, once the stream has ended. */
  end(): Buffer {
    const rest = this.carry
    this.carry = ''
    return Buffer.from(this.tty ? escapeUnprintable(rest) : rest, 'latin1')
  }
}
