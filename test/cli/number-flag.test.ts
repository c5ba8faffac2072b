import assert from 'node:assert/strict'
import { test } from 'node:test'
import { UserError } from '../../src/cli/errors.js'
import { MAX_JOBS, numberFlagProblem, parseNumberFlag, typedFlag } from '../../src/cli/number-flag.js'

const fails = (f: () => unknown, message: string) =>
  assert.throws(f, (e: Error) => e instanceof UserError && e.exitCode === 2 && e.message === message)

test('number flags: digits only, within the range', () => {
  assert.equal(parseNumberFlag('jobs', '1', MAX_JOBS, 'j', []), 1)
  assert.equal(parseNumberFlag('jobs', '1024', MAX_JOBS, 'j', []), 1024)
  assert.equal(parseNumberFlag('jobs', '007', MAX_JOBS, 'j', []), 7)
  assert.equal(parseNumberFlag('lines', '0', { min: 0 }, 'n', []), 0)
  for (const v of ['0', '1025', '1e2', '0x10', '5.0', ' 5', '+3', '-1', '', 'x', '99999999999999999999']) {
    assert.throws(() => parseNumberFlag('jobs', v, MAX_JOBS, 'j', []), UserError, JSON.stringify(v))
  }
})

test('number flags: with no bound of its own, a longer number is the largest safe integer', () => {
  assert.equal(
    parseNumberFlag('max-warnings', '99999999999999999999', { min: 0 }, undefined, []),
    Number.MAX_SAFE_INTEGER,
  )
  assert.equal(
    parseNumberFlag('max-warnings', '9007199254740991', { min: 0 }, undefined, []),
    Number.MAX_SAFE_INTEGER,
  )
})

test('number flags: one sentence, the flag as typed, the value, the range', () => {
  fails(
    () => parseNumberFlag('jobs', '0', MAX_JOBS, 'j', ['-j', '0']),
    '-j 0: expected a whole number from 1 to 1024',
  )
  fails(
    () => parseNumberFlag('jobs', '0', MAX_JOBS, 'j', ['--jobs=0']),
    '--jobs 0: expected a whole number from 1 to 1024',
  )
  fails(
    () => parseNumberFlag('lines', 'x', { min: 0 }, 'n', ['-nx']),
    '-n x: expected a whole number, 0 or more',
  )
  fails(
    () => parseNumberFlag('lines', '', { min: 0 }, 'n', []),
    '--lines "": expected a whole number, 0 or more',
  )
  assert.equal(
    numberFlagProblem('--http', ' 5', { min: 0, max: 65535 }),
    '--http " 5": expected a whole number from 0 to 65535',
  )
})

test('typedFlag: the last use before --, aliases included', () => {
  assert.equal(typedFlag('output', 'o', ['-o', 'a', '--output', 'b']), '--output')
  assert.equal(typedFlag('output', 'o', ['--output', 'b', '-o', 'a']), '-o')
  assert.equal(typedFlag('output', 'o', ['--out=x'], ['out']), '--out')
  assert.equal(typedFlag('output', 'o', ['--', '-o']), '--output')
  assert.equal(typedFlag('output', 'o', ['--outputs', 'x']), '--output')
  assert.equal(typedFlag('output', 'o', []), '--output')
})
