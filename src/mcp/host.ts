/**
 * The MCP server: the tools and their calls (slots, aborts, the audit record), the sessions that
 * see them, a reload on change (--watch), stdio, and the stop on a signal or the client's end.
 */

import { watch as watchFs } from 'node:fs'
import { executedOutcome, type LocalExecution } from '../core/audit/local-store.js'
import { EXIT } from '../core/errors.js'
import { execute } from '../core/executor/executor.js'
import { type GoString, toBuffer, toText } from '../core/go/gostring.js'
import { nowNs } from '../core/go/time/format.js'
import { bridgeParams, callOutcome, type McpTool, unknownToolError } from '../core/mcp/tools.js'
import { packageVersion } from '../core/package-root.js'
import { terminalLine } from '../ui/terminal.js'
import { loadSdk, type SdkServer } from './sdk-load.js'
import { Slots } from './slots.js'
import { BoundedStdioTransport } from './stdio.js'

/** What is served now: replaced whole on a reload. */
export interface ToolState {
  tools: McpTool[]
  byName: Map<string, McpTool>
}

export function stateOf(tools: McpTool[]): ToolState {
  return { tools, byName: new Map(tools.map((t) => [t.name, t])) }
}

/** `tools/list` entries for a state. */
export function listTools(state: ToolState) {
  return state.tools.map((t) => ({
    name: t.name,
    description: t.description,
    inputSchema: t.inputSchema as { type: 'object'; [k: string]: unknown },
    annotations: t.annotations,
  }))
}

/** JSON-RPC 2.0's Invalid params: the MCP spec's answer to a call of an unknown tool. */
const INVALID_PARAMS = -32602

export interface HostOptions {
  /** Calls running at once; more wait for a slot. */
  jobs: number
  /** Where each call is recorded (the local audit store), or nowhere. */
  audit: CallRecorder | null
  /** Whether sessions hear `notifications/tools/list_changed` (--watch). */
  listChanged: boolean
  /** The executor's hook for output dropped past a cap (a process-wide V8 flag: the CLI's to set). */
  collectGarbage: () => void
  /** Calls `onStop` on a stop signal with its exit code; returns what removes the handlers (the CLI's). */
  onStopSignals: (onStop: (signal: string, code: number) => void) => () => void
}

/** Where calls are recorded: opened on the first, closed once the server has stopped. */
export interface CallRecorder {
  record(call: LocalExecution): Promise<void>
  close(): Promise<void>
}

/**
 * The tools and their calls, behind one or more MCP sessions (stdio has one; Streamable HTTP one
 * per client, mcp/http.ts). The SDK is imported when a server starts, never by other commands.
 */
export class McpHost {
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
  async newSession(): Promise<SdkServer> {
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
          collectGarbage: this.opts.collectGarbage,
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

  private stopping: ((kill: boolean) => void) | null = null
  /** 128 + the stop signal's number once one has stopped the server (0 until then). */
  private signalCode = 0

  /**
   * A promise of the exit code, settled once stopped and every call has ended. A stop signal
   * (SIGINT, SIGTERM, SIGHUP, SIGQUIT) stops with kill (running entries' process groups are
   * killed, their calls end within the WaitDelay) and the exit is 128 + its number; stop(false)
   * lets running calls finish (each within its timeout) and exits 0.
   */
  until(cleanup: () => void): Promise<number> {
    return new Promise<number>((resolve) => {
      const offSignals = this.opts.onStopSignals((_signal, code) => {
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
