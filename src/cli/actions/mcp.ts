import { readFileSync, watch as watchFs } from 'node:fs'
import { createRequire } from 'node:module'
import type { Socket } from 'node:net'
import { dirname, join } from 'node:path'
import { auditStorePath } from '../../core/audit/dsn.js'
import { executedOutcome, executionRow, type LocalExecution } from '../../core/audit/local-store.js'
import { execute } from '../../core/executor/executor.js'
import { type GoString, toBuffer, toText } from '../../core/go/gostring.js'
import { nowNs } from '../../core/go/time/format.js'
import type { SkillClass } from '../../core/loader/build.js'
import { fifoBlocks, noToolsHints } from '../../core/loader/explain.js'
import { type LoaderEvent, loadDirs } from '../../core/loader/loader.js'
import { Registry } from '../../core/loader/registry.js'
import { loopbackPeerUid } from '../../core/loopback-peer.js'
import { MAX_MESSAGE_BYTES } from '../../core/mcp/frames.js'
import { Slots } from '../../core/mcp/slots.js'
import {
  bridgeParams,
  callOutcome,
  type McpTool,
  type NotServed,
  parseClasses,
  type Registered,
  selectTools,
  unknownToolError,
} from '../../core/mcp/tools.js'
import { packageRoot, packageVersion } from '../../core/package-root.js'
import { parseTimeoutText } from '../../core/timeout-flag.js'
import { envelope } from '../../ui/envelope.js'
import { loaderLineJson } from '../../ui/load-dirs.js'
import { terminalLine, terminalLineText } from '../../ui/terminal.js'
import type { AuditSink } from '../audit-sink.js'
import { EXIT, type InputOf, printJson, UserError } from '../errors.js'
import { collectGarbage } from '../gc.js'
import { managerReleaseOf, noteNotDefault } from '../manager-version.js'
import { BoundedStdioTransport } from '../mcp-stdio.js'
import { MAX_JOBS, PORT, parseNumberFlag } from '../number-flag.js'
import { dirsGiven, textPath } from '../os-bytes.js'
import { onStopSignals } from '../signals.js'
import { DEFAULT_JOBS, DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_IDLE_MS } from '../specs/defaults.js'
import type { mcpSpec as Mcp } from '../specs/mcp.js'

/** What is served now: replaced whole on a reload. */
interface ToolState {
  tools: McpTool[]
  byName: Map<string, McpTool>
}

/**
 * The loader over the dirs (its lines on stderr: stdout is the protocol), then the tools the
 * bridge would offer. A reload prints its lines again.
 */
function loadTools(dirs: readonly GoString[], classes: readonly SkillClass[], builtins: readonly GoString[]) {
  const registered: Registered[] = []
  const lines: GoString[] = []
  const events: LoaderEvent[] = []
  const relative: GoString[] = []
  loadDirs(dirs, {
    registry: new Registry(builtins),
    onBlocking: (fifo) =>
      process.stderr.write(
        toBuffer(`mcp: ${terminalLine(fifoBlocks(fifo), process.stderr.isTTY === true)}\n`),
      ),
    onEvent: (e) => {
      lines.push(e.message)
      events.push(e)
      if (e.kind === 'registered' && e.skill) registered.push({ skill: e.skill, parsed: e.parsed })
      if (e.kind === 'skip-non-absolute') relative.push(e.path)
    },
  })
  const { tools, skipped } = selectTools(registered, classes)
  return { tools, skipped, lines, events, registered: registered.length, relative }
}

/** No tool to serve: why, on stderr whatever else is asked (a client shows the user nothing). */
function whyNoTools(r: {
  tools: McpTool[]
  registered: number
  relative: GoString[]
  lines: GoString[]
}): void {
  if (r.tools.length > 0) return
  const tty = process.stderr.isTTY === true
  const hints = noToolsHints(r).map((h) => `mcp: hint: ${terminalLine(h, tty)}\n`)
  process.stderr.write(toBuffer(hints.join('')))
}

