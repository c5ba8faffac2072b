import assert from 'node:assert/strict'
import { test } from 'node:test'
import { decodeString } from '../../../../../src/core/go/encoding/base64/base64.js'

function err(s: string): string | null {
  const r = decodeString(s)
  return r.ok ? null : r.err.error()
}

test('StdEncoding errors at the offsets Go reports (the contract’s examples)', () => {
  assert.equal(err('ab-_'), 'illegal base64 data at input byte 2')
  assert.equal(err('YWJj='), 'illegal base64 data at input byte 4')
  assert.equal(err('abc'), 'illegal base64 data at input byte 0')
  assert.equal(err('YWJjZ'), 'illegal base64 data at input byte 4')
  assert.equal(err('YQ='), 'illegal base64 data at input byte 3')
  assert.equal(err('YQ==x'), 'illegal base64 data at input byte 4')
  assert.equal(err('YQ== '), 'illegal base64 data at input byte 4')
  assert.equal(err('=YQ='), 'illegal base64 data at input byte 0')
})

test('newlines are skipped anywhere, padding is required, trailing bits are accepted', () => {
  const ok = (s: string) => {
    const r = decodeString(s)
    assert.ok(r.ok, s)
    return r.value.toString('latin1')
  }
  assert.equal(ok(''), '')
  assert.equal(ok('YW\r\nJj'), 'abc')
  assert.equal(ok('YQ=\n='), 'a')
  assert.equal(ok('YR=='), 'a')
  assert.equal(ok('YWJjZGVmZ2hp'), 'abcdefghi')
  assert.equal(ok('YWI=\n\n'), 'ab')
  // Node's decoder would take these; Go's does not.
  assert.notEqual(err('YQ'), null)
  assert.notEqual(err('Y Q=='), null)
})
