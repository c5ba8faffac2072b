/**
 * `ongrid-skill lsp`: the Language Server Protocol over stdio. Diagnostics are `lint`'s, on the
 * unsaved text (the open documents' buffers, `core/overlay.ts`), recomputed after a pause in typing and when files they
 * depend on change on disk (`workspace/didChangeWatchedFiles`). The connection ends the process
 * when its input closes, on `exit` (once the answers written before are out), or when the client's
 * process is gone (checked every 3 s).
 */
import { chmodSync } from 'node:fs'
import { PassThrough } from 'node:stream'
import { fileURLToPath, pathToFileURL } from 'node:url'
import {
  CodeActionKind,
  type Connection,
  createConnection,
  type Diagnostic,
  DidChangeWatchedFilesNotification,
  ErrorCodes,
  type InitializeParams,
  MessageType,
  ResponseError,
  type ResponseMessage,
  ShowMessageNotification,
  StreamMessageReader,
  StreamMessageWriter,
  TextDocumentSyncKind,
  TextDocuments,
} from 'vscode-languageserver/node.js'
import { TextDocument } from 'vscode-languageserver-textdocument'
import { fromText, type GoString } from '../core/go/gostring.js'
import { ruleDocs } from '../core/lint/registry.js'
import { chooseManagerRelease, MANAGER_VERSION_ENV, managerRelease } from '../core/releases/release.js'
import { codeActions, FIX_ALL_KIND, SET_MODE_COMMAND } from './actions.js'
import { diagnoseScope, type Shown, SOURCE, scopeDir, scopeOf } from './diagnostics.js'
import { complete, hover, links } from './features.js'
import { type Bad, isNotification, MAX_MESSAGE_BYTES, MessageFramer, type Oversized } from './framing.js'
import { commandArgv, lenses, RUN_COMMAND, runCli, TEST_COMMAND } from './lenses.js'

/** Queued behind the client's messages when its input ends, and for its `exit` (see startServer). */
const INPUT_ENDED = '$/ongrid-skill/inputEnded'
const EXIT = '$/ongrid-skill/exit'
/** Queued in the place of a frame that was not read (framing.ts: too large, or not a message). */
const NOT_READ = '$/ongrid-skill/notRead'

