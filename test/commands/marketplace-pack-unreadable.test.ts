import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, readdirSync, truncateSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, test } from 'node:test'
import { runCliSync } from '../helpers/cli.js'
import { makeTree, tempRoot } from '../helpers/tree.js'

// `marketplace pack` reads every file of the pack whole: one it cannot read (too large for the
// upload endpoint, or for Node; a dir or file the user may not read) is one line, exit 2, with
// nothing written; never `internal error` (exit 70) with Node's text.

const { root, cleanup } = tempRoot('ongrid-pack-unreadable-')
after(cleanup)

const PACK = {
  '.claude-plugin/plugin.json': '{"id":"demo","version":"1.0.0"}',
  'skills/hello/SKILL.md': '---\nname: hello\ndescription: Says hello.\n---\nHi\n',
}
let n = 0

function oneLine(r: { code: number | null; stderr: string }, re: RegExp): void {
  assert.equal(r.code, 2, r.stderr)
  assert.match(r.stderr, /^ongrid-skill: cannot pack [^\n]* faithfully: [^\n]*\n$/)
  assert.match(r.stderr, re)
}

for (const [size, what] of [
  [129 * 1024 * 1024, '129 MiB (past the endpoint’s 128 MiB cut)'],
  [3 * 1024 * 1024 * 1024, '3 GiB (past what Node reads whole)'],
] as const) {
  test(`a file of ${what}: one line, exit 2, nothing written`, () => {
    const dir = join(root, `big${n++}`)
    makeTree(dir, PACK)
    writeFileSync(join(dir, 'skills/hello/data.bin'), '')
    truncateSync(join(dir, 'skills/hello/data.bin'), size)
    const out = join(root, `big${n++}.tar.gz`)
    const r = runCliSync(['marketplace', 'pack', dir, '-o', out], { timeoutMs: 60_000 })
    oneLine(r, /skills\/hello\/data\.bin: larger than 128 MiB \(the upload endpoint cuts each file there/)
    assert.ok(!existsSync(out))
    assert.deepEqual(
      readdirSync(root).filter((f) => f.includes('ongrid-tmp')),
      [],
    )
  })
}

const setpriv = spawnSync('setpriv', ['--version']).status === 0
test('a dir and a file the user may not read: one line naming both, exit 2', {
  skip: (process.getuid?.() !== 0 || !setpriv) && 'needs root and setpriv (runs the CLI as uid 65534)',
}, () => {
  const top = join(root, `locked${n++}`)
  mkdirSync(top)
  chmodSync(root, 0o755)
  chmodSync(top, 0o777)
  const dir = join(top, 'pack')
  makeTree(dir, { ...PACK, 'notes.txt': 'secret\n', 'private/a.txt': 'a\n' })
  chmodSync(dir, 0o755)
  chmodSync(join(dir, 'notes.txt'), 0o000)
  chmodSync(join(dir, 'private'), 0o000)
  const out = join(top, 'out.tar.gz')
  const r = runCliSync(['marketplace', 'pack', dir, '-o', out], {
    timeoutMs: 20_000,
    sh: 'exec setpriv --reuid=65534 --regid=65534 --clear-groups "$0" "$@"',
  })
  oneLine(r, /notes\.txt: cannot read: permission denied; private: cannot read: permission denied\n$/)
  assert.ok(!existsSync(out))
})
