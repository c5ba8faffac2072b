import assert from 'node:assert/strict'
import { PassThrough, Writable } from 'node:stream'
import { describe, mock, test } from 'node:test'
import { isNotification, MessageFramer } from '../../src/lsp/framing.js'
import { startServer } from '../../src/lsp/server.js'
import { frame, unframe } from '../helpers/lsp.js'
import { until, waitFor } from '../helpers/until.js'

const init = frame({
  id: 1,
  method: 'initialize',
  params: { processId: null, rootUri: null, capabilities: {} },
})
const session = init + frame({ method: 'initialized', params: {} }) + frame({ id: 2, method: 'shutdown' })

describe('MessageFramer', () => {
  test('passes whole messages only, however the bytes are cut, and holds the rest', () => {
    const a = frame({ method: 'a' })
    const b = frame({ id: 7, method: 'é' })
    const bytes = Buffer.from(a + b + frame({ method: 'c' }).slice(0, 30))
    for (let cut = 0; cut <= bytes.length; cut++) {
      const f = new MessageFramer()
      const got = [...f.push(bytes.subarray(0, cut)), ...f.push(bytes.subarray(cut))]
      assert.deepEqual(
        got.map((m) => m.toString()),
        [a, b],
        `cut at ${cut}`,
      )
    }
  })

  test('isNotification: by the parsed body, not by the text', () => {
    assert.equal(isNotification(Buffer.from(frame({ method: 'exit' })), 'exit'), true)
    assert.equal(isNotification(Buffer.from(frame({ id: 3, method: 'exit' })), 'exit'), false)
    assert.equal(isNotification(Buffer.from(frame({ method: 'x', params: { a: 'exit' } })), 'exit'), false)
  })
})

/** The server in this process, its output written only when `release()` is called, exits recorded. */
function serve(t: { after: (fn: () => void) => void }) {
  const log: string[] = []
  const exit = mock.method(process, 'exit', ((code?: number) => {
    log.push(`exit ${code}`)
  }) as typeof process.exit)
  t.after(() => exit.mock.restore())
  let held: Array<() => void> | null = []
  const out: Buffer[] = []
  let seen = 0
  const output = new Writable({
    write(chunk: Buffer, _enc, cb) {
      const done = () => {
        out.push(chunk)
        // The writer writes a message's header and its body apart: log the messages now whole.
        const whole = Buffer.concat(out)
        const end = whole.lastIndexOf('\r\n\r\n')
        const n = Number(/Content-Length: (\d+)/.exec(whole.toString('latin1', end - 30, end))?.[1])
        if (end >= 0 && whole.length === end + 4 + n) {
          for (const m of unframe(whole).slice(seen))
            log.push(m.method === undefined ? `answer ${m.id}` : `${m.method}`)
          seen = unframe(whole).length
        }
        cb()
      }
      if (held === null) done()
      else held.push(done)
    },
  })
  const input = new PassThrough()
  const connection = startServer({ input, output })
  t.after(() => connection.dispose())
  return {
    input,
    log,
    release() {
      const h = held ?? []
      held = null
      for (const done of h) done()
    },
  }
}

describe('lsp server: leaving', () => {
  test('exit waits until the answers written before it are out (shutdown’s, piped)', async (t) => {
    const s = serve(t)
    s.input.write(session + frame({ method: 'exit' }))
    // The output is held: the server may not leave before it is written. The library's exit left
    // at once, the answers still queued.
    await waitFor(() => s.log.length > 0, 1000)
    s.release()
    await until('the exit', () => s.log.some((l) => l.startsWith('exit')), 10_000)
    assert.deepEqual(s.log, ['answer 1', 'client/registerCapability', 'answer 2', 'exit 0'])
  })

  test('the input’s end after a message cut short: leaves at once, no clock waited on', async (t) => {
    // The clocks are stopped: a server that waited for an idle time before giving up on the cut
    // message would never leave.
    mock.timers.enable({ apis: ['setInterval'] })
    t.after(() => mock.timers.reset())
    const s = serve(t)
    s.release()
    s.input.end(`${session}Content-Length: 100\r\n\r\n{"jsonrpc":"2.0",`)
    await until('the exit', () => s.log.some((l) => l.startsWith('exit')), 10_000)
    assert.deepEqual(s.log, ['answer 1', 'client/registerCapability', 'answer 2', 'exit 0'])
  })

  test('the input’s end with no shutdown: exit 1, after the answers', async (t) => {
    const s = serve(t)
    s.input.end(init)
    await waitFor(() => s.log.length > 0, 500)
    s.release()
    await until('the exit', () => s.log.some((l) => l.startsWith('exit')), 10_000)
    assert.deepEqual(s.log, ['answer 1', 'exit 1'])
  })
})

describe('lsp server: frames it cannot read', () => {
  test('each bad frame gets a parse error, and the session goes on to shutdown and exit 0', async (t) => {
    const s = serve(t)
    s.release()
    const bad = [
      'Content-Length: -5\r\n\r\n{"jsonrpc":"2.0","method":"x"}',
      'Content-Length: abc\r\n\r\n{"jsonrpc":"2.0","method":"x"}',
      'X-Other: 1\r\n\r\n{"jsonrpc":"2.0","method":"x"}',
      'Content-Length: 10\r\n\r\n{"jsonrpc":"2.0","method":"x"}',
      'Content-Length: 5\r\nContent-Length: 30\r\n\r\n{"jsonrpc":"2.0","method":"x"}',
    ]
    // Each followed by a request, answered: the frame after a bad one is read.
    const hover = (id: number) =>
      frame({
        id,
        method: 'textDocument/hover',
        params: { textDocument: { uri: 'file:///nope/skill.json' }, position: { line: 0, character: 0 } },
      })
    s.input.write(init + frame({ method: 'initialized', params: {} }))
    s.input.write(bad.map((b, i) => b + hover(10 + i)).join(''))
    s.input.write(frame({ id: 2, method: 'shutdown' }) + frame({ method: 'exit' }))
    await until('the exit', () => s.log.some((l) => l.startsWith('exit')), 10_000)
    assert.deepEqual(s.log, [
      'answer 1',
      'client/registerCapability',
      ...bad.flatMap((_, i) => ['answer null', `answer ${10 + i}`]),
      'answer 2',
      'exit 0',
    ])
  })
})
