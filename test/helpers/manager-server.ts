import { execFileSync } from 'node:child_process'
import { createHash, createHmac, timingSafeEqual } from 'node:crypto'
import { readFileSync } from 'node:fs'
import http from 'node:http'
import https from 'node:https'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'

/**
 * A test double of the ongrid manager's REST API, as ../shared/spec/remote-contract.md states it
 * (section 7's checklist): written from the contract, never from the manager's code. It listens
 * on 127.0.0.1 over HTTP, or HTTPS with a certificate made by `makeCertificate`.
 *
 * Time is the `now()` the test controls (seconds), so token expiry and the login throttle are
 * exact; `stall` makes every /api request hang until the client gives up.
 */

export interface ManagerUser {
  id: number
  email: string
  password: string
  role: string
  active?: boolean
}

export interface SkillSummary {
  key: string
  name: string
  description: string
  class: 'safe' | 'mutating' | 'dangerous'
  scope?: 'host' | 'manager'
  category?: string
  params: unknown[] | null
  result_preview?: string
  source?: string
  inventory_only?: boolean
}

export interface Execution {
  key: string
  edge_id: number
  role: string
  params: unknown
}

export interface ManagerOptions {
  tls?: { key: string; cert: string }
  users?: ManagerUser[]
  /** Access token lifetime in seconds (the manager's default: 900). */
  accessTtl?: number
  refreshTtl?: number
  version?: string
  devMode?: boolean
  /** Skillcore entries (A–C), sorted here by key; then SKILL.md entries (D) as given. */
  skills?: SkillSummary[]
  skillMd?: SkillSummary[]
  /**
   * What executing a manager-scope key returns: `{result}`, `{error}` (a 200), a transport
   * failure, or `{resultText}`: the skill's stdout bytes as the manager sends a json.RawMessage,
   * digits and all (remote-contract §10.4).
   */
  outcomes?: Record<
    string,
    { result?: unknown } | { error: string } | { transport: string } | { resultText: string }
  >
}

const SECRET = 'test-server-secret'
export const RESULT_PREVIEW_SUBPROCESS = '{...} (subprocess skill output)'

/** A default catalogue with the four populations of §6.1 and their exact field presence. */
export const DEFAULT_SKILLS: SkillSummary[] = [
  {
    key: 'host_probe_tcp',
    name: 'TCP 连通性探测',
    description: 'Probe a TCP port.',
    class: 'safe',
    scope: 'host',
    category: 'network',
    params: [
      { name: 'target', type: 'string', required: true, desc: 'host:port' },
      { name: 'timeout_ms', type: 'int', default: 0, desc: 'timeout' },
    ],
    result_preview: '{ok, latency_ms, error?}',
  },
  {
    key: 'host_restart_service',
    name: '重启服务',
    description: 'Restart a service.',
    class: 'mutating',
    scope: 'host',
    category: 'host',
    params: [{ name: 'unit', type: 'string', required: true, desc: 'unit' }],
  },
  {
    key: 'disk_usage',
    name: 'disk_usage',
    description: 'Reports disk usage.',
    class: 'safe',
    scope: 'manager',
    category: 'external',
    params: [],
    result_preview: RESULT_PREVIEW_SUBPROCESS,
  },
  {
    key: 'wipe_all',
    name: 'wipe_all',
    description: 'Wipes.',
    class: 'dangerous',
    scope: 'manager',
    category: 'external',
    params: [],
    result_preview: RESULT_PREVIEW_SUBPROCESS,
  },
  {
    key: 'query_promql',
    name: 'query_promql',
    description: 'Run a PromQL query.',
    class: 'safe',
    scope: 'manager',
    category: 'telemetry',
    params: [],
    inventory_only: true,
  },
]

export const DEFAULT_SKILL_MD: SkillSummary[] = [
  {
    key: 'terraform_runner',
    name: 'terraform_runner',
    description: 'Runs terraform.',
    class: 'safe',
    scope: 'manager',
    category: 'skill',
    params: null,
    source: 'builtin',
    inventory_only: true,
  },
]

