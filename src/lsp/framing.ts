/**
 * The client's input cut into whole messages (`Content-Length` framing), as the server's reader
 * is given it: a message is passed on only once all its bytes have come, so a message cut short
 * by the end of the input is never half-read, and what the server queues behind the last whole
 * message is read next.
 *
 * Bounded and in linear time: the bytes are held in one buffer that grows by doubling and is
 * searched from where the last search stopped; a message of more than MAX_MESSAGE_BYTES (mcp's
 * bound) is never held, only skipped as it streams by, its first bytes kept to say what it was
 * (`Oversized`). A frame the reader could not take (no usable `Content-Length`, two of them, a
 * body that is not JSON) is reported (`Bad`) and never passed on; the framer then looks for the
 * next header (`Content-Length:`) and goes on from there.
 */
import { MAX_MESSAGE_BYTES } from '../mcp/frames.js'

export { MAX_MESSAGE_BYTES }

const END = Buffer.from('\r\n\r\n')
const CONTENT_LENGTH = Buffer.from('content-length:')
/** A header block longer than this without its blank line is not one. */
const MAX_HEADER = 64 * 1024
/** What is kept of a skipped message to tell what it was (its method, id and document URI). */
const HEAD_KEPT = 64 * 1024

/** A message over the bound, skipped. */
export interface Oversized {
  kind: 'oversized'
  bytes: number
  /** Its method, id (a request's) and `params.textDocument.uri`, when its first bytes show them. */
  method: string | null
  id: string | number | null
  uri: string | null
}

/** A frame that could not be read: why (our words). */
export interface Bad {
  kind: 'bad'
  reason: string
}

export type Framed = Buffer | Oversized | Bad

/** Case-insensitive search of `content-length:` in `buf` from `from` (the name's ASCII letters). */
function findHeaderName(buf: Buffer, from: number, to: number): number {
  const n = CONTENT_LENGTH.length
  for (let i = buf.indexOf(0x3a, from + n - 1); i >= 0 && i < to; i = buf.indexOf(0x3a, i + 1)) {
    const start = i - n + 1
    if (start < from) continue
    let ok = true
    for (let k = 0; k < n - 1 && ok; k++) ok = (buf[start + k] | 0x20) === CONTENT_LENGTH[k]
    if (ok) return start
  }
  return -1
}

