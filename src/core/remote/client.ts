import { type CredentialStore, type Session, tokenExpiry } from './credentials.js'
import { exchange, quoted, REMOTE_EXIT, RemoteError, type Reply, replyText, type Transport } from './http.js'

/**
 * A logged-in conversation with one manager: the Bearer header, one refresh when the access
 * token has expired or a protected route answers 401 (the SPA's rule, remote-contract §3.5), then
 * `remote login` is asked for. Tokens live in the store and in headers only: no error, warning
 * or return value of this module carries one.
 */

export const API = {
  login: '/api/v1/auth/login',
  refresh: '/api/v1/auth/refresh',
  self: '/api/v1/self',
  version: '/api/v1/version',
  skills: '/api/v1/skills',
  installed: '/api/v1/marketplace/installed',
  upload: '/api/v1/marketplace/upload',
  registries: '/api/v1/marketplace/registries',
} as const

export const LOGIN_HINT = (base: string) => `log in: ongrid-skill remote login --manager ${base}`

/** The text of a reply that is not a success, as one line: the manager's own words quoted. */
export function refusal(what: string, r: Reply, base: string): RemoteError {
  const { text, code } = replyText(r)
  const said = `${what}: the manager answered ${r.status} ${quoted(text)}`
  let exit: number = REMOTE_EXIT.refused
  let hint: string | undefined
  if (r.status === 404 && text === '404 page not found') {
    hint = notManagerHint(base)
  } else if (r.status === 401) {
    exit = REMOTE_EXIT.auth
    hint = LOGIN_HINT(base)
  } else if (r.status === 429 && text === 'too many attempts') {
    hint =
      'the manager throttles failed logins (6 per email in 15 minutes, 20 per address in 5) and says no Retry-After: try again in 15 minutes'
  } else if (r.status === 413) {
    hint = 'nginx in front of the manager takes at most 70 MiB'
  } else if (r.status === 502 || r.status === 504) {
    hint = r.status === 504 ? 'nginx cut the request after 300s' : 'nginx could not reach the manager process'
  }
  return new RemoteError(said, exit, hint, r.status, code, text)
}

/** What a server answers for a route it does not have (the manager has login and version). */
const NO_ROUTE = new Set([404, 405, 501])

const notManagerHint = (base: string) => `is ${base} an ongrid manager? its API has no such route`

/** A server without the manager's API, said so: as unreachable as a wrong address (exit 3). */
function notManager(base: string, why: string, e?: RemoteError): RemoteError {
  return new RemoteError(
    `${base} is not an ongrid manager: ${why}`,
    REMOTE_EXIT.unreachable,
    notManagerHint(base),
    e?.status,
    e?.code,
    e?.managerText,
  )
}

/** A refusal said again in the client's words, its status, code and manager text kept. */
export function restated(e: RemoteError, message: string, exit: number, hint?: string): RemoteError {
  return new RemoteError(message, exit, hint, e.status, e.code, e.managerText)
}

interface TokenPair {
  access_token: string
  refresh_token: string
  expires_in: number
  role: string
}

function tokenPair(r: Reply): TokenPair | null {
  try {
    const v = JSON.parse(r.body.toString('utf8')) as Partial<TokenPair>
    if (
      typeof v.access_token === 'string' &&
      typeof v.refresh_token === 'string' &&
      typeof v.role === 'string'
    ) {
      return { ...v, expires_in: typeof v.expires_in === 'number' ? v.expires_in : 900 } as TokenPair
    }
  } catch {}
  return null
}

function sessionOf(email: string, p: TokenPair, now: number): Session {
  return {
    email,
    role: p.role,
    access_token: p.access_token,
    refresh_token: p.refresh_token,
    access_expires_at: tokenExpiry(p.access_token) ?? now + p.expires_in,
    refresh_expires_at: tokenExpiry(p.refresh_token) ?? 0,
  }
}

const jsonBody = (v: unknown) => ({ type: 'application/json', data: Buffer.from(JSON.stringify(v)) })

export class ManagerClient {
  constructor(
    readonly t: Transport,
    readonly store: CredentialStore,
    /** Unix seconds. */
    readonly now: () => number = () => Math.floor(Date.now() / 1000),
  ) {}

  get base(): string {
    return this.t.base
  }

  /** POST login, then the version route with the new token (an ongrid manager answers both). */
  async login(email: string, password: string): Promise<{ session: Session; version: string }> {
    const r = await exchange(this.t, 'POST', API.login, jsonBody({ email, password }))
    if (r.status !== 200) {
      const err = refusal(`login as ${email}`, r, this.base)
      // The manager's login route answers 200, 400, 401 or 429: no route there is no manager.
      if (NO_ROUTE.has(r.status))
        throw notManager(
          this.base,
          `POST ${API.login} answered ${r.status} ${quoted(err.managerText ?? '')}`,
          err,
        )
      if (r.status === 401) {
        // The manager's 401 is the same for a wrong password, an unknown and a disabled user.
        throw restated(err, err.message, REMOTE_EXIT.auth, 'wrong email or password, or the user is disabled')
      }
      throw err
    }
    const pair = tokenPair(r)
    if (pair === null) throw notManager(this.base, `POST ${API.login} answered 200 without tokens`)
    const session = sessionOf(email, pair, this.now())
    const version = await this.versionWith(session.access_token)
    session.manager_version = version
    this.store.put(this.base, session)
    return { session, version }
  }