interface Installed {
  ID: number
  TenantID: 0
  PackID: string
  DisplayName: string
  Version: string
  Source: string
  SourceURL: string
  InstallPath: string
  ManifestSHA256: string
  SignatureState: string
  CapabilitiesJSON: string
  BindingsJSON: string
  InstalledBy: number
  InstalledAt: string
  UpdatedAt: string
  DeletedAt: null
  DeleteMarker: 0
}

interface Claims {
  user_id: number
  email?: string
  role: string
  is_superuser?: true
  sub: string
  exp: number
  iat: number
}

const b64url = (b: Buffer | string) => Buffer.from(b).toString('base64url')

export class ManagerServer {
  readonly users: ManagerUser[]
  readonly executions: Execution[] = []
  readonly installed: Installed[] = []
  /** Every request's method, path (query kept) and Authorization header, in order. */
  readonly requests: { method: string; url: string; authorization?: string }[] = []
  /** Every token signed, to check that none reaches an output. */
  readonly issued: string[] = []
  /** Every login and refresh body as received. */
  readonly authBodies: string[] = []
  /** The test's clock, in seconds. */
  now = 1_800_000_000
  stall = false
  /** Execute calls hang (the skill runs on) until the client goes: then it is killed (§10.3). */
  stallExecute = false
  /** Execute calls whose client went before the answer: the manager cancelled the skill. */
  readonly cancelled: string[] = []
  accessTtl: number
  refreshTtl: number
  url = ''
  private server: http.Server
  private nextId = 1
  private readonly ipFails = new Map<string, { at: number; count: number }>()
  private readonly emailFails = new Map<string, { at: number; count: number }>()
  private readonly stalled = new Set<http.ServerResponse>()

