import type { ChildProcessWithoutNullStreams } from 'node:child_process'
import { pathToFileURL } from 'node:url'
import {
  createMessageConnection,
  type MessageConnection,
  StreamMessageReader,
  StreamMessageWriter,
} from 'vscode-jsonrpc/node.js'
import { type CliOptions, startCli } from './cli.js'
import { waitFor } from './until.js'

/** A diagnostic as the server sends it (the fields the tests read). */
export interface Diag {
  range: { start: { line: number; character: number }; end: { line: number; character: number } }
  severity: number
  code?: string
  codeDescription?: { href: string }
  source?: string
  message: string
  data?: unknown
}

export interface LspClient {
  child: ChildProcessWithoutNullStreams
  conn: MessageConnection
  /** The last diagnostics published per URI, and how many times each was published. */
  diagnostics: Map<string, Diag[]>
  publishes: Map<string, number>
  stderr: () => string
  /** Waits until `uri` has been published more than `after` times and `cond` holds of its list. */
  waitDiagnostics(uri: string, cond?: (d: Diag[]) => boolean, after?: number, ms?: number): Promise<Diag[]>
  open(file: string, text: string, languageId?: string): Promise<void>
  change(file: string, text: string, version: number): Promise<void>
  /** The child's exit: code and signal. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
}

export const uri = (file: string) => pathToFileURL(file).href

/** Starts `ongrid-skill lsp --stdio` and initializes it with `root` as the workspace folder. */
export async function startLsp(
  root: string | null,
  o: CliOptions & { init?: Record<string, unknown>; processId?: number | null } = {},
): Promise<LspClient> {
  const child = startCli(['lsp', '--stdio'], { ...o, stdin: 'open' })
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  )
  let err = ''
  child.stderr.on('data', (c: Buffer) => {
    err += c.toString('utf8')
  })
  child.stdin.on('error', () => {})
  const conn = createMessageConnection(
    new StreamMessageReader(child.stdout),
    new StreamMessageWriter(child.stdin),
  )
  const diagnostics = new Map<string, Diag[]>()
  const publishes = new Map<string, number>()
  conn.onNotification('textDocument/publishDiagnostics', (p: { uri: string; diagnostics: Diag[] }) => {
    diagnostics.set(p.uri, p.diagnostics)
    publishes.set(p.uri, (publishes.get(p.uri) ?? 0) + 1)
  })
  conn.onRequest('client/registerCapability', () => null)
  conn.onNotification('window/logMessage', () => {})
  conn.onError(() => {})
  conn.listen()
  await conn.sendRequest('initialize', {
    processId: o.processId === undefined ? process.pid : o.processId,
    rootUri: root === null ? null : uri(root),
    workspaceFolders: root === null ? null : [{ uri: uri(root), name: 'root' }],
    capabilities: {
      workspace: { didChangeWatchedFiles: { dynamicRegistration: true } },
      textDocument: { publishDiagnostics: { versionSupport: true } },
    },
    initializationOptions: { debounceMs: 10, ...o.init },
  })
  await conn.sendNotification('initialized', {})
  const client: LspClient = {
    child,
    conn,
    diagnostics,
    publishes,
    stderr: () => err,
    exited,
    async waitDiagnostics(u, cond = () => true, after = 0, ms = 20_000) {
      const ok = await waitFor(() => (publishes.get(u) ?? 0) > after && cond(diagnostics.get(u) ?? []), ms)
      if (!ok)
        throw new Error(
          `no diagnostics for ${u} as expected (published ${publishes.get(u) ?? 0} times): ${JSON.stringify(diagnostics.get(u))}\n${err}`,
        )
      return diagnostics.get(u) ?? []
    },
    async open(file, text, languageId = 'json') {
      await conn.sendNotification('textDocument/didOpen', {
        textDocument: { uri: uri(file), languageId, version: 1, text },
      })
    },
    async change(file, text, version) {
      await conn.sendNotification('textDocument/didChange', {
        textDocument: { uri: uri(file), version },
        contentChanges: [{ text }],
      })
    },
  }
  return client
}

/** Shutdown, exit, and the child's exit code. */
export async function stopLsp(c: LspClient): Promise<number | null> {
  await c.conn.sendRequest('shutdown')
  await c.conn.sendNotification('exit')
  const { code } = await c.exited
  c.conn.dispose()
  return code
}

/** One message framed as the protocol sends it (Content-Length header, JSON body). */
export function frame(m: Record<string, unknown>): string {
  const body = JSON.stringify({ jsonrpc: '2.0', ...m })
  return `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
}

/** The messages in a server's output, unframed. */
export function unframe(out: Buffer): Array<Record<string, unknown>> {
  const messages: Array<Record<string, unknown>> = []
  let at = 0
  while (at < out.length) {
    const end = out.indexOf('\r\n\r\n', at)
    if (end < 0) break
    const n = Number(/Content-Length: (\d+)/i.exec(out.subarray(at, end).toString())?.[1])
    messages.push(JSON.parse(out.subarray(end + 4, end + 4 + n).toString()))
    at = end + 4 + n
  }
  return messages
}