  private async versionWith(token: string): Promise<string> {
    const r = await exchange(this.t, 'GET', API.version, undefined, { Authorization: `Bearer ${token}` })
    if (r.status !== 200) {
      const e = refusal(`GET ${API.version}`, r, this.base)
      throw NO_ROUTE.has(r.status) ? notManager(this.base, e.message, e) : e
    }
    try {
      const v = JSON.parse(r.body.toString('utf8')) as { manager_version?: unknown }
      if (typeof v.manager_version === 'string') return v.manager_version
    } catch {}
    throw notManager(this.base, `GET ${API.version} has no manager_version`)
  }

  session(): Session {
    const s = this.store.get(this.base)
    if (s === null)
      throw new RemoteError(`not logged in to ${this.base}`, REMOTE_EXIT.auth, LOGIN_HINT(this.base))
    return s
  }

  /** One refresh; the new pair is stored. A 401 ends the session: log in again. */
  private async refresh(s: Session): Promise<Session> {
    if (s.refresh_expires_at !== 0 && this.now() >= s.refresh_expires_at) {
      throw new RemoteError(
        `the session with ${this.base} has ended (refresh token expired)`,
        REMOTE_EXIT.auth,
        LOGIN_HINT(this.base),
      )
    }
    const r = await exchange(this.t, 'POST', API.refresh, jsonBody({ refresh_token: s.refresh_token }))
    if (r.status !== 200) {
      const e = refusal('refresh', r, this.base)
      if (r.status === 401) {
        throw restated(
          e,
          `the session with ${this.base} has ended: ${e.message}`,
          REMOTE_EXIT.auth,
          LOGIN_HINT(this.base),
        )
      }
      throw e
    }
    const pair = tokenPair(r)
    if (pair === null)
      throw new RemoteError(`refresh: ${this.base} answered 200 without tokens`, REMOTE_EXIT.refused)
    const next = sessionOf(s.email, pair, this.now())
    if (s.manager_version !== undefined) next.manager_version = s.manager_version
    this.store.put(this.base, next)
    return next
  }

  /**
   * The session the next call carries: refreshed first when the access token is past its
   * expiry here. Its token's role is the one the manager will check (`tokenRole`).
   */
  async ready(): Promise<Session> {
    const s = this.session()
    return this.now() < s.access_expires_at ? s : this.refresh(s)
  }

  /** An authenticated exchange: refreshed first when the access token is past its expiry, once more on a 401. */
  async call(method: string, path: string, body?: { type: string; data: Buffer }): Promise<Reply> {
    let s = this.session()
    let refreshed = false
    if (this.now() >= s.access_expires_at) {
      s = await this.refresh(s)
      refreshed = true
    }
    let r = await exchange(this.t, method, path, body, { Authorization: `Bearer ${s.access_token}` })
    if (r.status === 401 && !refreshed) {
      s = await this.refresh(s)
      r = await exchange(this.t, method, path, body, { Authorization: `Bearer ${s.access_token}` })
    }
    if (r.status === 401) {
      const e = refusal(`${method} ${path}`, r, this.base)
      throw new RemoteError(
        `the session with ${this.base} has ended: ${e.message}`,
        REMOTE_EXIT.auth,
        LOGIN_HINT(this.base),
        r.status,
        e.code,
        e.managerText,
      )
    }
    return r
  }

  /** An authenticated call whose success is JSON (any 2xx); anything else is a RemoteError. */
  async json<T>(method: string, path: string, body?: unknown): Promise<T> {
    const r = await this.call(method, path, body === undefined ? undefined : jsonBody(body))
    if (r.status < 200 || r.status > 299) throw refusal(`${method} ${path}`, r, this.base)
    if (r.status === 204) return undefined as T
    try {
      return JSON.parse(r.body.toString('utf8')) as T
    } catch {
      throw new RemoteError(`${method} ${path}: the manager's answer is not JSON`, REMOTE_EXIT.refused)
    }
  }

  /** GET /api/v1/version; the answer is kept with the session (local commands compare with it). */
  async version(): Promise<{ manager_version: string }> {
    const v = await this.json<{ manager_version: string }>('GET', API.version)
    const s = this.store.get(this.base)
    if (s !== null && typeof v.manager_version === 'string' && s.manager_version !== v.manager_version)
      this.store.put(this.base, { ...s, manager_version: v.manager_version })
    return v
  }

  /** The user as the manager's database has it now (remote-contract §3.6). */
  self(): Promise<{ id: number; email: string; role: string }> {
    return this.json('GET', API.self)
  }
}
