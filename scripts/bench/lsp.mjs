// The `lsp` figures: the protocol as an editor sends it, framed (Content-Length), and the
// diagnostics latency measured by a client that waits for each publish (lsp-latency-driver.mjs).
import { readFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { pathToFileURL } from 'node:url'

const frame = (m) => {
  const body = JSON.stringify({ jsonrpc: '2.0', ...m })
  return `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
}

/** A skill.json text for edit `i` (each differs, each valid, each with findings). */
export function editText(i) {
  return JSON.stringify(
    {
      name: 'bench_lsp',
      description: `A bench skill, edit ${i} of many: says what it does.`,
      entry: 'run.sh',
    },
    null,
    2,
  )
}

/**
 * The messages of an editor session: initialize (no pause: every change is checked), open the
 * skill.json, `edits` changes, shutdown, exit.
 */
export function lspInput(file, edits) {
  const uri = pathToFileURL(file).href
  let s =
    frame({
      id: 1,
      method: 'initialize',
      params: {
        processId: null,
        rootUri: pathToFileURL(dirname(dirname(file))).href,
        capabilities: {},
        initializationOptions: { debounceMs: 0 },
      },
    }) + frame({ method: 'initialized', params: {} })
  s += frame({
    method: 'textDocument/didOpen',
    params: { textDocument: { uri, languageId: 'json', version: 1, text: editText(0) } },
  })
  for (let i = 1; i <= edits; i++)
    s += frame({
      method: 'textDocument/didChange',
      params: { textDocument: { uri, version: i + 1 }, contentChanges: [{ text: editText(i) }] },
    })
  return s + frame({ id: 2, method: 'shutdown' }) + frame({ method: 'exit' })
}

/** The messages the server wrote, unframed. */
function messages(path) {
  const out = []
  const b = readFileSync(path)
  let at = 0
  while (at < b.length) {
    const end = b.indexOf('\r\n\r\n', at)
    if (end < 0) break
    const n = Number(/Content-Length: (\d+)/i.exec(b.subarray(at, end).toString())?.[1])
    out.push(JSON.parse(b.subarray(end + 4, end + 4 + n).toString()))
    at = end + 4 + n
  }
  return out
}

/** The shutdown answered, and the file's findings published (the last one of the last text). */
export function checkLspSession(stdoutPath, file) {
  const ms = messages(stdoutPath)
  if (!ms.some((m) => m.id === 2 && 'result' in m)) return 'no answer to shutdown'
  const uri = pathToFileURL(file).href
  const pub = ms.filter((m) => m.method === 'textDocument/publishDiagnostics' && m.params.uri === uri)
  if (pub.length === 0) return 'no diagnostics published'
  if (!pub.at(-1).params.diagnostics.some((d) => d.code === 'practice/class-unset'))
    return 'the last diagnostics miss practice/class-unset'
  return null
}

/** The latency driver's report: its median within `max` seconds. */
export function checkLspLatency(stdoutPath, max) {
  const r = JSON.parse(readFileSync(stdoutPath, 'utf8'))
  if (!(r.changes > 0)) return 'no change measured'
  return r.median <= max
    ? null
    : `diagnostics ${(r.median * 1000).toFixed(1)} ms after a change (median), over ${max * 1000} ms`
}