function printLoad(r: {
  lines: GoString[]
  skipped: NotServed[]
  tools: McpTool[]
  registered: number
  relative: GoString[]
}): void {
  const all = [...r.lines, ...r.skipped.map((s) => s.line)]
  const summary = `mcp: serving ${r.tools.length} tool${r.tools.length === 1 ? '' : 's'} (${r.registered} skill${r.registered === 1 ? '' : 's'} registered)`
  // The loader's lines, byte-exact when piped; on a terminal escaped (%q), a newline included.
  const tty = process.stderr.isTTY === true
  process.stderr.write(toBuffer(`${all.map((l) => `${terminalLine(l, tty)}\n`).join('')}${summary}\n`))
  whyNoTools(r)
}

function stateOf(tools: McpTool[]): ToolState {
  return { tools, byName: new Map(tools.map((t) => [t.name, t])) }
}

/** `tools/list` entries for a state. */
/** MCP's camelCase keys (`readOnlyHint`) in snake_case (`read_only_hint`), for --json. */
function snakeKeys(o: object | undefined): Record<string, unknown> | null {
  if (o === undefined) return null
  return Object.fromEntries(
    Object.entries(o).map(([k, v]) => [k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), v]),
  )
}

function listTools(state: ToolState) {
  return state.tools.map((t) => ({
    name: t.name,
    description: t.description,
    inputSchema: t.inputSchema as { type: 'object'; [k: string]: unknown },
    annotations: t.annotations,
  }))
}

/** The local audit store, opened on the first call; a store that cannot be opened is one warning. */
class CallAudit {
  private sink: Promise<AuditSink | null> | null = null
  constructor(private readonly path: string | undefined) {}

  private open(): Promise<AuditSink | null> {
    this.sink ??= (async () => {
      const { AuditSink } = await import('../audit-sink.js')
      const sink = await AuditSink.open(this.path)
      if (sink.failure === null) return sink
      process.stderr.write(
        `warning: audit store ${terminalLineText(`${sink.path}: ${sink.failure}`, process.stderr.isTTY === true)} (calls not recorded)\n`,
      )
      return null
    })()
    return this.sink
  }

  async record(call: LocalExecution): Promise<void> {
    const sink = await this.open()
    if (sink === null) return
    const out = sink.append(executionRow(call))
    if (!out.recorded) process.stderr.write(`warning: audit store: ${out.reason} (call not recorded)\n`)
  }

  async close(): Promise<void> {
    ;(await this.sink)?.close()
  }
}

/** JSON-RPC 2.0's Invalid params: the MCP spec's answer to a call of an unknown tool. */
const INVALID_PARAMS = -32602

/** `mcp [DIR...]`: serve the packs the manager would register, as its LLM bridge offers them. */
export async function mcpAction({ argv, flags }: InputOf<typeof Mcp>): Promise<number> {
  const { release } = await managerReleaseOf(flags)
  noteNotDefault(release, flags.json === true)
  // The bytes given, as the manager gets them (not Node's text of them).
  const dirs = dirsGiven(argv)
  const auditDb = auditStorePath(textPath('--audit-db', flags['audit-db']))
  const classes = parseClasses(flags.class ?? 'safe')
  if (typeof classes === 'string') throw new UserError(classes)
  const jobs = flags.jobs === undefined ? DEFAULT_JOBS : parseNumberFlag('jobs', flags.jobs, MAX_JOBS)
  const port = flags.http === undefined ? null : parseNumberFlag('http', flags.http, PORT)
  for (const f of ['session-idle', 'max-sessions'] as const) {
    if (flags[f] !== undefined && port === null) throw new UserError(`--${f}: only with --http`)
  }
  let idleMs = DEFAULT_SESSION_IDLE_MS
  if (flags['session-idle'] !== undefined) {
    const d = parseTimeoutText(flags['session-idle'])
    if (!d.ok || d.ns <= 0n) throw new UserError(`--session-idle: ${d.ok ? 'must be positive' : d.problem}`)
    idleMs = Math.max(1, Number(d.ns / 1_000_000n))
  }
  const maxSessions =
    flags['max-sessions'] === undefined
      ? DEFAULT_MAX_SESSIONS
      : parseNumberFlag('max-sessions', flags['max-sessions'], { min: 1 })

  const first = loadTools(dirs, classes, release.builtinSkillKeys)
  if (flags.json === true) {
    printJson(
      envelope('mcp', EXIT.ok, {
        dirs: dirs.map(toText),
        loader_lines: first.events.map(loaderLineJson),
        tools: listTools(stateOf(first.tools)).map((t) => ({
          name: t.name,
          description: t.description,
          // The skill's schema after the bridge's transformation, as tools/list gives it.
          input_schema: t.inputSchema,
          annotations: snakeKeys(t.annotations),
        })),
        skipped: first.skipped.map((s) => ({ name: toText(s.key), reason: s.reason, line: toText(s.line) })),
      }),
    )
    whyNoTools(first)
    return EXIT.ok
  }
  printLoad(first)

  const server = new McpHost(stateOf(first.tools), {
    jobs,
    audit: flags.audit === false ? null : new CallAudit(auditDb),
    listChanged: flags.watch === true,
  })
  if (flags.watch === true) {
    server.watch(dirs, () => {
      const again = loadTools(dirs, classes, release.builtinSkillKeys)
      printLoad(again)
      return again.tools
    })
  }
  return port === null ? await server.serveStdio() : await server.serveHttp({ port, idleMs, maxSessions })
}

