import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { MAX_LINE, splitFrontmatter } from '../../../src/core/native/split.js'

function ok(raw: string) {
  const s = splitFrontmatter(raw)
  assert.ok(s.ok, JSON.stringify(s))
  return s.ok ? s : (undefined as never)
}

describe('splitFrontmatter (skill_parser.go)', () => {
  test('frontmatter and body, re-joined with \\n (CRs and the final newline gone)', () => {
    const s = ok('---\r\nname: a\r\ndescription: b\r\n---\r\n# T\r\n\r\nbody\r\n')
    assert.equal(s.frontmatter, 'name: a\ndescription: b')
    assert.equal(s.body, '# T\n\nbody')
    assert.equal(s.openLine, 1)
  })
  test('leading blank lines (TrimSpace) are skipped; their count moves the opening line', () => {
    const s = ok('\n  \t\n---\nname: a\n---\n')
    assert.equal(s.frontmatter, 'name: a')
    assert.equal(s.openLine, 3)
  })
  test('`---` with trailing spaces or tabs opens and closes', () => {
    assert.equal(ok('--- \t\nname: a\n---  \nx').frontmatter, 'name: a')
  })
  test('no frontmatter: leading white space, a BOM, `----`, or text first', () => {
    for (const raw of [
      ' ---\nname: a\n---\n',
      '\xef\xbb\xbf---\nname: a\n---\n',
      '----\nname: a\n----\n',
      'hello\n---\n',
      '',
    ]) {
      const s = ok(raw)
      assert.equal(s.frontmatter, null, JSON.stringify(raw))
      assert.equal(s.body, raw)
    }
  })
  test('opened but never closed', () => {
    const s = splitFrontmatter('\n---\nname: a\n')
    assert.deepEqual(s, { ok: false, err: 'frontmatter started with --- but never closed', line: 2 })
  })
  test('an empty frontmatter is empty', () => {
    assert.equal(ok('---\n---\nbody').frontmatter, '')
  })
  test('a line of 1 MiB or more stops the scanner (bufio.Scanner: token too long)', () => {
    const long = 'x'.repeat(MAX_LINE)
    assert.deepEqual(splitFrontmatter(`---\nname: a\n${long}\n---\n`), {
      ok: false,
      err: 'scan: bufio.Scanner: token too long',
      line: 3,
    })
    // one byte less fits, terminated or not
    assert.ok(splitFrontmatter(`---\nd: ${'x'.repeat(MAX_LINE - 4)}\n---\n`).ok)
    assert.ok(splitFrontmatter(`---\na: b\n---\n${'x'.repeat(MAX_LINE - 1)}`).ok)
    assert.equal(splitFrontmatter(`---\na: b\n---\n${'x'.repeat(MAX_LINE)}`).ok, false)
    // without frontmatter, the scanner stops after the first non-blank line
    assert.ok(splitFrontmatter(`hello\n${long}\n`).ok)
  })
})
