import assert from 'node:assert/strict'
import { describe, mock, test } from 'node:test'
import { type Framed, MAX_MESSAGE_BYTES, MessageFramer } from '../../src/lsp/framing.js'
import { frame } from '../helpers/lsp.js'

const shown = (got: Framed[]) =>
  got.map((m) => (Buffer.isBuffer(m) ? m.toString() : m.kind === 'bad' ? 'bad' : `oversized ${m.bytes}`))

describe('MessageFramer: frames the reader could not take', () => {
  const good = frame({ id: 2, method: 'shutdown' })
  const cases: [string, string][] = [
    ['Content-Length: -5', `Content-Length: -5\r\n\r\n${JSON.stringify({ jsonrpc: '2.0', method: 'a' })}`],
    ['Content-Length: abc', `Content-Length: abc\r\n\r\n{"jsonrpc":"2.0","method":"a"}`],
    ['no Content-Length', `X-Other: 1\r\n\r\n{"jsonrpc":"2.0","method":"a"}`],
    [
      'two Content-Length lines',
      `Content-Length: 10\r\nContent-Length: 31\r\n\r\n{"jsonrpc":"2.0","method":"a"}`,
    ],
    ['a short length', `Content-Length: 10\r\n\r\n{"jsonrpc":"2.0","method":"a"}`],
    ['a body that is not JSON', 'Content-Length: 3\r\n\r\nabc'],
    ['a body that is not a message', 'Content-Length: 2\r\n\r\n[]'],
  ]
  for (const [name, bad] of cases) {
    test(`${name}: reported once, never passed on, and the next message read (in one chunk or byte by byte)`, () => {
      const bytes = Buffer.from(bad + good)
      assert.deepEqual(shown(new MessageFramer().push(bytes)), ['bad', good])
      const f = new MessageFramer()
      const got: Framed[] = []
      for (let i = 0; i < bytes.length; i++) got.push(...f.push(bytes.subarray(i, i + 1)))
      assert.deepEqual(shown(got), ['bad', good])
    })
  }
  test('a header block that never ends is bounded, then the next header is found', () => {
    const f = new MessageFramer()
    const got = f.push(Buffer.alloc(70 * 1024, 'x'))
    assert.deepEqual(shown(got), ['bad'])
    assert.ok(f.holding < 16, `${f.holding} bytes held`)
    assert.deepEqual(shown(f.push(Buffer.from(good))), [good])
  })
})

describe('MessageFramer: a message over the bound', () => {
  test('is skipped as it streams by, never held, and said with its method and document', () => {
    const text = 'x'.repeat(MAX_MESSAGE_BYTES)
    const didOpen = Buffer.from(
      frame({
        method: 'textDocument/didOpen',
        params: { textDocument: { uri: 'file:///w/p/skill.json', languageId: 'json', version: 1, text } },
      }),
    )
    const bytes = Buffer.concat([didOpen, Buffer.from(frame({ id: 3, method: 'shutdown' }))])
    const f = new MessageFramer()
    const got: Framed[] = []
    let most = 0
    for (let i = 0; i < bytes.length; i += 65536) {
      got.push(...f.push(bytes.subarray(i, i + 65536)))
      most = Math.max(most, f.holding)
    }
    assert.ok(most <= 2 * 65536, `${most} bytes held`)
    assert.equal(got.length, 2)
    const [o, next] = got
    assert.ok(!Buffer.isBuffer(o) && o.kind === 'oversized')
    assert.deepEqual(o, {
      kind: 'oversized',
      bytes: didOpen.length - didOpen.indexOf('\r\n\r\n') - 4,
      method: 'textDocument/didOpen',
      id: null,
      uri: 'file:///w/p/skill.json',
    })
    assert.equal(next.toString(), frame({ id: 3, method: 'shutdown' }))
  })

  test('a request over the bound is told by its id', () => {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 41,
      method: 'x/y',
      params: { a: 'y'.repeat(MAX_MESSAGE_BYTES) },
    })
    const got = new MessageFramer().push(Buffer.from(`Content-Length: ${body.length}\r\n\r\n${body}`))
    assert.equal(got.length, 1)
    assert.ok(!Buffer.isBuffer(got[0]) && got[0].kind === 'oversized')
    assert.equal(got[0].id, 41)
    assert.equal(got[0].method, 'x/y')
  })

  test('frames are read in linear time: each byte copied a bounded number of times', (t) => {
    // Counted, not timed: the bytes Buffer.concat and Buffer#copy move while a large message comes
    // in 64 KiB chunks (the held bytes were concatenated again at every chunk: quadratic).
    let moved = 0
    const concat = Buffer.concat
    t.mock.method(Buffer, 'concat', (list: readonly Uint8Array[], n?: number) => {
      const r = concat(list, n)
      moved += r.length
      return r
    })
    const copy = Buffer.prototype.copy
    t.mock.method(Buffer.prototype, 'copy', function (this: Buffer, ...a: Parameters<Buffer['copy']>) {
      const n = copy.apply(this, a)
      moved += n
      return n
    })
    const message = Buffer.from(frame({ method: 'm', params: { text: 'z'.repeat(8 * 1024 * 1024) } }))
    const f = new MessageFramer()
    const got: Framed[] = []
    for (let i = 0; i < message.length; i += 65536) got.push(...f.push(message.subarray(i, i + 65536)))
    mock.restoreAll()
    assert.equal(got.length, 1)
    assert.ok(moved < 6 * message.length, `${moved} bytes moved for a message of ${message.length}`)
  })
})
