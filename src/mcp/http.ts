/** MCP over Streamable HTTP on 127.0.0.1: who may call (peer, Host, Origin), the body's bound (413), the sessions and their limit (503). */

import type { Socket } from 'node:net'
import { UserError } from '../core/errors.js'
import { MAX_MESSAGE_BYTES } from './frames.js'
import type { McpHost } from './host.js'
import { loopbackPeerUid } from './loopback-peer.js'
import { loadSdk, loadSdkHttp } from './sdk-load.js'

export interface HttpOptions {
  port: number
  idleMs: number
  maxSessions: number
}

/**
 * Streamable HTTP on 127.0.0.1 only, at /mcp, one SDK server per session. Refused before
 * anything is read: a connection from another user's process (Linux), with 403; a Host other than 127.0.0.1:PORT or localhost:PORT (DNS rebinding) and an
 * Origin other than those (a web page: browsers send it, other clients need not), with 403; a
 * body over MAX_MESSAGE_BYTES, with 413. A session without a request for `idleMs` (and none
 * open, such as a GET stream) is ended; past `maxSessions`, an initialize gets 503.
 */
export async function serveHttp(
  mcpHost: McpHost,
  { port, idleMs, maxSessions }: HttpOptions,
): Promise<number> {
  const [{ StreamableHTTPServerTransport }, { isInitializeRequest }, { createServer }, { randomUUID }] =
    await Promise.all([loadSdkHttp(), loadSdk(), import('node:http'), import('node:crypto')])
  type Transport = InstanceType<typeof StreamableHTTPServerTransport>
  interface Session {
    transport: Transport
    /** Requests under way (a GET stream stays open): never idle while > 0. */
    open: number
    last: number
  }
  const sessions = new Map<string, Session>()
  /** Initialize requests under way: counted against maxSessions until their session exists. */
  let starting = 0
  let bound = port
  /** Whose process each connection comes from, asked once per connection (loopbackPeerUid). */
  const peers = new WeakMap<object, number | null | undefined>()
  const peerUid = (socket: Socket) => {
    if (!peers.has(socket)) peers.set(socket, loopbackPeerUid(socket.remotePort ?? -1, bound))
    return peers.get(socket)
  }
  const http = createServer(async (req, res) => {
    const fail = (status: number, message: string, code = -32000) => {
      res
        .writeHead(status, { 'content-type': 'application/json' })
        .end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }))
    }
    try {
      // Any local user can connect to a loopback port: only this user's processes are served
      // (on Linux, which says whose each socket is), since a call runs skills as this user.
      const peer = peerUid(req.socket)
      if (peer !== undefined && peer !== process.geteuid?.())
        return fail(
          403,
          peer === null
            ? 'forbidden: cannot tell whose process this connection comes from'
            : `forbidden: the connection comes from a process of uid ${peer}; this server serves uid ${process.geteuid?.()} only`,
        )
      // A page that rebinds its own name to 127.0.0.1 sends its name as Host: refused.
      const host = req.headers.host ?? ''
      const hosts = [`127.0.0.1:${bound}`, `localhost:${bound}`]
      if (!hosts.includes(host))
        return fail(403, `forbidden: Host ${JSON.stringify(host)} (use 127.0.0.1:${bound})`)
      // A page of another origin (browsers always send it) is refused, whatever its Host.
      const origin = req.headers.origin
      if (origin !== undefined && !hosts.some((h) => origin === `http://${h}`))
        return fail(
          403,
          `forbidden: Origin ${JSON.stringify(origin)} (only http://127.0.0.1:${bound} and http://localhost:${bound} may call)`,
        )
      const url = new URL(req.url ?? '/', 'http://127.0.0.1')
      if (url.pathname !== '/mcp') return fail(404, 'not found: the endpoint is /mcp')
      const sid = req.headers['mcp-session-id']
      const id = Array.isArray(sid) ? sid[0] : sid
      const session = id !== undefined ? sessions.get(id) : undefined
      if (session !== undefined) {
        session.open++
        session.last = Date.now()
        res.once('close', () => {
          session.open--
          session.last = Date.now()
        })
      }
      let body: unknown
      if (req.method === 'POST') {
        const read = await readBody(req, MAX_MESSAGE_BYTES)
        if (read === TOO_LARGE) {
          // `Connection: close`, as the client must not send another request on a connection
          // whose body was cut. Node would close the socket as soon as the answer is out,
          // with the body still arriving, and the kernel's reset could reach the client before
          // the 413 does (its next write fails with EPIPE). So only our side is shut (FIN),
          // as Go's server does; what the client still sends is read and discarded for a
          // second at most, then the connection is cut.
          res.shouldKeepAlive = false
          const socket = req.socket
          // Node then calls socket.end(): a half-close.
          Object.defineProperty(socket, 'destroySoon', { value: undefined, configurable: true })
          res.once('finish', () => {
            req.resume()
            setTimeout(() => socket.destroy(), 1000).unref()
          })
          return fail(
            413,
            `Payload Too Large: the request body has more than ${MAX_MESSAGE_BYTES} bytes (10 MiB), the most a message may hold`,
          )
        }
        try {
          body = read === '' ? undefined : JSON.parse(read)
        } catch (e) {
          return fail(400, `Parse error: ${(e as Error).message}`, -32700)
        }
      }
      let transport = session?.transport
      if (transport === undefined) {
        if (id !== undefined) return fail(404, 'unknown session')
        if (req.method !== 'POST' || !isInitializeRequest(body))
          return fail(400, 'no session: send an initialize request first')
        if (sessions.size + starting >= maxSessions)
          return fail(
            503,
            `too many sessions (${maxSessions}): end one (DELETE /mcp) or wait until one has been idle for ${idleMs / 1000} s`,
          )
        starting++
        res.once('close', () => starting--)
        const t: Transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (sessionId) => {
            sessions.set(sessionId, { transport: t, open: 1, last: Date.now() })
            res.once('close', () => {
              const s = sessions.get(sessionId)
              if (s !== undefined) s.open--
            })
          },
          // Checked above already; the SDK's own checks and bound, the same, behind them.
          enableDnsRebindingProtection: true,
          allowedHosts: hosts,
          allowedOrigins: hosts.map((h) => `http://${h}`),
          maxRequestBodySize: MAX_MESSAGE_BYTES,
        })
        t.onclose = () => {
          if (t.sessionId !== undefined) sessions.delete(t.sessionId)
        }
        transport = t
        const server = await mcpHost.newSession()
        await server.connect(t)
      }
      await transport.handleRequest(req, res, body)
    } catch (e) {
      if (!res.headersSent) fail(500, (e as Error).message)
    }
  })
  // Idle sessions are ended (their SDK server closes with their transport).
  const sweep = setInterval(
    () => {
      const now = Date.now()
      for (const s of sessions.values()) {
        if (s.open <= 0 && now - s.last >= idleMs) s.transport.close().catch(() => {})
      }
    },
    Math.min(60_000, Math.max(50, idleMs / 4)),
  )
  sweep.unref()
  const done = mcpHost.until(() => {
    clearInterval(sweep)
    for (const s of sessions.values()) s.transport.close().catch(() => {})
    http.close()
    http.closeAllConnections()
  })
  await new Promise<void>((resolve, reject) => {
    http.once('error', (e: NodeJS.ErrnoException) =>
      reject(new UserError(`--http: 127.0.0.1:${port}: ${e.code ?? e.message}`)),
    )
    http.listen(port, '127.0.0.1', () => resolve())
  })
  const address = http.address()
  bound = typeof address === 'object' && address !== null ? address.port : port
  process.stderr.write(`mcp: Streamable HTTP on http://127.0.0.1:${bound}/mcp\n`)
  return await done
}

const TOO_LARGE = Symbol('too large')

/**
 * The body as text, unless it has more than `max` bytes: then TOO_LARGE, known from
 * Content-Length before anything is read, or as soon as the bytes read pass `max`.
 */
async function readBody(
  req: import('node:http').IncomingMessage,
  max: number,
): Promise<string | typeof TOO_LARGE> {
  if (Number(req.headers['content-length']) > max) return TOO_LARGE
  // Listeners, not `for await`: leaving that loop early destroys the request and with it the
  // socket, so the client's next write fails (EPIPE) before it can read the 413.
  return await new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const done = (v: string | typeof TOO_LARGE) => {
      req.off('data', onData).off('end', onEnd).off('error', reject)
      resolve(v)
    }
    const onData = (c: Buffer) => {
      size += c.length
      if (size > max) {
        req.pause()
        done(TOO_LARGE)
      } else chunks.push(c)
    }
    const onEnd = () => done(Buffer.concat(chunks, size).toString('utf8'))
    req.on('data', onData).once('end', onEnd).once('error', reject)
  })
}
