/**
 * MCP over stdio with a bound on each message (mcp/frames.ts), in place of the SDK's
 * StdioServerTransport, which closes on a message past 10 MiB (the server then exits 0 and the
 * client's later requests are lost) and drops a line that is not JSON-RPC without a word.
 *
 * Here such a message is answered and the server goes on: a JSON-RPC error (Invalid Request for
 * one too large, Parse error for one that is not JSON) with the request's id when it can be
 * told, `id: null` when it cannot, none for a notification; and one line on stderr. Writes are
 * the SDK's (one JSON text and a newline each, waiting for stdout to drain).
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'
import { LineFramer, MAX_MESSAGE_BYTES, type Oversized } from './frames.js'

/** JSON-RPC's error codes used here. */
const PARSE_ERROR = -32700
const INVALID_REQUEST = -32600

interface MessageSchema {
  safeParse(v: unknown): { success: true; data: unknown } | { success: false }
}

export class BoundedStdioTransport implements Transport {
  onclose?: () => void
  onerror?: (error: Error) => void
  onmessage?: (message: JSONRPCMessage) => void
  private readonly framer: LineFramer
  private started = false

  constructor(
    private readonly schema: MessageSchema,
    private readonly warn: (line: string) => void,
    private readonly stdin: NodeJS.ReadableStream = process.stdin,
    private readonly stdout: NodeJS.WritableStream = process.stdout,
    max = MAX_MESSAGE_BYTES,
  ) {
    this.framer = new LineFramer(
      max,
      (line) => this.line(line),
      (o) => this.oversized(o, max),
    )
  }

  private readonly ondata = (chunk: Buffer) => this.framer.push(chunk)
  private readonly onerr = (e: Error) => this.onerror?.(e)

  async start(): Promise<void> {
    if (this.started) throw new Error('BoundedStdioTransport already started')
    this.started = true
    this.stdin.on('data', this.ondata)
    this.stdin.on('error', this.onerr)
  }

  private line(buf: Buffer): void {
    const text = buf.toString('utf8').replace(/\r$/, '')
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch (e) {
      if (text.trim() === '') return
      this.warn('mcp: a message that is not JSON was answered with a Parse error')
      this.reply(null, PARSE_ERROR, `Parse error: ${(e as Error).message}`)
      return
    }
    const parsed = this.schema.safeParse(value)
    if (parsed.success) {
      this.onmessage?.(parsed.data as JSONRPCMessage)
      return
    }
    const o = value !== null && typeof value === 'object' && !Array.isArray(value) ? value : {}
    const id = (o as { id?: unknown }).id
    const request = typeof (o as { method?: unknown }).method === 'string'
    // A notification gets no reply; a request its id back; anything else `id: null`.
    if (request && id === undefined) {
      this.warn('mcp: a notification that is not JSON-RPC was dropped')
      return
    }
    this.warn('mcp: a message that is not JSON-RPC was answered with an Invalid Request error')
    this.reply(
      request && (typeof id === 'string' || typeof id === 'number') ? id : null,
      INVALID_REQUEST,
      'Invalid Request: not a JSON-RPC 2.0 message',
    )
  }

  private oversized(o: Oversized, max: number): void {
    const limit = `${max / 1024 / 1024} MiB`
    if (o.id === null) {
      this.warn(`mcp: a notification of ${o.bytes} bytes (over the ${limit} a message may hold) was dropped`)
      return
    }
    this.warn(
      `mcp: a message of ${o.bytes} bytes (over the ${limit} a message may hold) was answered with an Invalid Request error${o.id === undefined ? '' : ` (id ${printable(o.id)})`}`,
    )
    this.reply(
      o.id ?? null,
      INVALID_REQUEST,
      `Invalid Request: the message has ${o.bytes} bytes; this server reads at most ${max} (${limit})`,
    )
  }

  private reply(id: string | number | null, code: number, message: string): void {
    void this.send({ jsonrpc: '2.0', id, error: { code, message } } as unknown as JSONRPCMessage)
  }

  async close(): Promise<void> {
    this.stdin.off('data', this.ondata)
    this.stdin.off('error', this.onerr)
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause()
    this.onclose?.()
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.stdout.write(`${JSON.stringify(message)}\n`)) resolve()
      else this.stdout.once('drain', resolve)
    })
  }
}

/** An id for a stderr line: JSON, with everything but printable ASCII escaped. */
function printable(id: string | number): string {
  return JSON.stringify(id).replace(
    /[^\x20-\x7e]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  )
}
