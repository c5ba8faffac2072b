import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { BIN, cliEnv, REPO } from '../helpers/cli.js'
import { makeTree, tempRoot } from '../helpers/tree.js'

const haveNvim = spawnSync('nvim', ['--version'], { encoding: 'utf8' }).status === 0

describe('Neovim as a client of lsp', () => {
  it('opens a pack, receives the diagnostics and applies a quick fix', (t) => {
    if (!haveNvim) {
      if (process.env.ONGRID_REQUIRE_NVIM === '1') assert.fail('nvim is required (ONGRID_REQUIRE_NVIM=1)')
      t.skip('nvim not installed')
      return
    }
    const tmp = tempRoot()
    try {
      const text =
        '{\n  "name": "p",\n  "description": "Ünïcode 😀 first: a skill that does a thing.",\n  "entry": "run.sh"\n}\n'
      makeTree(tmp.root, { 'skills/p/skill.json': text, 'skills/p/run.sh': { exec: '#!/bin/sh\necho {}\n' } })
      const file = join(tmp.root, 'skills/p/skill.json')
      const out = join(tmp.root, 'seen.txt')
      const r = spawnSync(
        'nvim',
        [
          '--headless',
          '--clean',
          '-n',
          '-i',
          'NONE',
          '-c',
          `luafile ${join(REPO, 'test/editors/neovim.lua')}`,
        ],
        {
          encoding: 'utf8',
          timeout: 60_000,
          cwd: tmp.root,
          env: cliEnv({
            ONGRID_LSP_FILE: file,
            ONGRID_LSP_OUT: out,
            ONGRID_LSP_CMD: [process.execPath, BIN, 'lsp', '--stdio'].join('\t'),
            XDG_STATE_HOME: join(tmp.root, 'state'),
            XDG_CONFIG_HOME: join(tmp.root, 'config'),
          }),
        },
      )
      const seen = readFileSync(out, 'utf8')
      assert.equal(r.status, 0, `${seen}\n${r.stderr}`)
      assert.match(seen, /^diagnostic practice\/class-unset 0:0$/m)
      assert.match(seen, /^action Fix: practice\/class-unset \(preferred\)$/m)
      assert.match(seen, /^cleared$/m)
      assert.equal(
        readFileSync(file, 'utf8'),
        '{\n  "name": "p",\n  "description": "Ünïcode 😀 first: a skill that does a thing.",\n  "entry": "run.sh",\n  "class": "safe"\n}\n',
      )
    } finally {
      tmp.cleanup()
    }
  })
})
