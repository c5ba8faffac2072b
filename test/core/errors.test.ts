import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { errorLine, firstLine } from '../../src/core/errors.js'

describe('firstLine / errorLine: the one line a failure is said in', () => {
  test('cut at the first \\n or \\r\\n, nothing else touched', () => {
    assert.equal(firstLine('database is locked'), 'database is locked')
    assert.equal(firstLine('a\nb\nc'), 'a')
    assert.equal(firstLine('a\r\nb'), 'a')
    assert.equal(firstLine('  a\tb \r'), '  a\tb \r')
    assert.equal(firstLine('\nb'), '')
  })
  test('anything thrown: an Error by its message, else its text', () => {
    assert.equal(
      errorLine(new Error('unable to open database file\n    at x')),
      'unable to open database file',
    )
    assert.equal(errorLine('plain\ntext'), 'plain')
    assert.equal(errorLine(42), '42')
  })
})
