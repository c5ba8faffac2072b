import assert from 'node:assert/strict'
import { test } from 'node:test'
import { decode } from '../../../../../src/core/go/encoding/pem/pem.js'

const BODY = 'AQID'

test('the first valid block anywhere, any type, headers allowed', () => {
  const b = decode(`junk\n-----BEGIN X-----\n${BODY}\n-----END X-----\ntrailer`)
  assert.equal(b?.type, 'X')
  assert.deepEqual([...(b?.bytes ?? [])], [1, 2, 3])
  const h = decode(`-----BEGIN PUBLIC KEY-----\nProc-Type: 4\n\n${BODY}\n-----END PUBLIC KEY-----`)
  assert.equal(h?.headers.get('Proc-Type'), '4')
  assert.deepEqual([...(h?.bytes ?? [])], [1, 2, 3])
})

test('invalid blocks are skipped; none gives null', () => {
  assert.equal(decode('no pem here'), null)
  assert.equal(decode(`-----BEGIN A-----\n${BODY}\n-----END B-----\n`), null)
  assert.equal(decode(`-----BEGIN A-----\n${BODY}`), null)
  assert.equal(decode(`-----BEGIN A-----\nYQ\n-----END A-----\n`), null)
  const second = decode(
    `-----BEGIN A-----\n!!\n-----END A-----\n-----BEGIN B-----\n${BODY}\n-----END B-----\n`,
  )
  assert.equal(second?.type, 'B')
  // A literal backslash-n instead of newlines (an env var set wrongly) is not PEM.
  assert.equal(decode(`-----BEGIN A-----\\n${BODY}\\n-----END A-----`), null)
})
