import assert from 'node:assert/strict'
import { test } from 'node:test'
import { BUILTIN_TERMS } from '../../../src/core/agent/builtin-terms.js'
import {
  asciiTerms,
  builtinTexts,
  encodeTermCounts,
  termCounts,
  unicodeTerms,
} from '../../../src/core/agent/similarity.js'

test('builtin-terms.ts holds termCounts of the builtins as they are now (else: node scripts/gen-builtin-terms.mjs)', () => {
  const now = builtinTexts().map((t) => [t.name, encodeTermCounts(termCounts(t.name, t.description))])
  assert.deepEqual(BUILTIN_TERMS, now)
})

test('text in ASCII: the ASCII split gives the terms the Unicode one gives', () => {
  // Every printable ASCII character and the controls that split words, in random texts.
  const chars = [
    ...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-. ,:;/\\()[]{}"\'`!?@#$%^&*+=<>|~\t\n\r\x00\x7f',
  ]
  const words = [
    'the',
    'Host',
    'logs',
    'queries',
    'getHostLoad',
    'tail_log',
    'IPv6',
    'a1B2',
    'status',
    'us',
    'ss',
  ]
  let seed = 42
  const rand = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31
    return seed % n
  }
  for (let i = 0; i < 2000; i++) {
    let s = ''
    for (let k = rand(40); k > 0; k--)
      s += rand(3) === 0 ? words[rand(words.length)] : chars[rand(chars.length)]
    assert.deepEqual(asciiTerms(s), unicodeTerms(s), JSON.stringify(s))
  }
  for (const t of builtinTexts()) {
    const ascii = t.description.replace(/[^\x00-\x7f]/g, ' ')
    assert.deepEqual(asciiTerms(ascii), unicodeTerms(ascii), t.name)
  }
})
