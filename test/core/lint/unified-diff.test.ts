import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { after, describe, test } from 'node:test'
import { applyEdits } from '../../../src/core/lint/fix.js'
import type { TextEdit } from '../../../src/core/lint/types.js'
import { fileDiff, hunks } from '../../../src/core/lint/unified-diff.js'
import { tempRoot } from '../../helpers/tree.js'

const e = (start: number, end: number, text: string): TextEdit => ({ range: [start, end], text })
const lines = (n: number) => Array.from({ length: n }, (_, i) => `l${i + 1}\n`).join('')

describe('unified diff of edits', () => {
  const { root, cleanup } = tempRoot()
  after(cleanup)
  let k = 0
  /** The diff must be what `git apply` turns the text into the edited text. */
  const applies = (text: string, edits: TextEdit[]) => {
    const dir = `${root}/r${k++}`
    execFileSync('mkdir', ['-p', dir])
    execFileSync('git', ['init', '-q', dir])
    writeFileSync(`${dir}/f`, text, 'latin1')
    execFileSync('git', ['apply'], { cwd: dir, input: Buffer.from(fileDiff('f', text, edits), 'latin1') })
    assert.equal(readFileSync(`${dir}/f`, 'latin1'), applyEdits(text, edits).text)
  }

  test('one change: three lines of context each side', () => {
    const text = lines(10)
    const at = text.indexOf('l5')
    assert.deepEqual(hunks(text, [e(at, at + 2, 'L5')]), [
      '@@ -2,7 +2,7 @@',
      ' l2',
      ' l3',
      ' l4',
      '-l5',
      '+L5',
      ' l6',
      ' l7',
      ' l8',
    ])
    applies(text, [e(at, at + 2, 'L5')])
  })
  test('changes far apart are two hunks, close ones one; line numbers follow added lines', () => {
    const text = lines(20)
    const a = text.indexOf('l2\n')
    const b = text.indexOf('l4\n')
    const c = text.indexOf('l18')
    const edits = [e(a, a, 'new\n'), e(b, b + 2, 'L4'), e(c, c + 3, 'L18')]
    const h = hunks(text, edits)
    assert.deepEqual(
      h.filter((x) => x.startsWith('@@')),
      ['@@ -1,7 +1,8 @@', '@@ -15,6 +16,6 @@'],
    )
    applies(text, edits)
  })
  test('no newline at the end, an insertion at the end, an empty file', () => {
    applies('a\nb', [e(2, 3, 'B')])
    assert.deepEqual(hunks('a\nb', [e(2, 3, 'B')]), [
      '@@ -1,2 +1,2 @@',
      ' a',
      '-b',
      '\\ No newline at end of file',
      '+B',
      '\\ No newline at end of file',
    ])
    applies('a\n', [e(2, 2, 'b\n')])
    applies('', [e(0, 0, 'x\n')])
    applies('{}', [e(1, 1, '"class": "safe"')])
  })
  test('mode lines for a mode change', () => {
    assert.equal(
      fileDiff('run.sh', null, [], { before: 0o644, after: 0o755 }),
      'diff --git a/run.sh b/run.sh\nold mode 100644\nnew mode 100755\n',
    )
  })
})
