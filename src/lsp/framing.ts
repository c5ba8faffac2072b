/**
 * The client's input cut into whole messages (`Content-Length` framing), as the server's reader
 * is given it: a message is passed on only once all its bytes have come, so a message cut short
 * by the end of the input is never half-read, and what the server queues behind the last whole
 * message is read next. A header without a usable `Content-Length` is passed on as it is (the
 * reader reports it, as it would have).
 */

const END = Buffer.from('\r\n\r\n')

export class MessageFramer {
  private held: Buffer = Buffer.alloc(0)

  /** The whole messages completed by `chunk`, in order; the bytes of the next one are held. */
  push(chunk: Buffer): Buffer[] {
    this.held = this.held.length === 0 ? chunk : Buffer.concat([this.held, chunk])
    const out: Buffer[] = []
    let at = 0
    for (;;) {
      const end = this.held.indexOf(END, at)
      if (end < 0) break
      const header = this.held.toString('latin1', at, end)
      const m = /(?:^|\r\n)content-length:\s*(\d+)\s*(?:\r\n|$)/i.exec(header)
      const next = m === null ? end + 4 : end + 4 + Number(m[1])
      if (next > this.held.length) break
      out.push(this.held.subarray(at, next))
      at = next
    }
    this.held = this.held.subarray(at)
    return out
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
