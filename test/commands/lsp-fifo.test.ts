import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, test } from 'node:test'
import { startLsp, stopLsp, uri } from '../helpers/lsp.js'
import { tempRoot } from '../helpers/tree.js'

// The editor server places each finding in its file's text, read from disk when the file is not
// open: a FIFO in the workspace (lint reports it, unread) must not be read, or the server blocks
// for ever waiting for a writer and answers nothing more.

const { root, cleanup } = tempRoot('ongrid-lsp-fifo-')
after(cleanup)

test('a FIFO skill.json in the workspace: its finding published, the server still answers', async () => {
  mkdirSync(join(root, 'sk'))
  const fifo = join(root, 'sk', 'skill.json')
  execFileSync('mkfifo', [fifo])
  mkdirSync(join(root, 'ok'))
  const ok = join(root, 'ok', 'skill.json')
  const okText = '{"name": "ok", "description": "Does a thing.", "entry": "run.sh"}\n'
  writeFileSync(ok, okText)
  const c = await startLsp(root, { timeoutMs: 30_000 })
  try {
    // Opening a file of the workspace checks the workspace, the FIFO's pack with it.
    await c.open(ok, okText)
    await c.waitDiagnostics(uri(ok), () => true, 0, 15_000)
    const d = await c.waitDiagnostics(
      uri(fifo),
      (ds) => ds.some((x) => x.code === 'input/skipped'),
      0,
      15_000,
    )
    assert.match(d.find((x) => x.code === 'input/skipped')?.message ?? '', /FIFO/)
    assert.equal(await stopLsp(c), 0)
  } finally {
    c.child.kill('SIGKILL')
  }
})
