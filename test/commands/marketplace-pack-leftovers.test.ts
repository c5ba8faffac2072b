import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { after, test } from 'node:test'
import { isTempName } from '../../src/core/atomic-write.js'
import { runCliSync } from '../helpers/cli.js'
import { makeTree, tempRoot } from '../helpers/tree.js'

// The temp files the older writers left in a pack when they were killed mid-write (test
// --update's `.CASES.json.PID.tmp`, pack's `OUT.tmp-PID.tar.gz` when -o was inside the pack) are
// not the user's files: `marketplace pack` never ships them, as it never ships ours.

const { root, cleanup } = tempRoot('ongrid-pack-leftovers-')
after(cleanup)

test('the older writers’ leftover names are temp names; names like them that are not stay files', () => {
  assert.ok(isTempName('.cases.json.4242.tmp'))
  assert.ok(isTempName('hello-pack-1.0.0.tar.gz.tmp-4242.tar.gz'))
  assert.ok(isTempName('out.zip.tmp-17.zip'))
  assert.ok(!isTempName('cases.json.4242.tmp'))
  assert.ok(!isTempName('.cases.json.tmp'))
  assert.ok(!isTempName('notes.tmp'))
  assert.ok(!isTempName('release.tar.gz'))
  assert.ok(!isTempName('.tmp-1.tar.gz'))
})

test('pack leaves out a test --update or pack temp file an older version left in the pack', () => {
  const src = join(root, 'pack')
  makeTree(src, {
    '.claude-plugin/plugin.json': '{"id":"demo","version":"1.0.0"}',
    'skills/hello/SKILL.md': '---\nname: hello\ndescription: Says hello.\n---\nHi\n',
    'skills/hello/tests/.cases.json.4242.tmp': '[{"name":"half',
    'demo-1.0.0.tar.gz.tmp-4243.tar.gz': 'half an archive',
  })
  const out = join(root, 'demo.tar.gz')
  const r = runCliSync(['marketplace', 'pack', src, '-o', out], { timeoutMs: 20_000 })
  assert.equal(r.code, 0, r.stderr)
  assert.match(
    r.stdout,
    /left out: demo-1\.0\.0\.tar\.gz\.tmp-4243\.tar\.gz, skills\/hello\/tests\/\.cases\.json\.4242\.tmp\n/,
  )
  const list = spawnSync('tar', ['tzf', out], { encoding: 'utf8' }).stdout
  assert.doesNotMatch(list, /tmp/)
  assert.match(list, /SKILL\.md/)
})