/** The length a header block gives, or why it gives none. */
function lengthOf(header: string): number | string {
  const lines = header.split('\r\n')
  let length: number | null = null
  for (const line of lines) {
    const m = /^([!#-'*+.0-9A-Z^-z|~-]+):[ \t]*(.*?)[ \t]*$/.exec(line)
    if (m === null) return `not a header line: ${JSON.stringify(line.slice(0, 80))}`
    if (m[1].toLowerCase() !== 'content-length') continue
    if (length !== null) return 'two Content-Length headers'
    if (!/^\d{1,15}$/.test(m[2])) return `Content-Length ${JSON.stringify(m[2].slice(0, 40))} is not a length`
    length = Number(m[2])
  }
  return length ?? 'no Content-Length header'
}

/** What the first bytes of a skipped message show of it (a JSON text cut anywhere). */
function describe(head: Buffer): Pick<Oversized, 'method' | 'id' | 'uri'> {
  const text = head.toString('utf8')
  const str = (key: string) => {
    const m = new RegExp(`"${key}"\\s*:\\s*"((?:[^"\\\\]|\\\\.){0,4096})"`).exec(text)
    if (m === null) return null
    try {
      return JSON.parse(`"${m[1]}"`) as string
    } catch {
      return null
    }
  }
  const num = /"id"\s*:\s*(-?\d{1,15})\s*[,}]/.exec(text)
  return { method: str('method'), id: num !== null ? Number(num[1]) : str('id'), uri: str('uri') }
}

export class MessageFramer {
  private buf: Buffer = Buffer.alloc(0)
  /** The bytes held are buf[start, end). */
  private start = 0
  private end = 0
  /** Where the search for the header's end resumes (what is before it was searched). */
  private searched = 0
  /** Set while a message past the bound streams by: bytes still to skip, and what is kept of it. */
  private skipping: { left: number; bytes: number; head: Buffer[]; kept: number } | null = null
  /** After a bad frame: looking for the next header. */
  private resyncing = false

  /** The whole messages (and the frames that were not) completed by `chunk`, in order. */
  push(chunk: Buffer): Framed[] {
    const out: Framed[] = []
    let at = 0
    if (this.skipping !== null) at = this.skip(chunk, out)
    if (at < chunk.length) this.append(chunk.subarray(at))
    this.cut(out)
    return out
  }

  /** Bytes held for the message under way (never much more than the bound). */
  get holding(): number {
    return this.end - this.start
  }

  private append(bytes: Buffer): void {
    const held = this.end - this.start
    if (this.end + bytes.length > this.buf.length) {
      // Twice what is needed: each byte is copied a bounded number of times on average.
      const size = Math.max(2 * (held + bytes.length), 4096)
      const next = Buffer.allocUnsafe(size)
      this.buf.copy(next, 0, this.start, this.end)
      this.searched -= this.start
      this.buf = next
      this.start = 0
      this.end = held
    }
    bytes.copy(this.buf, this.end)
    this.end += bytes.length
  }

  /** Skips what is left of an oversized message in `chunk`; the index where the rest begins. */
  private skip(chunk: Buffer, out: Framed[]): number {
    const s = this.skipping
    if (s === null) return 0
    const n = Math.min(s.left, chunk.length)
    if (s.kept < HEAD_KEPT) {
      const part = chunk.subarray(0, Math.min(n, HEAD_KEPT - s.kept))
      s.head.push(Buffer.from(part))
      s.kept += part.length
    }
    s.left -= n
    if (s.left === 0) {
      this.skipping = null
      out.push({ kind: 'oversized', bytes: s.bytes, ...describe(Buffer.concat(s.head)) })
    }
    return n
  }

  private take(from: number, to: number): Buffer {
    return Buffer.from(this.buf.subarray(from, to))
  }

  private consume(to: number): void {
    this.start = to
    this.searched = Math.max(this.searched, to)
    if (this.start === this.end) {
      this.start = 0
      this.end = 0
      this.searched = 0
    }
  }

  private cut(out: Framed[]): void {
    for (;;) {
      if (this.resyncing) {
        const next = findHeaderName(this.buf, this.start, this.end)
        if (next < 0) {
          // Keep the tail where a header name may begin.
          this.consume(Math.max(this.start, this.end - CONTENT_LENGTH.length + 1))
          return
        }
        this.resyncing = false
        this.consume(next)
        this.searched = next
      }
      const from = Math.max(this.start, this.searched - END.length + 1)
      const e = this.buf.indexOf(END, from)
      if (e < 0 || e >= this.end) {
        this.searched = this.end
        if (this.end - this.start > MAX_HEADER) this.bad(out, 'a header of more than 64 KiB', this.start + 1)
        else return
        continue
      }
      const header = this.buf.toString('latin1', this.start, e)
      const length = lengthOf(header)
      if (typeof length === 'string') {
        // Garbage before a header (the rest of a body longer than its Content-Length said): the
        // header may start inside this block; else past the blank line.
        const firstLine = header.split('\r\n', 1)[0]
        const garbage = !/^[!#-'*+.0-9A-Z^-z|~-]+:/.test(firstLine)
        this.bad(out, length, garbage ? this.start + 1 : e + END.length)
        continue
      }
      const bodyAt = e + END.length
      if (length > MAX_MESSAGE_BYTES) {
        const here = Math.min(length, this.end - bodyAt)
        const head = this.take(bodyAt, bodyAt + Math.min(here, HEAD_KEPT))
        this.consume(bodyAt + here)
        this.skipping = { left: length - here, bytes: length, head: [head], kept: head.length }
        if (this.skipping.left === 0) {
          this.skipping = null
          out.push({ kind: 'oversized', bytes: length, ...describe(head) })
          continue
        }
        // The rest comes in later chunks (push skips it before holding anything).
        return
      }
      if (this.end - bodyAt < length) {
        this.searched = e
        return
      }
      const body = this.buf.subarray(bodyAt, bodyAt + length)
      let parsed: unknown
      try {
        parsed = JSON.parse(body.toString('utf8'))
      } catch {
        parsed = undefined
      }
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
        // Not a message: the frame may have been shorter than its body (what follows is looked at
        // for the next header).
        this.bad(
          out,
          parsed === undefined ? 'the body is not JSON' : 'the body is not a JSON-RPC message',
          bodyAt,
        )
        continue
      }
      out.push(this.take(this.start, bodyAt + length))
      this.consume(bodyAt + length)
    }
  }

  /** Reports a bad frame and looks for the next header from `from`. */
  private bad(out: Framed[], reason: string, from: number): void {
    out.push({ kind: 'bad', reason })
    this.consume(Math.min(from, this.end))
    this.resyncing = true
  }
}

/** The body of a framed message, when it is a notification named `method` (cheap for others). */
export function isNotification(message: Buffer, method: string): boolean {
  const start = message.indexOf(END) + 4
  if (message.length - start > 256 || !message.includes(`"${method}"`, start)) return false
  try {
    const body = JSON.parse(message.toString('utf8', start)) as { method?: unknown; id?: unknown }
    return body.method === method && body.id === undefined
  } catch {
    return false
  }
}
