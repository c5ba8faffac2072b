import assert from 'node:assert/strict'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { after, afterEach, describe, test } from 'node:test'
import { expectGolden } from './golden.js'
import { tempRoot } from './tree.js'

const T = tempRoot('ongrid-golden-')
after(T.cleanup)
const saved = process.env.UPDATE_GOLDEN
afterEach(() => {
  if (saved === undefined) delete process.env.UPDATE_GOLDEN
  else process.env.UPDATE_GOLDEN = saved
})

let n = 0
const golden = (content: string | Buffer) => {
  const p = `${T.root}/g${++n}.golden`
  writeFileSync(p, content)
  return p
}

describe('expectGolden', () => {
  test('the same bytes pass; text is compared as its UTF-8 bytes', () => {
    delete process.env.UPDATE_GOLDEN
    expectGolden(golden('✔ ok\n'), '✔ ok\n')
    expectGolden(golden(Buffer.from([0xff, 0x00, 0x0a])), Buffer.from([0xff, 0x00, 0x0a]))
  })

  test('any byte that differs fails, also where both are invalid UTF-8 (same text when decoded)', () => {
    delete process.env.UPDATE_GOLDEN
    assert.throws(() => expectGolden(golden('a\n'), 'a'), /differs \(UPDATE_GOLDEN=1 to accept\)/)
    const p = golden(Buffer.from([0x61, 0xff]))
    assert.equal(Buffer.from([0x61, 0xfe]).toString(), Buffer.from([0x61, 0xff]).toString())
    assert.throws(() => expectGolden(p, Buffer.from([0x61, 0xfe])), /differs/)
    assert.deepEqual(readFileSync(p), Buffer.from([0x61, 0xff]), 'a failing compare writes nothing')
  })

  test('UPDATE_GOLDEN=1 writes the file instead of comparing', () => {
    process.env.UPDATE_GOLDEN = '1'
    const p = golden('old\n')
    expectGolden(p, 'new\n')
    assert.equal(readFileSync(p, 'utf8'), 'new\n')
  })

  test('a missing golden is written, and the test fails so that it is checked in on purpose', () => {
    delete process.env.UPDATE_GOLDEN
    const p = `${T.root}/new/dir/missing.golden`
    assert.throws(() => expectGolden(p, 'x'), /wrote missing golden/)
    assert.ok(existsSync(p))
    assert.equal(readFileSync(p, 'utf8'), 'x')
  })
})