  constructor(readonly opts: ManagerOptions = {}) {
    this.users = opts.users ?? [
      { id: 1, email: 'admin@example.com', password: 'admin-pass-1', role: 'admin' },
      { id: 2, email: 'viewer@example.com', password: 'viewer-pass-2', role: 'viewer' },
      { id: 3, email: 'user@example.com', password: 'user-pass-3', role: 'user' },
    ]
    this.accessTtl = opts.accessTtl ?? 900
    this.refreshTtl = opts.refreshTtl ?? 168 * 3600
    const handler = (req: http.IncomingMessage, res: http.ServerResponse) => {
      this.handle(req, res).catch((e) => {
        res.statusCode = 500
        res.end(String(e))
      })
    }
    this.server = opts.tls ? https.createServer(opts.tls, handler) : http.createServer(handler)
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve))
    const port = (this.server.address() as AddressInfo).port
    this.url = `${this.opts.tls ? 'https' : 'http'}://127.0.0.1:${port}`
    return this
  }

  async close(): Promise<void> {
    for (const r of this.stalled) r.destroy()
    this.server.closeAllConnections()
    await new Promise<void>((resolve) => this.server.close(() => resolve()))
  }

  /** A token as the manager signs it, for a user, lifetime in seconds from now. */
  token(user: ManagerUser, ttl: number): string {
    const claims: Claims = {
      user_id: user.id,
      email: user.email,
      role: user.role,
      sub: String(user.id),
      exp: this.now + ttl,
      iat: this.now,
    }
    const head = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))
    const body = b64url(JSON.stringify(claims))
    const sig = createHmac('sha256', SECRET).update(`${head}.${body}`).digest()
    const token = `${head}.${body}.${b64url(sig)}`
    this.issued.push(token)
    return token
  }

  private verify(token: string): Claims | null {
    const parts = token.split('.')
    if (parts.length !== 3) return null
    const want = createHmac('sha256', SECRET).update(`${parts[0]}.${parts[1]}`).digest()
    const got = Buffer.from(parts[2], 'base64url')
    if (got.length !== want.length || !timingSafeEqual(got, want)) return null
    try {
      const c = JSON.parse(Buffer.from(parts[1], 'base64url').toString()) as Claims
      // exp with zero leeway: golang-jwt v5 refuses a token from the second of its exp on.
      if (typeof c.exp !== 'number' || this.now >= c.exp) return null
      return c
    } catch {
      return null
    }
  }

  private text(res: http.ServerResponse, status: number, body: string): void {
    res.writeHead(status, {
      'Content-Type': 'text/plain; charset=utf-8',
      'X-Content-Type-Options': 'nosniff',
    })
    res.end(`${body}\n`)
  }

  private json(res: http.ServerResponse, status: number, value: unknown): void {
    // Go's encoder escapes <, > and & and ends the document with a newline.
    const body = JSON.stringify(value).replace(/[<>&]/g, (c) => `\\u00${c.charCodeAt(0).toString(16)}`)
    res.writeHead(status, { 'Content-Type': 'application/json' })
    res.end(`${body}\n`)
  }

  private apiError(res: http.ServerResponse, status: number, error: string, code: string): void {
    this.json(res, status, { error, code })
  }

  private async body(req: http.IncomingMessage, limit = 1 << 30): Promise<Buffer | null> {
    const chunks: Buffer[] = []
    let n = 0
    for await (const c of req) {
      n += (c as Buffer).length
      if (n > limit) return null
      chunks.push(c as Buffer)
    }
    return Buffer.concat(chunks)
  }

  private blocked(m: Map<string, { at: number; count: number }>, k: string, limit: number, window: number) {
    const e = m.get(k)
    return e !== undefined && e.count >= limit && this.now - e.at <= window
  }

  private fail(m: Map<string, { at: number; count: number }>, k: string, window: number) {
    const e = m.get(k)
    if (e === undefined || this.now - e.at > window) m.set(k, { at: this.now, count: 1 })
    else e.count++
  }

  private pair(user: ManagerUser) {
    return {
      access_token: this.token(user, this.accessTtl),
      refresh_token: this.token(user, this.refreshTtl),
      expires_in: this.accessTtl,
      role: user.role,
    }
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://x')
    const path = url.pathname
    const method = req.method ?? 'GET'
    this.requests.push({ method, url: req.url ?? '', authorization: req.headers.authorization })
    if (path === '/healthz' && method === 'GET') {
      res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' })
      res.end('ok')
      return
    }
    if (this.stall && path.startsWith('/api/')) {
      this.stalled.add(res)
      return
    }
    const route = this.route(method, path)
    if (route === 'notfound') return this.text(res, 404, '404 page not found')
    if (typeof route === 'object') {
      res.writeHead(405, { Allow: route.allow.join(', ') })
      res.end()
      return
    }
    if (route === 'login') return this.login(req, res)
    if (route === 'refresh') return this.refresh(req, res)
    // The auth middleware: a header with the case-sensitive prefix wins, else ?token=.
    const header = (req.headers.authorization ?? '').trim()
    let token = ''
    if (header.startsWith('Bearer ')) token = header.slice(7)
    else token = url.searchParams.get('token') ?? ''
    if (token === '') return this.text(res, 401, 'missing bearer token')
    const claims = this.verify(token)
    if (claims === null) return this.text(res, 401, 'invalid token')
    return this.protectedRoute(route, req, res, url, claims)
  }

  private static readonly ROUTES: [string, RegExp, string][] = [
    ['POST', /^\/api\/v1\/auth\/login$/, 'login'],
    ['POST', /^\/api\/v1\/auth\/refresh$/, 'refresh'],
    ['GET', /^\/api\/v1\/self$/, 'self'],
    ['GET', /^\/api\/v1\/version$/, 'version'],
    ['GET', /^\/api\/v1\/skills$/, 'skills'],
    ['GET', /^\/api\/v1\/skills\/[^/]+$/, 'skill'],
    ['POST', /^\/api\/v1\/skills\/[^/]+\/execute$/, 'execute'],
    ['POST', /^\/api\/v1\/marketplace\/install$/, 'install'],
    ['POST', /^\/api\/v1\/marketplace\/upload$/, 'upload'],
    ['GET', /^\/api\/v1\/marketplace\/installed$/, 'installed'],
    ['DELETE', /^\/api\/v1\/marketplace\/installed\/[^/]+$/, 'uninstall'],
    ['PUT', /^\/api\/v1\/marketplace\/installed\/[^/]+\/bindings$/, 'bindings'],
    ['GET', /^\/api\/v1\/marketplace\/registries$/, 'registries'],
  ]

  private route(method: string, path: string): string | 'notfound' | { allow: string[] } {
    const matching = ManagerServer.ROUTES.filter(([, re]) => re.test(path))
    if (matching.length === 0) return 'notfound'
    const hit = matching.find(([m]) => m === method)
    return hit ? hit[2] : { allow: matching.map(([m]) => m) }
  }

  private async login(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const raw = (await this.body(req)) ?? Buffer.alloc(0)
    this.authBodies.push(raw.toString())
    let b: { email?: unknown; password?: unknown }
    try {
      if (raw.length === 0) throw new Error('EOF')
      b = JSON.parse(raw.toString())
      if (b === null || typeof b !== 'object') throw new Error('json: cannot unmarshal')
    } catch (e) {
      return this.text(res, 400, `invalid argument\n${(e as Error).message}`)
    }
    const ip =
      String(req.headers['x-forwarded-for'] ?? '')
        .split(',')[0]
        .trim() || '127.0.0.1'
    const email = String(b.email ?? '')
      .trim()
      .toLowerCase()
    if (this.blocked(this.ipFails, ip, 20, 300) || this.blocked(this.emailFails, email, 6, 900)) {
      return this.text(res, 429, 'too many attempts')
    }
    const failed = (status: number, text: string) => {
      this.fail(this.ipFails, ip, 300)
      this.fail(this.emailFails, email, 900)
      this.text(res, status, text)
    }
    if (email === '' || typeof b.password !== 'string' || b.password === '') {
      return failed(400, 'invalid argument: email and password required')
    }
    const user = this.users.find((u) => u.email === email)
    if (!user || user.active === false || user.password !== b.password) return failed(401, 'unauthorized')
    this.emailFails.delete(email)
    this.json(res, 200, this.pair(user))
  }

  private async refresh(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const raw = (await this.body(req)) ?? Buffer.alloc(0)
    this.authBodies.push(raw.toString())
    let b: { refresh_token?: unknown }
    try {
      if (raw.length === 0) throw new Error('EOF')
      b = JSON.parse(raw.toString())
    } catch (e) {
      return this.text(res, 400, `invalid argument\n${(e as Error).message}`)
    }
    if (typeof b.refresh_token !== 'string' || b.refresh_token === '') {
      return this.text(res, 400, 'invalid argument: refresh_token required')
    }
    const c = this.verify(b.refresh_token)
    const user = c && this.users.find((u) => u.id === c.user_id)
    if (!user || user.active === false) return this.text(res, 401, 'unauthorized')
    this.json(res, 200, this.pair(user))
  }

  private skillcore(): SkillSummary[] {
    return [...(this.opts.skills ?? DEFAULT_SKILLS)].sort((a, b) =>
      a.key < b.key ? -1 : a.key > b.key ? 1 : 0,
    )
  }

  private async protectedRoute(
    route: string,
    req: http.IncomingMessage,
    res: http.ServerResponse,
    url: URL,
    claims: Claims,
  ): Promise<void> {
    const seg = url.pathname.split('/')
    const admin = claims.role === 'admin'
    switch (route) {
      case 'self': {
        // Read from the database: a role an admin changed shows here at once (§10.2).
        const u = this.users.find((x) => x.id === claims.user_id)
        if (!u) return this.text(res, 404, 'not found')
        return this.json(res, 200, { id: u.id, email: u.email, role: u.role })
      }
      case 'version':
        res.writeHead(200, { 'Content-Type': 'application/json' })
        // Hand-written by the manager, no newline; a version with control characters is escaped.
        res.end(`{"manager_version":${JSON.stringify(this.opts.version ?? 'v0.13.4')}}`)
        return
      case 'skills': {
        const cat = url.searchParams.get('category')
        const core = this.skillcore().filter((s) => cat === null || s.category === cat)
        const md = (this.opts.skillMd ?? DEFAULT_SKILL_MD).filter(
          (s) => (cat === null || s.category === cat) && !core.some((c) => c.key === s.key),
        )
        const items = [...core, ...md]
        return this.json(res, 200, { items, total: items.length })
      }
      case 'skill': {
        const s = this.skillcore().find((k) => k.key === decodeURIComponent(seg[4]))
        return s ? this.json(res, 200, s) : this.apiError(res, 404, 'not found', 'not-found')
      }
      case 'execute':
        return this.execute(req, res, decodeURIComponent(seg[4]), claims)
      case 'installed':
        return this.json(res, 200, {
          items: [...this.installed].reverse(),
          total: this.installed.length,
        })
      case 'registries':
        return this.json(res, 200, {
          items: [
            { name: 'ongrid-official', url: '', allowed: true },
            { name: 'local', url: '', allowed: true },
            ...(this.opts.devMode === false ? [] : [{ name: '<dev-mode>', url: '', allowed: true }]),
          ],
        })
      case 'uninstall': {
        if (!admin) return this.apiError(res, 403, 'forbidden', 'forbidden')
        const id = decodeURIComponent(seg[5])
        const at = this.installed.findIndex((p) => p.PackID === id)
        if (at >= 0) this.installed.splice(at, 1)
        res.writeHead(204)
        res.end()
        return
      }
      case 'bindings': {
        if (!admin) return this.apiError(res, 403, 'forbidden', 'forbidden')
        const raw = await this.body(req, 16 << 10)
        if (raw === null)
          return this.apiError(res, 400, 'invalid argument\nhttp: request body too large', 'invalid-argument')
        let b: { bindings?: Record<string, unknown> | null }
        try {
          b = JSON.parse(raw.toString())
        } catch (e) {
          return this.apiError(res, 400, `invalid argument\n${(e as Error).message}`, 'invalid-argument')
        }
        const p = this.installed.find((x) => x.PackID === decodeURIComponent(seg[5]))
        if (!p) return this.apiError(res, 404, 'not found', 'not-found')
        const kept: Record<string, string> = {}
        for (const [k, v] of Object.entries(b.bindings ?? {}).sort(([a], [c]) => (a < c ? -1 : 1))) {
          if (typeof v !== 'string') {
            return this.apiError(res, 400, 'invalid argument\njson: cannot unmarshal', 'invalid-argument')
          }
          if (k.trim() !== '' && v.trim() !== '') kept[k.trim()] = v.trim()
        }
        p.BindingsJSON = JSON.stringify(kept)
        return this.json(res, 200, { ok: true })
      }
      case 'install': {
        if (!admin) return this.apiError(res, 403, 'forbidden', 'forbidden')
        return this.apiError(
          res,
          400,
          'invalid argument: fetch: local path must be absolute, got "x"',
          'invalid-argument',
        )
      }
      case 'upload':
        return this.upload(req, res, claims)
    }
  }

  private async execute(req: http.IncomingMessage, res: http.ServerResponse, key: string, claims: Claims) {
    const raw = (await this.body(req)) ?? Buffer.alloc(0)
    let b: { edge_id?: unknown; params?: unknown } = {}
    try {
      if (raw.length === 0) throw new Error('EOF')
      b = JSON.parse(raw.toString())
      if (b.edge_id !== undefined && (typeof b.edge_id !== 'number' || b.edge_id < 0)) {
        throw new Error('json: cannot unmarshal into Go struct field')
      }
    } catch (e) {
      return this.apiError(res, 400, `invalid argument\n${(e as Error).message}`, 'invalid')
    }
    const s = this.skillcore().find((k) => k.key === key)
    if (!s) return this.apiError(res, 404, 'not found', 'not-found')
    const gate =
      s.class === 'dangerous'
        ? 'forbidden: dangerous skills require SOP signature (not implemented)'
        : s.class === 'mutating' && claims.role === 'viewer'
          ? 'forbidden: viewer role cannot run mutating skills'
          : s.class === 'mutating' && claims.role !== 'admin' && claims.role !== 'user'
            ? 'forbidden: mutating skills require admin or user role'
            : null
    if (gate) return this.apiError(res, 403, gate, 'forbidden')
    const edge = typeof b.edge_id === 'number' ? b.edge_id : 0
    if (s.scope === 'host' && edge === 0)
      return this.apiError(res, 400, 'invalid argument: edge_id required', 'invalid')
    this.executions.push({ key, edge_id: edge, role: claims.role, params: b.params })
    if (this.stallExecute) {
      this.stalled.add(res)
      res.on('close', () => {
        if (!res.writableEnded) this.cancelled.push(key)
      })
      return
    }
    const o = this.opts.outcomes?.[key] ?? { result: { ok: true } }
    if ('resultText' in o) {
      res.writeHead(200, { 'Content-Type': 'application/json' })
      res.end(`{"result":${o.resultText}}\n`)
      return
    }
    if ('transport' in o) {
      return this.apiError(
        res,
        500,
        `execute skill "${key}" on edge ${edge}: frontierbound: ${o.transport}`,
        'internal',
      )
    }
    return this.json(res, 200, o)
  }

  private async upload(req: http.IncomingMessage, res: http.ServerResponse, claims: Claims) {
    if (claims.role !== 'admin') return this.apiError(res, 403, 'forbidden', 'forbidden')
    const type = req.headers['content-type'] ?? ''
    const m = /^multipart\/form-data;\s*boundary=(.+)$/i.exec(type)
    if (!m) {
      return this.apiError(
        res,
        400,
        "invalid argument\nparse upload: request Content-Type isn't multipart/form-data",
        'invalid-argument',
      )
    }
    const raw = await this.body(req, 64 << 20)
    if (raw === null) {
      return this.apiError(
        res,
        400,
        'invalid argument\nparse upload: http: request body too large',
        'invalid-argument',
      )
    }
    const file = multipartFile(raw, m[1].replace(/^"|"$/g, ''))
    if (!file) {
      return this.apiError(
        res,
        400,
        "invalid argument\nmissing 'file' field: http: no such file",
        'invalid-argument',
      )
    }
    if (!/\.(tar\.gz|tgz)$/i.test(file.filename)) {
      return this.apiError(
        res,
        400,
        `invalid argument\nunsupported archive "${file.filename}" (need .zip / .tar.gz / .tgz / .tar)`,
        'invalid-argument',
      )
    }
    const entries = tarEntries(gunzipSync(file.data))
    const tops = new Set(entries.map((e) => e.name.split('/')[0]))
    const top = tops.size === 1 ? [...tops][0] : ''
    const at = (rel: string) => entries.find((e) => e.name === (top ? `${top}/${rel}` : rel))?.data
    const manifest = at('openclaw.plugin.json') ?? at('.claude-plugin/plugin.json')
    let packId: string
    let sha: string
    let version = '0.0.0'
    let display: string
    if (manifest) {
      const mf = JSON.parse(manifest.toString()) as { id?: string; name?: string; version?: string }
      packId = mf.id || mf.name || top
      display = mf.name ?? ''
      version = mf.version || version
      sha = createHash('sha256').update(manifest).digest('hex')
    } else {
      // A pack with no manifest is named after its root folder (§5.8, §9.9, §10.1).
      display = top.trim()
      packId = bareSkillsPackId(display)
      sha = createHash('sha256').update(`bare-skills:${packId}`).digest('hex')
    }
    if (this.installed.some((p) => p.PackID === packId)) {
      return this.apiError(
        res,
        409,
        `conflict: pack "${packId}" already installed (use Update or Uninstall first)`,
        'conflict',
      )
    }
    // Each SKILL.md (the root's, or skills/<name>/'s) by its frontmatter's name.
    const skills = entries
      .filter(
        (e) =>
          e.name === (top ? `${top}/SKILL.md` : 'SKILL.md') ||
          /(?:^|\/)skills\/[^/]+\/SKILL\.md$/.test(e.name),
      )
      .map((e) => /^name:\s*(\S+)\s*$/m.exec(e.data.toString())?.[1])
      .filter((s): s is string => s !== undefined)
    const capabilities = {
      pack_id: packId,
      version,
      skills: skills.length ? skills.map((name) => ({ name, scope: 'manager', tool_classes: null })) : null,
      agent_count: 0,
      summary: {},
    }
    const when = new Date(this.now * 1000).toISOString()
    const pack: Installed = {
      ID: this.nextId++,
      TenantID: 0,
      PackID: packId,
      DisplayName: display,
      Version: version,
      Source: 'local',
      SourceURL: '/tmp/ongrid-upload-1',
      InstallPath: `/var/lib/ongrid/skills/${packId}`,
      ManifestSHA256: sha,
      SignatureState: at('signature.json') ? 'verified' : 'unsigned',
      CapabilitiesJSON: JSON.stringify(capabilities),
      BindingsJSON: '',
      InstalledBy: claims.user_id,
      InstalledAt: when,
      UpdatedAt: when,
      DeletedAt: null,
      DeleteMarker: 0,
    }
    this.installed.push(pack)
    return this.json(res, 200, { pack, capabilities, warnings: null })
  }
}