interface HostOptions {
  jobs: number
  audit: CallAudit | null
  listChanged: boolean
}

interface HttpOptions {
  port: number
  idleMs: number
  maxSessions: number
}

type SdkServer = import('@modelcontextprotocol/sdk/server/index.js').Server
type Sdk = typeof import('../mcp-sdk.js')
type SdkHttp = typeof import('../mcp-http.js')

let sdkMemo: Promise<Sdk> | undefined
let httpMemo: Promise<SdkHttp> | undefined

/**
 * The SDK surface (cli/mcp-sdk.ts): from dist/bundle/mcp-sdk.js with V8's code cache when the
 * build made it (a rejected cache only costs the compile), else as ES modules (a tree that was not
 * built: the SDK is a devDependency, the package ships it only in the bundles).
 */
function loadSdk(): Promise<Sdk> {
  sdkMemo ??= loadBundle<Sdk>('mcp-sdk', () => import('../mcp-sdk.js'))
  return sdkMemo
}

/** Streamable HTTP (cli/mcp-http.ts), from dist/bundle/mcp-http.js the same way. */
function loadSdkHttp(): Promise<SdkHttp> {
  httpMemo ??= loadBundle<SdkHttp>('mcp-http', () => import('../mcp-http.js'))
  return httpMemo
}

async function loadBundle<T>(name: string, modules: () => Promise<T>): Promise<T> {
  const file = join(packageRoot(), 'dist', 'bundle', `${name}.js`)
  let source: string
  try {
    source = readFileSync(file, 'utf8')
  } catch {
    return await modules()
  }
  let cachedData: Buffer | undefined
  try {
    cachedData = readFileSync(join(dirname(file), `${name}.cache`))
  } catch {}
  const { Script } = createRequire(import.meta.url)('node:vm') as typeof import('node:vm')
  const script = new Script(source, { filename: file, cachedData })
  if (process.env.ONGRID_SKILL_DEBUG_LOAD)
    process.stderr.write(
      `ongrid-skill: MCP SDK from dist/bundle/${name}.js, code cache ${cachedData === undefined ? 'missing' : script.cachedDataRejected ? 'rejected' : 'accepted'}\n`,
    )
  const module = { exports: {} as T }
  script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file))
  return module.exports
}

/**
 * The tools and their calls, behind one or more MCP sessions (stdio has one; Streamable HTTP one
 * per client). The SDK is imported here, when a server starts, never by other commands.
 */
