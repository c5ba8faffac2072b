/** `mcp`: its flags, what --json prints, and the server started (src/mcp/). */

import { auditStorePath } from '../../core/audit/dsn.js'
import { executionRow, type LocalExecution } from '../../core/audit/local-store.js'
import { toText } from '../../core/go/gostring.js'
import { parseClasses } from '../../core/mcp/tools.js'
import { parseTimeoutText } from '../../core/timeout-flag.js'
import { type CallRecorder, listTools, McpHost, stateOf } from '../../mcp/host.js'
import { serveHttp } from '../../mcp/http.js'
import { loadTools, printLoad, whyNoTools } from '../../mcp/load.js'
import { envelope } from '../../ui/envelope.js'
import { loaderLineJson } from '../../ui/load-dirs.js'
import { terminalLineText } from '../../ui/terminal.js'
import type { AuditSink } from '../audit-sink.js'
import { EXIT, type InputOf, printJson, UserError } from '../errors.js'
import { collectGarbage } from '../gc.js'
import { managerReleaseOf, noteNotDefault } from '../manager-version.js'
import { MAX_JOBS, PORT, parseNumberFlag } from '../number-flag.js'
import { dirsGiven, textPath } from '../os-bytes.js'
import { onStopSignals } from '../signals.js'
import { DEFAULT_JOBS, DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_IDLE_MS } from '../specs/defaults.js'
import type { mcpSpec as Mcp } from '../specs/mcp.js'

/** MCP's camelCase keys (`readOnlyHint`) in snake_case (`read_only_hint`), for --json. */
function snakeKeys(o: object | undefined): Record<string, unknown> | null {
  if (o === undefined) return null
  return Object.fromEntries(
    Object.entries(o).map(([k, v]) => [k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), v]),
  )
}

/** The local audit store, opened on the first call; a store that cannot be opened is one warning. */
class CallAudit implements CallRecorder {
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
    collectGarbage,
    onStopSignals,
  })
  if (flags.watch === true) {
    server.watch(dirs, () => {
      const again = loadTools(dirs, classes, release.builtinSkillKeys)
      printLoad(again)
      return again.tools
    })
  }
  return port === null ? await server.serveStdio() : await serveHttp(server, { port, idleMs, maxSessions })
}
