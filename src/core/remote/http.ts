import http from 'node:http'
import https from 'node:https'
import { isIP } from 'node:net'
import { UserError } from '../errors.js'

/**
 * One HTTP exchange with the manager's REST API (../shared/spec/remote-contract.md): node:http
 * and node:https, a deadline for the whole exchange, an AbortSignal (a stop signal), the
 * trust settings of the command line. No oclif, no output: a warning goes to `onWarning`.
 */

/** Exit codes of `remote` beyond the shared ones (ARCHITECTURE.md, Exit codes). */
export const REMOTE_EXIT = {
  /** exec: the skill failed (a 200 carrying `error`); diff: drift; push: refused by the check. */
  failed: 1,
  /** The manager could not be reached in time: connection, TLS, timeout. */
  unreachable: 3,
  /** Not logged in, or the session ended (a 401 after one refresh): log in again. */
  auth: 4,
  /** The manager refused the request (403, 404, 409, 429, 4xx, 5xx). */
  refused: 5,
} as const

/** A refusal or a failure to talk to the manager, one line, with the manager's own text quoted. */
export class RemoteError extends UserError {
  constructor(
    message: string,
    exitCode: number,
    hint?: string,
    /** The HTTP status, when the manager answered. */
    readonly status?: number,
    /** The `code` of a `{error, code}` body. */
    readonly code?: string,
    /** The manager's own text (the `error` of a JSON body, or a text/plain body without its newline). */
    readonly managerText?: string,
  ) {
    super(message, exitCode, hint)
  }

  /** The client's own deadline (--timeout) ended the wait: the manager may still have been working. */
  timedOut = false
}

export interface Transport {
  /** The manager's base URL: scheme, host and port, no path (normalized by `managerUrl`). */
  base: string
  /** The PEM certificates trusted (Node's roots, NODE_EXTRA_CA_CERTS's, --ca's); undefined: Node's default. */
  ca?: string[]
  /** Accept any certificate: every call warns. */
  insecure?: boolean
  /** Deadline of one exchange, in ms. */
  timeoutMs: number
  signal?: AbortSignal
  onWarning?: (text: string) => void
}

export interface Reply {
  status: number
  contentType: string
  body: Buffer
}

/** Bodies larger than this are not read (the biggest the manager sends is the skill list). */
const MAX_REPLY = 64 << 20

const LOOPBACK_NAMES = new Set(['localhost', 'localhost.'])

function loopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '')
  if (LOOPBACK_NAMES.has(h.toLowerCase())) return true
  if (isIP(h) === 4) return h.startsWith('127.')
  return h === '::1'
}

/**
 * The manager's base URL as the CLI keys it: `https://host[:port]`, no path, query or user info.
 * Plain http only to a loopback address unless `allowHttp`.
 */
export function managerUrl(raw: string, allowHttp: boolean): string {
  let u: URL
  try {
    u = new URL(raw)
  } catch {
    throw new UserError(`manager URL ${JSON.stringify(raw)} is not a URL (want https://host[:port])`)
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') {
    throw new UserError(
      `manager URL ${JSON.stringify(raw)}: scheme ${u.protocol.slice(0, -1)} is not http or https`,
    )
  }
  if (u.username !== '' || u.password !== '') {
    throw new UserError('manager URL: a user or password in the URL is refused (use remote login)')
  }
  if (u.search !== '' || u.hash !== '')
    throw new UserError('manager URL: no query or fragment, only https://host[:port]')
  const path = u.pathname.replace(/\/+$/, '')
  if (path !== '' && path !== '/api') {
    throw new UserError(
      `manager URL ${JSON.stringify(raw)}: only https://host[:port], not a path (${u.pathname})`,
    )
  }
  if (u.protocol === 'http:' && !allowHttp && !loopback(u.hostname)) {
    throw new UserError(
      `manager URL ${u.origin}: plain http to a host that is not loopback sends your password and tokens in the clear`,
      2,
      'use https (the manager serves it on 443), or --allow-http if you must',
    )
  }
  return u.origin
}

function networkText(e: NodeJS.ErrnoException): string {
  switch (e.code) {
    case 'ECONNREFUSED':
      return 'connection refused'
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'host not found'
    case 'ECONNRESET':
      return 'connection reset'
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'host unreachable'
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY':
      return 'its TLS certificate is not trusted'
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return 'its TLS certificate is for another name'
    case 'CERT_HAS_EXPIRED':
      return 'its TLS certificate has expired'
    case 'EPROTO':
    case 'ERR_SSL_WRONG_VERSION_NUMBER':
      return 'TLS failed (is it http, not https?)'
    default:
      return e.code ? e.code.toLowerCase().replace(/_/g, ' ') : 'connection failed'
  }
}

