/**
 * MCP's stdio framing with a bound: one JSON-RPC message per line, at most MAX_MESSAGE_BYTES
 * each. No MCP SDK here: `mcp/stdio.ts` puts these lines on the SDK's transport interface.
 *
 * The SDK's own stdio transport holds a line until its newline and, past 10 MiB, drops what it
 * holds and closes: the server then exits 0 and every later request is lost. Here a line past
 * the bound is skipped to its newline (only a few bytes of state are kept while it streams by)
 * and reported with what a reply needs: its size, and the request id when the skipped bytes
 * show one. The lines after it are served as usual.
 */

/** The largest message read (stdio line or HTTP body): the SDK's own stdio bound, 10 MiB. */
export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024

/** What a skipped message showed of itself. */
export interface Oversized {
  /** Its length in bytes, without the newline. */
  bytes: number
  /**
   * The top-level `id` (a string or a number) of a request, when the message is an object
   * with a top-level `method` and such an `id` (the last one, as JSON.parse keeps it); null
   * when it has a `method` and no usable id (a notification: no reply); undefined when it is
   * not a request at all or its shape cannot be told (a reply then carries `id: null`).
   */
  id: string | number | null | undefined
}

const NL = 0x0a

/**
 * Splits a byte stream into lines of at most `max` bytes: `onLine` gets each (without its
 * newline, a trailing CR kept: the SDK's parser trims it), `onOversized` each line past `max`.
 * A last line without a newline is not a message (the SDK's transport drops it too).
 */
export class LineFramer {
  private held: Buffer[] = []
  private heldBytes = 0
  /** Set while a line past the bound streams by. */
  private skipping: RequestScanner | null = null

  constructor(
    private readonly max: number,
    private readonly onLine: (line: Buffer) => void,
    private readonly onOversized: (o: Oversized) => void,
  ) {}

  push(chunk: Buffer): void {
    let at = 0
    while (at < chunk.length) {
      const nl = chunk.indexOf(NL, at)
      const end = nl < 0 ? chunk.length : nl
      const piece = chunk.subarray(at, end)
      if (this.skipping !== null) {
        this.skipping.scan(piece)
      } else if (this.heldBytes + piece.length > this.max) {
        this.skipping = new RequestScanner()
        for (const h of this.held) this.skipping.scan(h)
        this.skipping.scan(piece)
        this.held = []
        this.heldBytes = 0
      } else if (piece.length > 0) {
        this.held.push(piece)
        this.heldBytes += piece.length
      }
      if (nl < 0) return
      at = nl + 1
      if (this.skipping !== null) {
        const s = this.skipping
        this.skipping = null
        this.onOversized({ bytes: s.bytes, id: s.requestId() })
      } else {
        const line = this.held.length === 1 ? this.held[0] : Buffer.concat(this.held, this.heldBytes)
        this.held = []
        this.heldBytes = 0
        this.onLine(line)
      }
    }
  }

  /** Bytes held for the line under way (never more than the bound). */
  get holding(): number {
    return this.heldBytes
  }
}

/** Longest key text and id value kept while scanning (longer ones are not `id` / no usable id). */
const KEY_MAX = 16
const ID_MAX = 4096

const At = {
  /** Before the top-level value. */
  Start: 0,
  /** In the top-level object, where a key may start. */
  Key: 1,
  /** After a key, before its colon. */
  Colon: 2,
  /** After the colon, before the value. */
  Value: 3,
  /** In a member's value (nested, a string, a number or a literal). */
  InValue: 4,
  /** The top level is not an object, or is malformed: nothing more to learn. */
  Done: 5,
} as const
type Place = (typeof At)[keyof typeof At]

/**
 * A streaming look at one JSON text for its top-level `id` and `method` keys, in O(1) memory:
 * the nesting depth, whether in a string, and the current key and id value (bounded).
 */
class RequestScanner {
  bytes = 0
  private at: Place = At.Start
  private depth = 0
  private inString = false
  private escaped = false
  private key: number[] | null = null
  private member = ''
  private idRaw: number[] | null = null
  private id: string | number | null = null
  private hasId = false
  private hasMethod = false

  scan(b: Buffer): void {
    this.bytes += b.length
    // Where the next quote and backslash are in b (-1: none): a string's text is skipped to the
    // next of them, so a message of long strings is scanned at indexOf's speed.
    let quote = -2
    let slash = -2
    for (let i = 0; i < b.length; i++) {
      if (this.at === At.Done) return
      if (this.inString && !this.escaped && this.at !== At.Key && this.idRaw === null) {
        if (quote !== -1 && quote < i) quote = b.indexOf(0x22, i)
        if (slash !== -1 && slash < i) slash = b.indexOf(0x5c, i)
        const next = quote < 0 ? slash : slash < 0 ? quote : Math.min(quote, slash)
        if (next < 0) return
        i = next
      }
      this.step(b[i])
    }
  }

  private step(c: number): void {
    if (this.inString) {
      if (this.at === At.Key) {
        if (this.key !== null && this.key.length < KEY_MAX) this.key.push(c)
        else this.key = null
      } else if (this.idRaw !== null) this.keepId(c)
      if (this.escaped) this.escaped = false
      else if (c === 0x5c) this.escaped = true
      else if (c === 0x22) {
        this.inString = false
        if (this.at === At.Key) {
          this.key?.pop()
          this.member = this.key === null ? '' : String.fromCharCode(...this.key)
          this.at = At.Colon
        }
      }
      return
    }
    const space = c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d
    switch (this.at) {
      case At.Start:
        if (space) return
        if (c !== 0x7b) this.at = At.Done
        else {
          this.depth = 1
          this.at = At.Key
        }
        return
      case At.Key:
        if (space || c === 0x2c) return
        if (c === 0x7d) this.at = At.Done
        else if (c === 0x22) {
          this.inString = true
          this.key = []
        } else this.at = At.Done
        return
      case At.Colon:
        if (space) return
        if (c !== 0x3a) this.at = At.Done
        else {
          this.at = At.Value
          if (this.member === 'method') this.hasMethod = true
        }
        return
      case At.Value:
        if (space) return
        this.at = At.InValue
        this.idRaw = this.member === 'id' ? [] : null
        break
    }
    // In a member's value.
    if (this.depth === 1 && (c === 0x2c || c === 0x7d)) {
      this.endValue()
      this.at = c === 0x2c ? At.Key : At.Done
      return
    }
    if (this.idRaw !== null) this.keepId(c)
    if (c === 0x22) this.inString = true
    else if (c === 0x7b || c === 0x5b) this.depth++
    else if (c === 0x7d || c === 0x5d) this.depth--
  }

  private keepId(c: number): void {
    if (this.idRaw === null) return
    if (this.idRaw.length < ID_MAX) this.idRaw.push(c)
    else this.idRaw = null
  }

  private endValue(): void {
    if (this.member !== 'id') return
    this.hasId = true
    this.id = null
    if (this.idRaw === null) return
    try {
      const v: unknown = JSON.parse(Buffer.from(this.idRaw).toString('utf8'))
      if (typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v))) this.id = v
    } catch {}
    this.idRaw = null
  }

  /** See Oversized.id. */
  requestId(): string | number | null | undefined {
    if (!this.hasMethod) return undefined
    if (!this.hasId) return null
    return this.id ?? undefined
  }
}
