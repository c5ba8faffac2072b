import assert from 'node:assert/strict'
import { spawn, spawnSync } from 'node:child_process'
import { readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node.js'
import { BIN, cliEnv, REPO } from '../helpers/cli.js'
import { uri } from '../helpers/lsp.js'
import { makeTree, tempRoot } from '../helpers/tree.js'
import { until } from '../helpers/until.js'

/** README's editor set-ups: the code blocks of the lsp section, by language. */
function blocks(lang: string): string[] {
  const readme = readFileSync(join(REPO, 'README.md'), 'utf8')
  const start = readme.indexOf('**VS Code**: the extension in `editors/vscode/`')
  const section = readme.slice(start, readme.indexOf('\n### ', start))
  return [...section.matchAll(new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``, 'g'))].map((m) => m[1])
}

const haveNvim = spawnSync('nvim', ['--version']).status === 0
const haveTomllib = spawnSync('python3', ['-c', 'import tomllib']).status === 0

function skipUnless(t: { skip: (m: string) => void }, have: boolean, what: string, env: string): boolean {
  if (have) return false
  if (process.env[env] === '1') assert.fail(`${what} is required (${env}=1)`)
  t.skip(`${what} not installed`)
  return true
}

/** TOML parsed by Python's tomllib (TOML 1.0), as JSON. */
function parseToml(text: string): Record<string, unknown> {
  const r = spawnSync(
    'python3',
    ['-c', 'import json, sys, tomllib; print(json.dumps(tomllib.loads(sys.stdin.read())))'],
    {
      input: text,
      encoding: 'utf8',
    },
  )
  assert.equal(r.status, 0, r.stderr)
  return JSON.parse(r.stdout)
}

describe('README: the editor set-ups', () => {
  it('has Lua that Neovim’s LuaJIT parses', (t) => {
    if (skipUnless(t, haveNvim, 'nvim', 'ONGRID_REQUIRE_NVIM')) return
    const lua = blocks('lua')
    assert.equal(lua.length, 2)
    const tmp = tempRoot()
    try {
      lua.forEach((code, i) => {
        const file = join(tmp.root, `${i}.lua`)
        writeFileSync(file, code)
        const check = `lua local f = assert(io.open(${JSON.stringify(file)})); local ok, err = loadstring(f:read('*a')); if not ok then io.stderr:write(err) vim.cmd('cq') end`
        const r = spawnSync('nvim', ['--headless', '--clean', '-n', '-i', 'NONE', '-c', check, '-c', 'qa!'], {
          encoding: 'utf8',
          timeout: 30_000,
        })
        assert.equal(r.status, 0, `block ${i}: ${r.stderr}`)
      })
    } finally {
      tmp.cleanup()
    }
  })

  it('has Helix and Zed TOML that parses, every language given the server', (t) => {
    if (skipUnless(t, haveTomllib, 'python3 with tomllib', 'ONGRID_REQUIRE_PYTHON')) return
    const [helix, zed] = blocks('toml').map(parseToml)
    assert.deepEqual((helix['language-server'] as Record<string, unknown>)['ongrid-skill'], {
      command: 'ongrid-skill',
      args: ['lsp', '--stdio'],
    })
    const languages = helix.language as Array<{ name: string; 'language-servers': string[] }>
    assert.deepEqual(
      languages.map((l) => l.name),
      ['json', 'markdown', 'yaml'],
    )
    for (const l of languages) assert.ok(l['language-servers'].includes('ongrid-skill'), l.name)
    assert.deepEqual((zed.language_servers as Record<string, unknown>)['ongrid-skill'], {
      name: 'ongrid-skill',
      languages: ['JSON', 'Markdown', 'YAML'],
    })
  })

  it('starts the server from Helix’s command line, which answers with diagnostics', {
    timeout: 60_000,
  }, async (t) => {
    if (skipUnless(t, haveTomllib, 'python3 with tomllib', 'ONGRID_REQUIRE_PYTHON')) return
    const helix = parseToml(blocks('toml')[0])
    const { command, args } = (
      helix['language-server'] as Record<string, { command: string; args: string[] }>
    )['ongrid-skill']
    const tmp = tempRoot()
    try {
      // `ongrid-skill` on PATH, as installed.
      makeTree(tmp.root, {
        'p/skill.json': '{"name":"p","description":"A skill that does a thing.","entry":"run.sh"}',
      })
      makeTree(tmp.root, { 'p/run.sh': { exec: '#!/bin/sh\necho {}\n' } })
      symlinkSync(BIN, join(tmp.root, command))
      const env = cliEnv({ PATH: `${tmp.root}:${process.env.PATH}` })
      const child = spawn(command, args, { env, cwd: tmp.root, stdio: ['pipe', 'pipe', 'pipe'] })
      const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)))
      const conn = createMessageConnection(
        new StreamMessageReader(child.stdout),
        new StreamMessageWriter(child.stdin),
      )
      const published: Array<{ uri: string; diagnostics: Array<{ code?: string }> }> = []
      conn.onNotification('textDocument/publishDiagnostics', (p) => published.push(p))
      conn.onRequest('client/registerCapability', () => null)
      conn.listen()
      let err = ''
      child.stderr.on('data', (c: Buffer) => {
        err += c.toString()
      })
      const gone = exited.then((code) => assert.fail(`the server exited ${code}: ${err}`))
      await Promise.race([
        gone,
        conn.sendRequest('initialize', {
          processId: process.pid,
          rootUri: uri(tmp.root),
          workspaceFolders: [{ uri: uri(tmp.root), name: 'p' }],
          capabilities: {},
        }),
      ])
      await conn.sendNotification('initialized', {})
      const file = join(tmp.root, 'p/skill.json')
      await conn.sendNotification('textDocument/didOpen', {
        textDocument: { uri: uri(file), languageId: 'json', version: 1, text: readFileSync(file, 'utf8') },
      })
      await until('the diagnostics of skill.json', () =>
        published.some(
          (p) => p.uri === uri(file) && p.diagnostics.some((d) => d.code === 'practice/class-unset'),
        ),
      )
      await conn.sendRequest('shutdown')
      await conn.sendNotification('exit')
      assert.equal(await exited, 0)
      conn.dispose()
    } finally {
      tmp.cleanup()
    }
  })
})
