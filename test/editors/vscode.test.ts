import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { REPO } from '../helpers/cli.js'

const DIR = join(REPO, 'editors/vscode')
/** Built by `npm run package` in editors/vscode (.ci/run does it; VS Code itself is not run here). */
const VSIX = join(DIR, 'ongrid-skill.vsix')

describe('the VS Code extension', () => {
  const manifest = JSON.parse(readFileSync(join(DIR, 'package.json'), 'utf8'))

  it('starts `ongrid-skill lsp --stdio` and associates skill.json with the shipped schema', () => {
    assert.equal(manifest.main, './extension.js')
    assert.ok(manifest.dependencies['vscode-languageclient'])
    assert.deepEqual(manifest.contributes.jsonValidation, [
      { fileMatch: '**/skill.json', url: './schemas/skill.schema.json' },
    ])
    const code = readFileSync(join(DIR, 'extension.js'), 'utf8')
    assert.match(code, /args: \['lsp', '--stdio'\]/)
    // The files the server serves are the ones the extension hands it.
    for (const p of ['**/skill.json', '**/SKILL.md', '**/tests/*.json', '**/.ongrid-skill.{yaml,yml}'])
      assert.ok(code.includes(`pattern: '${p}'`), p)
  })

  it('is packed into a .vsix with its client library and the schema', (t) => {
    if (!existsSync(VSIX)) {
      if (process.env.ONGRID_REQUIRE_VSIX === '1')
        assert.fail(`${VSIX} was not built (ONGRID_REQUIRE_VSIX=1)`)
      t.skip('the .vsix is built in CI (npm run package in editors/vscode)')
      return
    }
    const list = spawnSync('unzip', ['-Z1', VSIX], { encoding: 'utf8' })
    assert.equal(list.status, 0, list.stderr)
    const names = list.stdout.split('\n')
    for (const n of [
      'extension/package.json',
      'extension/extension.js',
      'extension/schemas/skill.schema.json',
      'extension/node_modules/vscode-languageclient/package.json',
      'extension.vsixmanifest',
    ])
      assert.ok(names.includes(n), n)
    const schema = spawnSync('unzip', ['-p', VSIX, 'extension/schemas/skill.schema.json'], {
      encoding: 'utf8',
    })
    assert.equal(schema.stdout, readFileSync(join(REPO, 'schemas/skill.schema.json'), 'utf8'))
    const packed = JSON.parse(
      spawnSync('unzip', ['-p', VSIX, 'extension/package.json'], { encoding: 'utf8' }).stdout,
    )
    assert.equal(packed.version, manifest.version)
  })
})
