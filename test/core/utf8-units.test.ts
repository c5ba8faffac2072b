import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { utf16Position } from '../../src/core/lint/fix.js'
import { LineIndex } from '../../src/core/lint/position.js'
import { charAt } from '../../src/core/utf8-units.js'
import { ByteText } from '../../src/lsp/positions.js'

// Positions in bytes that are not UTF-8 follow the decoding editors use: the WHATWG decoder,
// which TextDecoder is. Each test compares with TextDecoder on the same bytes.

const decoder = new TextDecoder('utf-8')

/** The character boundaries charAt finds in `buf`. */
function boundaries(buf: Buffer): number[] {
  const out = [0]
  for (let i = 0; i < buf.length; ) {
    i += charAt((k) => buf[k], i)[0]
    out.push(i)
  }
  return out
}

/** Random bytes weighted towards the ones that start, continue or break a sequence. */
function randomBytes(n: number, seed: number): Buffer {
  let s = seed >>> 0
  const next = () => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0
    return s >>> 8
  }
  const pool = [
    0x41, 0x20, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xe1, 0xec, 0xed, 0xee,
    0xef, 0xf0, 0xf1, 0xf3, 0xf4, 0xf5, 0xff,
  ]
  return Buffer.from(Array.from({ length: n }, () => pool[next() % pool.length]))
}

describe('characters of bytes that may not be UTF-8 (WHATWG, as TextDecoder)', () => {
  test('one U+FFFD per maximal bad subsequence', () => {
    const cases: [number[], number][] = [
      [[0xe0, 0x80, 0xaf], 3], // overlong: E0 takes A0..BF only
      [[0xed, 0xa0, 0x80], 3], // a surrogate: ED takes 80..9F only
      [[0xf0, 0x9f, 0x98], 1], // cut short: one
      [[0xf0, 0x9f, 0x98, 0x41], 2], // …then A
      [[0xe2, 0x82], 1],
      [[0x80, 0x80], 2], // stray continuations
      [[0xc0, 0xaf], 2],
      [[0xf4, 0x90, 0x80, 0x80], 4], // past U+10FFFF
      [[0xf0, 0x9f, 0x98, 0x80], 2], // a well-formed pair: two units
    ]
    for (const [bytes, units] of cases) {
      const buf = Buffer.from(bytes)
      assert.equal(decoder.decode(buf).length, units, `TextDecoder on ${buf.toString('hex')}`)
      let got = 0
      for (let i = 0; i < buf.length; ) {
        const [n, u] = charAt((k) => buf[k], i)
        got += u
        i += n
      }
      assert.equal(got, units, buf.toString('hex'))
    }
  })

  test('lsp positions and lint columns agree with TextDecoder at every character', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const buf = randomBytes(1 + (seed % 23), seed)
      const text = new ByteText(buf)
      const lines = new LineIndex(buf.toString('latin1'))
      for (const at of boundaries(buf)) {
        const prefix = decoder.decode(buf.subarray(0, at))
        const where = `${buf.toString('hex')} at ${at}`
        assert.deepEqual(text.positionAt(at), { line: 0, character: prefix.length }, where)
        assert.deepEqual(
          utf16Position(buf.toString('latin1'), at),
          { line: 0, character: prefix.length },
          where,
        )
        assert.equal(text.offsetAt({ line: 0, character: prefix.length }), at, where)
        assert.deepEqual(lines.position(at), { line: 1, column: [...prefix].length + 1 }, where)
        assert.equal(text.offsetOfLineColumn(1, [...prefix].length + 1), at, where)
      }
    }
  })
})