/** The `file` part of a multipart body: its filename and bytes. */
function multipartFile(body: Buffer, boundary: string): { filename: string; data: Buffer } | null {
  const delim = Buffer.from(`--${boundary}`)
  let at = body.indexOf(delim)
  while (at >= 0) {
    const start = at + delim.length + 2
    const next = body.indexOf(delim, start)
    if (next < 0) break
    const part = body.subarray(start, next - 2)
    const headEnd = part.indexOf('\r\n\r\n')
    const head = part.subarray(0, headEnd).toString()
    const disposition = /^content-disposition:[ \t]*(.*)$/im.exec(head)?.[1] ?? ''
    const params = dispositionParams(disposition)
    const filename = params.get('filename')
    if (params.get('name') === 'file' && filename !== undefined)
      return { filename, data: part.subarray(headEnd + 4) }
    at = next
  }
  return null
}

/** bareSkillsPackID: lowercase letters and digits kept, other runs one `-`, none at the ends. */
function bareSkillsPackId(base: string): string {
  let out = ''
  for (const ch of base.toLowerCase()) {
    if (/^[a-z0-9]$/.test(ch)) out += ch
    else if (out !== '' && !out.endsWith('-')) out += '-'
  }
  out = out.replace(/^-+|-+$/g, '')
  return out === '' ? 'untitled-skill-pack' : out
}