const TLS_HINT =
  "trust the manager's certificate with --ca FILE (or NODE_EXTRA_CA_CERTS); --insecure skips the check"

/** One request; the reply whatever its status (errors are the caller's to read). */
export function exchange(
  t: Transport,
  method: string,
  path: string,
  body?: { type: string; data: Buffer },
  headers: Record<string, string> = {},
): Promise<Reply> {
  const url = new URL(path, t.base)
  const tls = url.protocol === 'https:'
  if (tls && t.insecure) t.onWarning?.(`TLS certificate of ${t.base} not checked (--insecure)`)
  const what = `${method} ${url.pathname}`
  return new Promise((resolve, reject) => {
    if (t.signal?.aborted) {
      reject(new RemoteError(`${what}: stopped`, REMOTE_EXIT.unreachable))
      return
    }
    const opts: https.RequestOptions = {
      method,
      headers: {
        Accept: 'application/json',
        'User-Agent': 'ongrid-skill',
        ...(body ? { 'Content-Type': body.type, 'Content-Length': String(body.data.length) } : {}),
      },
      ...(tls ? { rejectUnauthorized: !t.insecure } : {}),
      ...(tls && t.ca !== undefined ? { ca: t.ca } : {}),
      agent: false,
    }
    const req = (tls ? https : http).request(url, opts, (res) => {
      const chunks: Buffer[] = []
      let n = 0
      res.on('data', (c: Buffer) => {
        n += c.length
        if (n > MAX_REPLY) {
          req.destroy(new Error('reply too large'))
          return
        }
        chunks.push(c)
      })
      res.on('end', () => {
        finish()
        resolve({
          status: res.statusCode ?? 0,
          contentType: String(res.headers['content-type'] ?? ''),
          body: Buffer.concat(chunks),
        })
      })
      res.on('error', fail)
    })
    let timer: NodeJS.Timeout | undefined
    const onAbort = () => fail(Object.assign(new Error('stopped'), { code: 'ABORTED' }))
    const finish = () => {
      clearTimeout(timer)
      t.signal?.removeEventListener('abort', onAbort)
    }
    let failed = false
    function fail(e: NodeJS.ErrnoException) {
      if (failed) return
      failed = true
      finish()
      req.destroy()
      if (e.code === 'ABORTED') reject(new RemoteError(`${what}: stopped`, REMOTE_EXIT.unreachable))
      else if (e.code === 'TIMEOUT') {
        const err = new RemoteError(
          `${what}: no answer from ${t.base} within ${t.timeoutMs / 1000}s`,
          REMOTE_EXIT.unreachable,
          'a longer --timeout, or check the manager (nginx cuts a request at 300s)',
        )
        err.timedOut = true
        reject(err)
      } else if (e.message === 'reply too large') {
        reject(new RemoteError(`${what}: the reply is larger than 64 MiB`, REMOTE_EXIT.unreachable))
      } else {
        const text = networkText(e)
        reject(
          new RemoteError(
            `cannot reach the manager at ${t.base}: ${text}`,
            REMOTE_EXIT.unreachable,
            text.startsWith('its TLS certificate') ? TLS_HINT : undefined,
          ),
        )
      }
    }
    // Set on the request, not in its options: NODE_DEBUG=net prints the options (a Bearer token
    // with them), never a request's own headers.
    for (const [k, v] of Object.entries(headers)) req.setHeader(k, v)
    timer = setTimeout(() => fail(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })), t.timeoutMs)
    t.signal?.addEventListener('abort', onAbort, { once: true })
    req.on('error', fail)
    req.end(body?.data)
  })
}

/** The manager's own text from an error reply: `error` of a JSON body, else the text without its newline. */
export function replyText(r: Reply): { text: string; code?: string } {
  const raw = r.body.toString('utf8')
  if (r.contentType.startsWith('application/json')) {
    try {
      const v = JSON.parse(raw) as { error?: unknown; code?: unknown }
      if (typeof v.error === 'string')
        return { text: v.error, code: typeof v.code === 'string' ? v.code : undefined }
    } catch {}
  }
  if (r.contentType.startsWith('text/html')) {
    const title = /<title>([^<]*)<\/title>/i.exec(raw)?.[1]
    return { text: title ?? `an HTML page (${r.status})` }
  }
  return { text: raw.replace(/\n$/, '') }
}

/** Quoted for one line: a newline in the manager's text (errors.Join) is shown as `\n`. */
export function quoted(text: string): string {
  return JSON.stringify(text.length > 300 ? `${text.slice(0, 300)}…` : text)
}
