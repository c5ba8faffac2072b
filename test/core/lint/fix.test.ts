import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { fromText } from '../../../src/core/go/gostring.js'
import {
  applyEdits,
  planFixes,
  renameKey,
  stringLiteralEnd,
  utf16Position,
} from '../../../src/core/lint/fix.js'
import type { Finding, TextEdit } from '../../../src/core/lint/types.js'

const e = (start: number, end: number, text: string): TextEdit => ({ range: [start, end], text })

describe('applyEdits', () => {
  test('applies edits by range whatever the order given', () => {
    const r = applyEdits('abcdef', [e(4, 5, 'E'), e(0, 1, 'A'), e(2, 2, '+')])
    assert.equal(r.text, 'Ab+cdEf')
    assert.deepEqual(r.applied, [e(0, 1, 'A'), e(2, 2, '+'), e(4, 5, 'E')])
    assert.deepEqual(r.skipped, [])
  })
  test('skips an edit overlapping one taken before it, keeps adjacent ones', () => {
    const r = applyEdits('abcdef', [e(1, 3, 'X'), e(2, 4, 'Y'), e(3, 4, 'Z')])
    assert.equal(r.text, 'aXZef')
    assert.deepEqual(r.skipped, [e(2, 4, 'Y')])
  })
  test('the same edit twice counts once; two insertions at one offset keep their order', () => {
    assert.equal(applyEdits('ab', [e(1, 1, 'x'), e(1, 1, 'x'), e(1, 1, 'y')]).text, 'axyb')
    assert.equal(applyEdits('ab', [e(0, 1, 'A'), e(0, 1, 'A')]).text, 'Ab')
  })
  test('edits out of bounds are skipped, not applied', () => {
    const r = applyEdits('ab', [e(1, 3, 'x'), e(-1, 0, 'y'), e(2, 1, 'z')])
    assert.equal(r.text, 'ab')
    assert.equal(r.skipped.length, 3)
  })
  test('no edits give the text back; offsets are bytes of the file', () => {
    assert.equal(applyEdits('x', []).text, 'x')
    const raw = fromText('{"é":1,"Name":2}')
    const at = raw.indexOf('"Name"')
    assert.equal(at, 8) // é is two bytes
    assert.equal(applyEdits(raw, [renameKey(raw, at, 'name') as TextEdit]).text, fromText('{"é":1,"name":2}'))
  })
})

describe('fix helpers', () => {
  test('stringLiteralEnd steps over escapes', () => {
    assert.equal(stringLiteralEnd('"a\\"b" x', 0), 6)
    assert.equal(stringLiteralEnd('"ab', 0), -1)
    assert.equal(stringLiteralEnd('x"', 0), -1)
  })
  test('utf16Position counts UTF-16 units of the line, from byte offsets', () => {
    const raw = fromText('ab\né😀x')
    assert.deepEqual(utf16Position(raw, 0), { line: 0, character: 0 })
    assert.deepEqual(utf16Position(raw, 3), { line: 1, character: 0 })
    assert.deepEqual(utf16Position(raw, raw.indexOf('x')), { line: 1, character: 3 })
  })
  test('planFixes groups by the file each fix changes', () => {
    const f = (file: string, fix?: Finding['fix']): Finding => ({
      ruleId: 'r',
      severity: 'warn',
      file,
      line: 1,
      column: 1,
      offset: 0,
      message: 'm',
      ...(fix ? { fix } : {}),
    })
    const plans = planFixes([
      f('/a', { edits: [e(0, 1, 'x')] }),
      f('/a'),
      f('/a', { file: '/b', edits: [], mode: 0o755 }),
      f('/a', { edits: [e(2, 3, 'y')] }),
    ])
    assert.deepEqual([...plans.keys()], ['/a', '/b'])
    assert.deepEqual(plans.get('/a')?.edits, [e(0, 1, 'x'), e(2, 3, 'y')])
    assert.equal(plans.get('/b')?.mode, 0o755)
  })
})