/** The parameters of a Content-Disposition value, each a token or a quoted string (mime.ParseMediaType). */
function dispositionParams(value: string): Map<string, string> {
  const out = new Map<string, string>()
  const re =
    /;\s*([!#$%&'*+\-.^_`|~0-9A-Za-z]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([!#$%&'*+\-.^_`|~0-9A-Za-z]+))/g
  for (const m of value.matchAll(re)) {
    out.set(m[1].toLowerCase(), m[2] !== undefined ? m[2].replace(/\\(.)/g, '$1') : m[3])
  }
  return out
}

/** Regular files of a ustar archive, names with any leading `./` dropped. */
function tarEntries(tar: Buffer): { name: string; data: Buffer }[] {
  const out: { name: string; data: Buffer }[] = []
  for (let off = 0; off + 512 <= tar.length; ) {
    const h = tar.subarray(off, off + 512)
    if (h.every((b) => b === 0)) break
    const field = (a: number, n: number) =>
      h
        .subarray(a, a + n)
        .toString('latin1')
        .replace(/\0.*$/s, '')
    const prefix = field(345, 155)
    const name = (prefix ? `${prefix}/` : '') + field(0, 100)
    const size = Number.parseInt(field(124, 12).trim() || '0', 8)
    const type = field(156, 1)
    if (type === '0' || type === '') {
      out.push({ name: name.replace(/^\.\//, ''), data: tar.subarray(off + 512, off + 512 + size) })
    }
    off += 512 + Math.ceil(size / 512) * 512
  }
  return out
}

/** A self-signed certificate for 127.0.0.1 (and its key), made with openssl in `dir`. */
export function makeCertificate(dir: string): { key: string; cert: string; certFile: string } {
  const keyFile = join(dir, 'key.pem')
  const certFile = join(dir, 'cert.pem')
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      keyFile,
      '-out',
      certFile,
      '-days',
      '2',
      '-subj',
      '/CN=ongrid-test',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
    ],
    { stdio: 'ignore' },
  )
  return { key: readFileSync(keyFile, 'utf8'), cert: readFileSync(certFile, 'utf8'), certFile }
}
