// node lsp-latency-driver.mjs BIN SKILL_JSON CHANGES — starts `BIN lsp` with no pause after a
// change, sends CHANGES edits one at a time, each after the diagnostics of the one before, and
// prints {changes, median, p95} in seconds: from sending a change to receiving its diagnostics.
import { spawn } from 'node:child_process'
import { dirname } from 'node:path'
import { pathToFileURL } from 'node:url'
import { editText } from './lsp.mjs'

const [bin, file, count] = process.argv.slice(2)
const changes = Number(count)
const child = spawn(process.execPath, [bin, 'lsp', '--stdio'], { stdio: ['pipe', 'pipe', 'inherit'] })
const uri = pathToFileURL(file).href
const send = (m) => {
  const body = JSON.stringify({ jsonrpc: '2.0', ...m })
  child.stdin.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`)
}
let buf = Buffer.alloc(0)
let waiting = null
child.stdout.on('data', (c) => {
  buf = Buffer.concat([buf, c])
  for (;;) {
    const end = buf.indexOf('\r\n\r\n')
    if (end < 0) return
    const n = Number(/Content-Length: (\d+)/i.exec(buf.subarray(0, end).toString())?.[1])
    if (buf.length < end + 4 + n) return
    const m = JSON.parse(buf.subarray(end + 4, end + 4 + n).toString())
    buf = buf.subarray(end + 4 + n)
    if (
      m.method === 'textDocument/publishDiagnostics' &&
      m.params.uri === uri &&
      m.params.version === waiting?.version
    )
      waiting.resolve()
    if (m.id === 1 && 'result' in m) ready()
  }
})
const published = (version) =>
  new Promise((resolve) => {
    waiting = { version, resolve }
  })
let ready
await new Promise((r) => {
  ready = r
  send({
    id: 1,
    method: 'initialize',
    params: {
      processId: process.pid,
      rootUri: pathToFileURL(dirname(dirname(file))).href,
      capabilities: {},
      initializationOptions: { debounceMs: 0 },
    },
  })
})
send({ method: 'initialized', params: {} })
let p = published(1)
send({
  method: 'textDocument/didOpen',
  params: { textDocument: { uri, languageId: 'json', version: 1, text: editText(0) } },
})
await p
const times = []
for (let i = 1; i <= changes; i++) {
  p = published(i + 1)
  const t0 = process.hrtime.bigint()
  send({
    method: 'textDocument/didChange',
    params: { textDocument: { uri, version: i + 1 }, contentChanges: [{ text: editText(i) }] },
  })
  await p
  times.push(Number(process.hrtime.bigint() - t0) / 1e9)
}
send({ id: 2, method: 'shutdown' })
send({ method: 'exit' })
times.sort((a, b) => a - b)
process.stdout.write(
  `${JSON.stringify({ changes, median: times[Math.floor(times.length / 2)], p95: times[Math.floor(times.length * 0.95)] })}\n`,
)
