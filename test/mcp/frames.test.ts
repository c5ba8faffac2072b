import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { LineFramer, MAX_MESSAGE_BYTES, type Oversized } from '../../src/mcp/frames.js'

function frame(max: number, chunks: (string | Buffer)[]) {
  const got: (string | Oversized)[] = []
  const f = new LineFramer(
    max,
    (l) => got.push(l.toString('utf8')),
    (o) => got.push(o),
  )
  for (const c of chunks) f.push(Buffer.isBuffer(c) ? c : Buffer.from(c))
  return { got, holding: f.holding }
}

describe('LineFramer', () => {
  test('the bound is the SDK’s stdio bound, 10 MiB', () => {
    assert.equal(MAX_MESSAGE_BYTES, 10 * 1024 * 1024)
  })
  test('lines split anywhere, several per chunk; a last line without newline is held', () => {
    const { got, holding } = frame(100, ['{"a"', ':1}\n{"b":2}\n\n{"c"', ':3}\r\n{"d"'])
    assert.deepEqual(got, ['{"a":1}', '{"b":2}', '', '{"c":3}\r'])
    assert.equal(holding, 4)
  })
  test('a line of exactly the bound passes; one byte more is skipped to its newline, and the next line passes', () => {
    const ok = `{"s":"${'x'.repeat(10 - 8)}"}`
    assert.equal(ok.length, 10)
    assert.deepEqual(frame(10, [`${ok}\n`]).got, [ok])
    assert.deepEqual(frame(9, ['{"s":', `"xx"}\n`]).got, [{ bytes: 10, id: undefined }])
    const r = frame(10, ['{"id":5,"method":"m","s":"', 'xxxxxxxxxxxxxxxxxxxx', '"}\n{"n":1}\n'])
    assert.deepEqual(r.got, [{ bytes: 48, id: 5 }, '{"n":1}'])
    assert.equal(r.holding, 0)
  })
  test('memory: past the bound nothing more is held', () => {
    const f = new LineFramer(
      16,
      () => {},
      () => {},
    )
    f.push(Buffer.from('{"s":"'))
    for (let i = 0; i < 100; i++) f.push(Buffer.alloc(1000, 0x61))
    assert.equal(f.holding, 0)
  })
  test('the id of a skipped request: wherever it is, the last one, string or number', () => {
    const id = (text: string) => (frame(8, [`${text}\n`]).got[0] as Oversized).id
    assert.equal(id('{"jsonrpc":"2.0","id":"a-1","method":"tools/call","params":{"id":9}}'), 'a-1')
    assert.equal(id('{"params":{"id":9,"s":"\\"id\\":4"},"method":"x","id":12}'), 12)
    assert.equal(id('{"id":1,"method":"x","id":2}'), 2)
    assert.equal(id('{"method":"x","id":-1.5e2}'), -150)
    assert.equal(id('{ "id" : "\\u00e9\\"" , "method" : "x" }'), 'é"')
    // A notification: no reply.
    assert.equal(id('{"jsonrpc":"2.0","method":"notifications/x","params":{"id":1}}'), null)
    // No usable id, or not a request: a reply with id null.
    assert.equal(id('{"id":{"a":1},"method":"x"}'), undefined)
    assert.equal(id('{"id":null,"method":"x"}'), undefined)
    assert.equal(id('{"id":1,"result":{}}'), undefined)
    assert.equal(id('[{"id":1,"method":"x"}]'), undefined)
    assert.equal(id('not json at all, but long'), undefined)
    assert.equal(id(`{"id":"${'x'.repeat(5000)}","method":"x"}`), undefined)
  })
  test('the id survives any chunking, escapes and nesting included', () => {
    const text = '{"params":{"a":[{"id":3}],"s":"}\\\\\\"{"},"id":"q\\"1","method":"tools/call"}'
    assert.equal((JSON.parse(text) as { id: string }).id, 'q"1')
    for (let size = 1; size <= 7; size++) {
      const chunks: Buffer[] = []
      const all = Buffer.from(`${text}\n`)
      for (let i = 0; i < all.length; i += size) chunks.push(all.subarray(i, i + size))
      assert.deepEqual(frame(8, chunks).got, [{ bytes: text.length, id: 'q"1' }], `chunks of ${size}`)
    }
  })
})
