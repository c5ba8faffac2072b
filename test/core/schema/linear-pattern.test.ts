import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { packageRoot } from '../../../src/core/package-root.js'
import { hasPatterns, hasUnprovenPatterns } from '../../../src/core/schema/bounded.js'
import { isLinearPattern } from '../../../src/core/schema/linear-pattern.js'
import { redosVerdict } from '../../../src/core/schema/redos.js'
import { generatedPatterns, KNOWN_VULNERABLE, treePatterns } from './redos-corpus.js'

describe('isLinearPattern: what it proves', () => {
  for (const p of [
    '^[A-Za-z0-9.:-]+$',
    '^\\d+\\.\\d+$',
    '^[^/]+/[^/]+$',
    '^[a-z][a-z0-9_]*$',
    '^(?:[a-z]+)-(?<n>\\d+)$',
    '[a-z]+',
    'x{1,5}y',
    '^[a-z]+\\u{1F600}$',
    '^[^]*$',
  ]) {
    test(`proved: ${p}`, () => assert.equal(isLinearPattern(p), true))
  }
  for (const p of [
    '^(a+)+$', // a quantified group
    '^(a|b)+$', // alternation
    '^a*a*$', // two repetitions compete for the same characters
    '^[a-z]+[0-9]*[a-z]+$', // the same across an atom that may match nothing
    '\\d+$', // unanchored: each start position scans the run again
    '^(a)\\1$', // a back-reference
    '^(?=a)a+$', // a look-ahead
    '^\\p{L}+$', // a property class (not judged)
    '^\\bx+$', // a word boundary
    '^a+$|^b$', // a top-level alternation
    '(', // not a regular expression at all
    '^a{2,1}$',
  ]) {
    test(`not proved: ${p}`, () => assert.equal(isLinearPattern(p), false))
  }
})

describe('hasUnprovenPatterns: the args check leaves the worker only for proved patterns', () => {
  test('a schema whose patterns are all proved', () => {
    const s = {
      type: 'object',
      properties: { h: { type: 'string', pattern: '^[a-z]+$' } },
      patternProperties: { '^x-[a-z]+$': {} },
    }
    assert.equal(hasPatterns(s), true)
    assert.equal(hasUnprovenPatterns(s), false)
  })
  test('one pattern not proved, in a pattern or a patternProperties key, at any depth', () => {
    assert.equal(hasUnprovenPatterns({ items: [{ properties: { a: { pattern: '^(a+)+$' } } }] }), true)
    assert.equal(hasUnprovenPatterns({ patternProperties: { '^(a+)+$': {} } }), true)
  })
  test('a `pattern` that is not a string counts as not proved', () => {
    assert.equal(hasUnprovenPatterns({ properties: { pattern: { type: 'string' } } }), true)
    assert.equal(hasUnprovenPatterns({ patternProperties: [] }), true)
  })
})

// The pre-filter must never hide what recheck reports: every pattern it proves, recheck (the
// rule's verdict without the pre-filter) finds not vulnerable; and the corpus must hold enough of
// both kinds for the comparison to mean something.
describe('the pre-filter against recheck (differential)', () => {
  const corpus = [
    ...new Set([...treePatterns(packageRoot()), ...KNOWN_VULNERABLE, ...generatedPatterns(400)]),
  ]
  const proved = corpus.filter((p) => isLinearPattern(p))

  test('the corpus: the templates, the fixtures, classic cases and 400 generated patterns', () => {
    assert.ok(corpus.includes('^[A-Za-z0-9.:-]+$'), 'the init templates’ pattern')
    assert.ok(proved.length >= 150, `${proved.length} proved`)
    assert.ok(corpus.length - proved.length >= 150, `${corpus.length - proved.length} not proved`)
  })

  test('every classic catastrophic pattern: recheck reports it, the pre-filter does not prove it', () => {
    for (const p of KNOWN_VULNERABLE) {
      assert.equal(isLinearPattern(p), false, p)
      assert.equal(redosVerdict(p, false).status, 'vulnerable', p)
      assert.deepEqual(redosVerdict(p), redosVerdict(p, false), p)
    }
  })

  test('no pattern the pre-filter proves is vulnerable for recheck', () => {
    const disagree = proved.filter((p) => redosVerdict(p, false).status === 'vulnerable')
    assert.deepEqual(disagree, [])
  })
})
