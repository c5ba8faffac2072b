import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { parseEnvFile } from '../../../src/core/executor/env-file.js'

const parse = (s: string | Buffer) => ({ ...parseEnvFile(Buffer.isBuffer(s) ? s : Buffer.from(s)) })

describe('parseEnvFile: NUL-separated (/proc/PID/environ)', () => {
  test('records split on NUL, at the first =; values keep =, newlines, quotes and blanks', () => {
    assert.deepEqual(parse('A=1\0B=x=y\0C=line1\nline2\0D=\0E= "q" \0'), {
      A: '1',
      B: 'x=y',
      C: 'line1\nline2',
      D: '',
      E: ' "q" ',
    })
  })
  test('records without a name or without = are not variables', () => {
    assert.deepEqual(parse('=nameless\0NOEQ\0OK=1\0\0'), { OK: '1' })
  })
  test('a repeated name keeps its first value (Go reads its environment that way)', () => {
    assert.deepEqual(parse('A=first\0A=second\0'), { A: 'first' })
  })
  test('names like __proto__ and constructor are ordinary variables', () => {
    const env = parseEnvFile(Buffer.from('__proto__=p\0constructor=c\0'))
    assert.equal(Object.getPrototypeOf(env), null)
    assert.deepEqual(Object.entries(env), [
      ['__proto__', 'p'],
      ['constructor', 'c'],
    ])
  })
  test('values are UTF-8 text', () => {
    assert.deepEqual(parse(Buffer.from('N=café\0', 'utf8')), { N: 'café' })
  })
})

describe('parseEnvFile: dotenv lines', () => {
  test('NAME=value, export, comments, blank lines, CRLF', () => {
    assert.deepEqual(
      parse('# comment\nA=1\r\n\n  export B=two words  \nC=\n   # indented comment\nD = spaced \n'),
      {
        A: '1',
        B: 'two words',
        C: '',
        D: 'spaced',
      },
    )
  })
  test('quotes: single taken literally, double with \\" \\\\ \\n escapes; unbalanced kept', () => {
    assert.deepEqual(parse(`S='a \\n "b"'\nQ="x \\"y\\" \\\\ \\n z"\nU="open\nE=a=b\nH=#not a comment\n`), {
      S: 'a \\n "b"',
      Q: 'x "y" \\ \n z',
      U: '"open',
      E: 'a=b',
      H: '#not a comment',
    })
  })
  test('lines without a name or = are skipped; a repeated name keeps its last value', () => {
    assert.deepEqual(parse('NOEQ\n=v\nA=1\nA=2\n'), { A: '2' })
  })
  test('__proto__ is an ordinary name here too', () => {
    assert.deepEqual(Object.entries(parseEnvFile(Buffer.from('__proto__=p\n'))), [['__proto__', 'p']])
  })
  test('an empty file is an empty environment', () => {
    assert.deepEqual(parse(''), {})
  })
})
