import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { didYouMean, distance, meanHint } from '../../src/core/suggest.js'

describe('didYouMean', () => {
  const commands = ['init', 'lint', 'load-dirs', 'run', 'validate', 'audit tail', 'help', 'completion']
  test('slips of a letter or two find the command', () => {
    assert.equal(didYouMean('lnt', commands), 'lint')
    assert.equal(didYouMean('validat', commands), 'validate')
    assert.equal(didYouMean('vaildate', commands), 'validate') // two neighbours swapped: one edit
    assert.equal(didYouMean('audit tial', commands), 'audit tail')
    assert.equal(didYouMean('laod-dirs', commands), 'load-dirs')
    assert.equal(didYouMean('RUN', commands), 'run')
  })
  test('a prefix of three letters or more counts', () => {
    assert.equal(didYouMean('valid', commands), 'validate')
    assert.equal(didYouMean('compl', commands), 'completion')
  })
  test('a name of three letters or more that starts the input counts', () => {
    assert.equal(didYouMean('warning', ['error', 'warn', 'info']), 'warn')
    assert.equal(didYouMean('validates', commands), 'validate')
    assert.equal(didYouMean('runner', commands), 'run')
    assert.equal(didYouMean('inform', ['off', 'info']), 'info')
  })
  test('nothing near, or the name itself: no suggestion', () => {
    assert.equal(didYouMean('frobnicate', commands), undefined)
    assert.equal(didYouMean('x', commands), undefined)
    assert.equal(didYouMean('lint', commands), undefined)
    // A one-letter name is no slip for another letter: an enum of "a","b" given "c", a key "x" beside "n".
    assert.equal(didYouMean('c', ['a', 'b']), undefined)
    assert.equal(didYouMean('x', ['n', 'mode', 'path']), undefined)
    assert.equal(didYouMean('ab', ['xy']), undefined)
    assert.equal(didYouMean('prt', ['port', 'n']), 'port')
  })
  test('rule ids and enum values', () => {
    const rules = ['practice/class-unset', 'practice/description-short', 'manager/name']
    assert.equal(didYouMean('practice/clas-unset', rules), 'practice/class-unset')
    assert.equal(didYouMean('eror', ['off', 'info', 'warn', 'error']), 'error')
    assert.equal(didYouMean('jsn', ['stylish', 'json', 'sarif']), 'json')
  })
  test('distance is the optimal string alignment distance', () => {
    assert.equal(distance('', 'abc'), 3)
    assert.equal(distance('abc', 'abc'), 0)
    assert.equal(distance('ab', 'ba'), 1)
    assert.equal(distance('kitten', 'sitting'), 3)
    assert.equal(distance('ca', 'abc'), 3)
    // Levenshtein's, for lint's near-miss keys: a swap is two edits.
    assert.equal(distance('ab', 'ba', false), 2)
    assert.equal(distance('nmae', 'name', false), 2)
    assert.equal(distance('kitten', 'sitting', false), 3)
  })
  test('the hint line', () => {
    assert.equal(meanHint('lint'), 'did you mean "lint"?')
    assert.equal(meanHint('--format', false), 'did you mean --format?')
    assert.equal(meanHint(undefined), undefined)
  })
})