function frame(method: string, params?: unknown): string {
  const body = JSON.stringify({ jsonrpc: '2.0', method, ...(params === undefined ? {} : { params }) })
  return `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
}

/** JSON-RPC's codes for a message that could not be parsed, and for one that is not a request. */
const PARSE_ERROR = -32700
const INVALID_REQUEST = -32600

const MIB = 1024 * 1024

/** The one diagnostic of a document whose text the server did not read. */
function tooLargeDiagnostic(bytes: number): Diagnostic {
  return {
    range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
    severity: 1,
    source: SOURCE,
    message: `not checked: the editor sent this document in a message of ${bytes} bytes, over the ${MAX_MESSAGE_BYTES / MIB} MiB the server reads`,
  }
}

/** Pause after the last change before the checks run again. */
export const DEFAULT_DEBOUNCE_MS = 75

/** Files the server reads as text it may be given unsaved. */
export function isServedPath(file: string): boolean {
  return (
    /(^|\/)(skill\.json|SKILL\.md|\.ongrid-skill\.ya?ml)$/.test(file) ||
    /(^|\/)tests\/[^/]+\.json$/.test(file)
  )
}

function pathOf(uri: string): string | null {
  if (!uri.startsWith('file:')) return null
  try {
    return fileURLToPath(uri)
  } catch {
    return null
  }
}

export interface ServerOptions {
  input: NodeJS.ReadableStream
  output: NodeJS.WritableStream
  debounceMs?: number
}

export function startServer(opts: ServerOptions): Connection {
  // The input goes through a stream of ours, whole messages only (framing.ts): when it ends, one
  // more message is queued behind the ones read, and handled after them (a shutdown and exit sent
  // just before the end are honoured; a message cut short by the end is dropped, never waited
  // for). The library's own reaction to the end would leave the queued messages to a closed
  // connection. `exit` is queued as ours too: both leave once the answers written before them are
  // out (the library's exit would drop those still queued, such as shutdown's when piped).
  // A frame the server cannot read is answered in its place in the queue (NOT_READ): a document
  // sent in a message over the bound is closed (its text is not the editor's any more) and gets
  // one diagnostic saying so.
  const input = new PassThrough()
  const framer = new MessageFramer()
  opts.input.on('data', (chunk: Buffer | string) => {
    for (const m of framer.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk)) {
      if (Buffer.isBuffer(m)) input.write(isNotification(m, 'exit') ? frame(EXIT) : m)
      else {
        if (m.kind === 'oversized' && m.uri !== null && m.id === null)
          input.write(frame('textDocument/didClose', { textDocument: { uri: m.uri } }))
        input.write(frame(NOT_READ, m))
      }
    }
  })
  let ended = false
  const onEnd = () => {
    if (ended) return
    ended = true
    input.write(frame(INPUT_ENDED))
  }
  opts.input.on('end', onEnd)
  opts.input.on('close', onEnd)
  let shutdown = false
  const writer = new StreamMessageWriter(opts.output)
  /** The last message given to the writer: it writes them in order. */
  let written: Promise<void> = Promise.resolve()
  const write = writer.write.bind(writer)
  writer.write = (m) => {
    written = write(m)
    return written
  }
  const connection = createConnection(new StreamMessageReader(input), writer)
  // shutdown is answered once the checks under way or due have published (at most 5 s): a client
  // that piped its last changes then sees their diagnostics before the answer.
  let settling: Promise<unknown> = Promise.resolve()
  const settled = async () => {
    while (timer !== null || draining) await new Promise((r) => setTimeout(r, 5))
  }
  connection.onShutdown(async () => {
    shutdown = true
    settling = Promise.race([settled(), new Promise((r) => setTimeout(r, 5000).unref())])
    await settling
  })
  const leave = async () => {
    const code = shutdown ? 0 : 1
    await settling
    // shutdown's answer is given to the writer in the microtasks after its handler: let them run.
    await new Promise((r) => setImmediate(r))
    await written.catch(() => {})
    process.exit(code)
  }
  connection.onNotification(INPUT_ENDED, () => void leave())
  connection.onNotification(EXIT, () => void leave())
  const documents = new TextDocuments(TextDocument)
  /** The open documents' text (absolute path, a byte string → its bytes), read instead of the disk. */
  const buffers = new Map<GoString, Buffer>()
  /** URI → the size of the message its text came in, when over the bound: shown instead of findings. */
  const tooLarge = new Map<string, number>()
  connection.onNotification(NOT_READ, (m: Oversized | Bad) => {
    const answer = (id: string | number | null, code: number, message: string) =>
      void writer.write({ jsonrpc: '2.0', id, error: { code, message } } as ResponseMessage)
    if (m.kind === 'bad') {
      answer(null, PARSE_ERROR, `Parse error: ${m.reason}`)
      return
    }
    const over = `a message of ${m.bytes} bytes, over the ${MAX_MESSAGE_BYTES / MIB} MiB the server reads`
    if (m.id !== null) answer(m.id, INVALID_REQUEST, `${m.method ?? 'request'}: not read: ${over}`)
    else if (m.uri !== null) {
      tooLarge.set(m.uri, m.bytes)
      void connection.sendDiagnostics({ uri: m.uri, diagnostics: [tooLargeDiagnostic(m.bytes)] })
    } else connection.console.error(`${m.method ?? 'a notification'}: not read: ${over}`)
  })
  let folders: string[] = []
  let debounceMs = opts.debounceMs ?? DEFAULT_DEBOUNCE_MS
  let release = managerRelease()
  /** Scope → the files it last published diagnostics for. */
  const published = new Map<string, Set<string>>()
  /** URI → the diagnostics last sent for it (hover shows their rules' docs). */
  const shown = new Map<string, Diagnostic[]>()
  /** File → the findings behind its diagnostics, and the version of the text they were found in. */
  const behind = new Map<string, { version: number | null; shown: Shown[] }>()
  const pending = new Set<string>()
  let timer: NodeJS.Timeout | null = null
  let draining = false

  const uriOf = (file: string): string => {
    const url = pathToFileURL(file).href
    return documents.get(url) === undefined
      ? (documents.all().find((d) => pathOf(d.uri) === file)?.uri ?? url)
      : url
  }

  const runScope = async (scope: string) => {
    const versions = new Map(documents.all().map((d) => [pathOf(d.uri), d.version]))
    const { files, findings, failure } = await diagnoseScope(scope, buffers, release)
    if (failure !== null) connection.console.log(`${scope}: ${failure}`)
    const before = published.get(scope) ?? new Set<string>()
    for (const file of before) if (!files.has(file)) files.set(file, [])
    const now = new Set<string>()
    for (const [file, diagnostics] of files) {
      if (diagnostics.length > 0) now.add(file)
      const uri = uriOf(file)
      const doc = documents.get(uri)
      const big = tooLarge.get(uri)
      if (big !== undefined) {
        await connection.sendDiagnostics({ uri, diagnostics: [tooLargeDiagnostic(big)] })
        continue
      }
      if (diagnostics.length > 0) shown.set(uri, diagnostics)
      else shown.delete(uri)
      behind.set(file, { version: versions.get(file) ?? null, shown: findings.get(file) ?? [] })
      await connection.sendDiagnostics({
        uri,
        diagnostics: diagnostics as Diagnostic[],
        ...(doc ? { version: doc.version } : {}),
      })
    }
    published.set(scope, now)
  }

  const drain = async () => {
    while (pending.size > 0) {
      const scopes = [...pending]
      pending.clear()
      for (const s of scopes) {
        try {
          await runScope(s)
        } catch (e) {
          connection.console.error(`${s}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`)
        }
      }
    }
    draining = false
  }

  const schedule = (scope: string) => {
    pending.add(scope)
    if (timer !== null) clearTimeout(timer)
    timer = setTimeout(() => {
      timer = null
      if (!draining) {
        draining = true
        void drain()
      }
    }, debounceMs)
  }

  const scheduleFile = (file: string) => schedule(scopeOf(file, folders))

  const syncOverlay = (doc: TextDocument, open: boolean) => {
    const file = pathOf(doc.uri)
    if (file === null || !isServedPath(file)) return null
    if (open) buffers.set(fromText(file), Buffer.from(doc.getText(), 'utf8'))
    else buffers.delete(fromText(file))
    return file
  }

  connection.onInitialize((params: InitializeParams) => {
    const given = params.workspaceFolders?.map((f) => pathOf(f.uri)) ?? [
      params.rootUri ? pathOf(params.rootUri) : (params.rootPath ?? null),
    ]
    folders = given.filter((f): f is string => f !== null).map((f) => f.replace(/\/+$/, '') || '/')
    const o = params.initializationOptions as { debounceMs?: unknown; managerVersion?: unknown } | undefined
    if (typeof o?.debounceMs === 'number' && o.debounceMs >= 0) debounceMs = o.debounceMs
    // The manager release answered for: the setting, else ONGRID_MANAGER_VERSION, else the newest.
    try {
      const flag = typeof o?.managerVersion === 'string' ? o.managerVersion : undefined
      release = chooseManagerRelease({ flag, env: process.env[MANAGER_VERSION_ENV] }).release
    } catch (e) {
      return new ResponseError(
        ErrorCodes.InvalidParams,
        (e as Error).message.replace('--manager-version', 'managerVersion'),
      )
    }
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
        hoverProvider: true,
        completionProvider: { triggerCharacters: ['"', ':', ' '] },
        documentLinkProvider: {},
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, FIX_ALL_KIND] },
        executeCommandProvider: { commands: [SET_MODE_COMMAND, RUN_COMMAND, TEST_COMMAND] },
        codeLensProvider: {},
      },
      serverInfo: { name: 'ongrid-skill' },
    }
  })

  connection.onInitialized(() => {
    // Files the findings depend on (entries, their modes, other packs): watched by the client.
    connection.client
      .register(DidChangeWatchedFilesNotification.type, { watchers: [{ globPattern: '**/*' }] })
      .catch(() => {})
  })

  documents.onDidOpen((e) => {
    tooLarge.delete(e.document.uri)
    const file = syncOverlay(e.document, true)
    if (file !== null) scheduleFile(file)
  })
  documents.onDidChangeContent((e) => {
    const file = syncOverlay(e.document, true)
    if (file !== null) scheduleFile(file)
  })
  documents.onDidClose((e) => {
    tooLarge.delete(e.document.uri)
    const file = syncOverlay(e.document, false)
    if (file !== null) scheduleFile(file)
  })

  connection.onDidChangeWatchedFiles((e) => {
    // A scope already checked is checked again when a file inside it changes on disk: an entry
    // (its mode), another pack (a duplicate name), a config, a case file not open.
    for (const c of e.changes) {
      const file = pathOf(c.uri)
      if (file === null) continue
      for (const s of published.keys()) {
        const d = scopeDir(s)
        if (d === '/' || file === d || file.startsWith(`${d}/`)) schedule(s)
      }
    }
  })

  // window/showMessage, a notification (window.show*Message sends a request, which awaits a click).
  const show = (type: MessageType, message: string) => {
    void connection.sendNotification(ShowMessageNotification.type, { type, message })
  }
  const served = (uri: string) => {
    const doc = documents.get(uri)
    const file = doc ? pathOf(uri) : null
    return doc && file !== null ? { doc, file } : null
  }
  connection.onHover((p) => {
    const s = served(p.textDocument.uri)
    return s === null ? null : hover(s.doc, s.file, p.position, shown.get(p.textDocument.uri) ?? [], ruleDocs)
  })
  connection.onCompletion((p) => {
    const s = served(p.textDocument.uri)
    return s === null ? [] : complete(s.doc, s.file, p.position, process.env, release)
  })
  connection.onDocumentLinks((p) => {
    const s = served(p.textDocument.uri)
    return s === null ? [] : links(s.doc, s.file)
  })

  connection.onCodeAction((p) => {
    const s = served(p.textDocument.uri)
    const b = s === null ? undefined : behind.get(s.file)
    // Offsets of findings from another text than the one shown are not offered.
    if (s === null || b === undefined || b.version !== s.doc.version) return []
    return codeActions(
      s.file,
      b.shown,
      p.context.diagnostics,
      p.context.only,
      (file) => {
        const doc = documents.get(uriOf(file))
        return doc === undefined ? undefined : { uri: doc.uri, version: doc.version }
      },
      buffers,
    )
  })
  connection.onCodeLens((p) => {
    const s = served(p.textDocument.uri)
    return s === null ? [] : lenses(s.doc, s.file)
  })
  connection.onExecuteCommand(async (p) => {
    if (p.command === RUN_COMMAND || p.command === TEST_COMMAND) {
      const argv = commandArgv(p.command, p.arguments ?? [])
      if (argv === null) return null
      const shown = `ongrid-skill ${argv.map((a) => (/^[\w./:=^$-]+$/.test(a) ? a : JSON.stringify(a))).join(' ')}`
      connection.console.log(`$ ${shown}`)
      const { code, output } = await runCli(argv, argv[1])
      connection.console.log(output)
      const last = output.trimEnd().split('\n').at(-1) ?? ''
      const text = `${shown}: exit ${code ?? 'killed'}${last ? ` — ${last}` : ''}`
      show(code === 0 ? MessageType.Info : MessageType.Error, text)
      return { code, output }
    }
    if (p.command !== SET_MODE_COMMAND) return null
    const [file, mode] = (p.arguments ?? []) as [unknown, unknown]
    // Only a mode a finding shown now offers, on the file it names.
    const offered = [...behind.values()].some((b) =>
      b.shown.some((x) => x.finding.fix?.file === file && x.finding.fix?.mode === mode),
    )
    if (!offered || typeof file !== 'string' || typeof mode !== 'number') return null
    try {
      chmodSync(file, mode)
    } catch (e) {
      show(MessageType.Error, `ongrid-skill: chmod ${file}: ${(e as Error).message}`)
    }
    scheduleFile(file)
    return null
  })

  documents.listen(connection)
  connection.listen()
  return connection
}