class McpHost {
  private readonly slots: Slots
  private readonly sessions = new Set<SdkServer>()
  /** Each call's abort: a shutdown aborts them all (each running entry's process group is killed). */
  private readonly aborts = new Set<AbortController>()
  private killed = false
  private readonly running = new Set<Promise<unknown>>()
  /** Called whenever the number of calls admitted (running or waiting for a slot) changes. */
  private onLoad: (() => void) | null = null
  private closers: (() => void)[] = []

  constructor(
    private state: ToolState,
    private readonly opts: HostOptions,
  ) {
    this.slots = new Slots(opts.jobs)
  }

  /** A new SDK server (one session) answering from the shared state. */
  private async newSession(): Promise<SdkServer> {
    const { Server, CallToolAsSentSchema, ListToolsRequestSchema } = await loadSdk()
    let version = '0.0.0'
    try {
      version = packageVersion()
    } catch {}
    const server = new Server(
      { name: 'ongrid-skill', version },
      {
        capabilities: { tools: { listChanged: this.opts.listChanged } },
        instructions:
          'Tools are ongrid skill packs, offered as the ongrid manager offers them to its LLM; each call runs the pack as the manager would.',
      },
    )
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listTools(this.state) }))
    server.setRequestHandler(CallToolAsSentSchema, async (req, extra) => {
      // The Server has checked these against CallToolRequestSchema: a string name, an object of arguments.
      const { name, arguments: args } = req.params as { name: string; arguments?: Record<string, unknown> }
      const call = this.call(name, args, extra.signal)
      this.running.add(call)
      this.onLoad?.()
      try {
        return await call
      } finally {
        this.running.delete(call)
        this.onLoad?.()
      }
    })
    this.sessions.add(server)
    server.onclose = () => this.sessions.delete(server)
    return server
  }

  private async call(name: string, args: Record<string, unknown> | undefined, signal: AbortSignal) {
    const tool = this.state.byName.get(name)
    // A JSON-RPC error (Invalid params), as the MCP spec has it for an unknown tool, with the
    // manager's text; the SDK answers with an error's numeric `code`.
    if (tool === undefined)
      throw Object.assign(new Error(toText(unknownToolError(name))), { code: INVALID_PARAMS })
    const params = bridgeParams(args)
    // Cancelled by the client, or the server going away: either kills the process group.
    const abort = new AbortController()
    const onAbort = () => abort.abort()
    signal.addEventListener('abort', onAbort, { once: true })
    if (this.killed) abort.abort()
    this.aborts.add(abort)
    try {
      await this.slots.acquire(abort.signal)
      try {
        const startedNs = nowNs()
        const result = await execute(tool.skill, params, {
          environ: process.env,
          signal: abort.signal,
          collectGarbage,
        })
        const finishedNs = nowNs()
        await this.opts.audit?.record({
          skill: tool.skill,
          callerRole: 'mcp',
          params: toText(params),
          ...executedOutcome(result),
          startedNs,
          finishedNs,
        })
        const out = callOutcome(result)
        return {
          content: [{ type: 'text' as const, text: out.text }],
          ...(out.structured !== undefined ? { structuredContent: out.structured } : {}),
          ...(out.isError ? { isError: true } : {}),
        }
      } finally {
        this.slots.release()
      }
    } finally {
      signal.removeEventListener('abort', onAbort)
      this.aborts.delete(abort)
    }
  }

  /** Replaces the tools; sessions hear `notifications/tools/list_changed` when the list differs. */
  replace(tools: McpTool[]): void {
    const before = JSON.stringify(listTools(this.state))
    this.state = stateOf(tools)
    if (JSON.stringify(listTools(this.state)) === before) return
    for (const s of this.sessions) {
      // Only to sessions past initialize: nothing else may reach a client before that.
      if (s.getClientCapabilities() !== undefined) s.sendToolListChanged().catch(() => {})
    }
  }

  /** Reloads when anything under the dirs changes (debounced), through `reload`. */
  watch(dirs: readonly GoString[], reload: () => McpTool[]): void {
    let timer: NodeJS.Timeout | undefined
    const changed = () => {
      clearTimeout(timer)
      timer = setTimeout(() => this.replace(reload()), 150)
    }
    for (const d of dirs) {
      try {
        const w = watchFs(toText(d), { recursive: true }, changed)
        w.on('error', () => {})
        this.closers.push(() => w.close())
      } catch (e) {
        process.stderr.write(
          toBuffer(
            `warning: --watch: ${terminalLine(d, process.stderr.isTTY === true)}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message} (not watched)\n`,
          ),
        )
      }
    }
    this.closers.push(() => clearTimeout(timer))
  }

  /** Until the client closes stdin (exit 0) or a stop signal (128 + its number): entries still running are then killed. */
  async serveStdio(): Promise<number> {
    const { JSONRPCMessageSchema } = await loadSdk()
    const server = await this.newSession()
    const done = this.until(() => {})
    // The transport does not notice the end of stdin itself. The client has closed its side:
    // calls under way still finish and answer (stdout is open), then the server exits.
    process.stdin.once('end', () => this.stop(false))
    process.stdin.once('close', () => this.stop(false))
    server.onclose = () => this.stop(false)
    // Requests piped in faster than calls end would pile up: past a bound, stdin is read no more
    // until the backlog is halved (a cancellation sent meanwhile waits behind it).
    const high = Math.max(64, this.opts.jobs * 4)
    let paused = false
    this.onLoad = () => {
      if (!paused && this.running.size >= high) {
        paused = true
        process.stdin.pause()
      } else if (paused && this.running.size <= high / 2) {
        paused = false
        process.stdin.resume()
      }
    }
    // Lines past MAX_MESSAGE_BYTES, or not JSON-RPC, are answered with an error and skipped.
    await server.connect(
      new BoundedStdioTransport(JSONRPCMessageSchema, (line) => process.stderr.write(`${line}\n`)),
    )
    const code = await done
    // Answers to the last calls are sent once their handlers return; then stdin is let go
    // (after a signal it is still open, and would keep the process alive).
    await new Promise((r) => setImmediate(r))
    await server.close()
    process.stdin.destroy()
    return code
  }

  /**
   * Streamable HTTP on 127.0.0.1 only, at /mcp, one SDK server per session. Refused before
   * anything is read: a connection from another user's process (Linux), with 403; a Host other than 127.0.0.1:PORT or localhost:PORT (DNS rebinding) and an
   * Origin other than those (a web page: browsers send it, other clients need not), with 403; a
   * body over MAX_MESSAGE_BYTES, with 413. A session without a request for `idleMs` (and none
   * open, such as a GET stream) is ended; past `maxSessions`, an initialize gets 503.
   */
  async serveHttp({ port, idleMs, maxSessions }: HttpOptions): Promise<number> {
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
          const server = await this.newSession()
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
    const done = this.until(() => {
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

  private stopping: ((kill: boolean) => void) | null = null
  /** 128 + the stop signal's number once one has stopped the server (0 until then). */
  private signalCode = 0

  /**
   * A promise of the exit code, settled once stopped and every call has ended. A stop signal
   * (SIGINT, SIGTERM, SIGHUP, SIGQUIT) stops with kill (running entries' process groups are
   * killed, their calls end within the WaitDelay) and the exit is 128 + its number; stop(false)
   * lets running calls finish (each within its timeout) and exits 0.
   */
  private until(cleanup: () => void): Promise<number> {
    return new Promise<number>((resolve) => {
      const offSignals = onStopSignals((_signal, code) => {
        this.signalCode = code
        this.stop(true)
      })
      this.stopping = () => {
        for (const c of this.closers) c()
        cleanup()
        const settle = (): Promise<void> => {
          const now = [...this.running]
          if (now.length === 0) return Promise.resolve()
          return Promise.allSettled(now).then(settle)
        }
        settle()
          .then(() => this.opts.audit?.close())
          .finally(() => {
            offSignals()
            resolve(this.signalCode || EXIT.ok)
          })
      }
    })
  }

  stop(kill: boolean): void {
    if (kill && !this.killed) {
      this.killed = true
      for (const a of this.aborts) a.abort()
    }
    const s = this.stopping
    this.stopping = null
    s?.(kill)
  }
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
