import assert from 'node:assert/strict'
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { SH } from '../fixtures/run/helpers.js'
import { BIN, type CliResult, runCli, startCli } from '../helpers/cli.js'
import { makeTree, manifest, tempRoot } from '../helpers/tree.js'

/**
 * The MCP Inspector's CLI mode (`inspector --cli`, a devDependency) as a third-party client:
 * it spawns `ongrid-skill mcp` over stdio, or connects over Streamable HTTP, and prints the
 * answer as JSON. Skipped when the Inspector is not installed, unless
 * ONGRID_REQUIRE_INSPECTOR=1 (.ci/run sets it).
 */
function inspectorLauncher(): string | null {
  try {
    const pkg = createRequire(import.meta.url).resolve('@modelcontextprotocol/inspector/package.json')
    const launcher = join(dirname(pkg), 'clients', 'launcher', 'build', 'index.js')
    return existsSync(launcher) ? launcher : null
  } catch {
    return null
  }
}

const LAUNCHER = inspectorLauncher()
const required = process.env.ONGRID_REQUIRE_INSPECTOR === '1'
const skip = LAUNCHER === null && !required ? 'the MCP Inspector is not installed' : false

/** The Inspector (a Node program, run as the launcher) in CLI mode. */
function inspector(args: string[]): Promise<CliResult> {
  assert.ok(LAUNCHER, 'ONGRID_REQUIRE_INSPECTOR=1 but @modelcontextprotocol/inspector is not installed')
  return runCli(['--cli', ...args], {
    bin: LAUNCHER,
    env: { CI: '1', MCP_CATALOG_PATH: join(R, 'catalog.json') },
    stdin: 'ignore',
  })
}

let R: string
let cleanup: () => void
const server = () => [process.execPath, BIN, 'mcp', join(R, 'skills'), '--no-audit']

before(() => {
  ;({ root: R, cleanup } = tempRoot('ongrid-mcp-inspector-'))
  makeTree(R, {
    'skills/echo/skill.json': manifest({
      name: 'echo',
      description: 'Echoes its params.',
      entry: 'run.sh',
      schema: { properties: { s: { type: 'string' }, n: { type: 'integer' } } },
    }),
    'skills/echo/run.sh': { exec: `${SH}cat\n` },
    'skills/fails/skill.json': manifest({ name: 'fails', entry: 'run.sh' }),
    'skills/fails/run.sh': { exec: `${SH}echo boom >&2\nexit 3\n` },
    'skills/mut/skill.json': manifest({ name: 'mut', entry: 'run.sh', class: 'mutating' }),
    'skills/mut/run.sh': { exec: `${SH}echo '{}'\n` },
  })
})
after(() => cleanup?.())

describe('the MCP Inspector CLI against ongrid-skill mcp', { skip, timeout: 120_000 }, () => {
  test('tools/list over stdio', async () => {
    const r = await inspector([...server(), '--method', 'tools/list'])
    assert.equal(r.code, 0, r.stderr)
    const { tools } = JSON.parse(r.stdout) as {
      tools: { name: string; description: string; inputSchema: unknown }[]
    }
    assert.deepEqual(
      tools.map((t) => t.name),
      ['echo', 'fails'],
    )
    assert.equal(tools[0].description, 'Echoes its params.\n\nReturns: {...} (subprocess skill output)')
    assert.deepEqual(tools[0].inputSchema, {
      type: 'object',
      properties: { n: { type: 'integer' }, s: { type: 'string' } },
    })
  })

  test('tools/call over stdio: the bridge’s params, structured content', async () => {
    const r = await inspector([
      ...server(),
      '--method',
      'tools/call',
      '--tool-name',
      'echo',
      '--tool-arg',
      'n=2',
      's=<x>',
      'edge_id=4',
    ])
    assert.equal(r.code, 0, r.stderr)
    const out = JSON.parse(r.stdout)
    assert.deepEqual(out.content, [{ type: 'text', text: '{"n":2,"s":"\\u003cx\\u003e"}' }])
    assert.deepEqual(out.structuredContent, { n: 2, s: '<x>' })
  })

  test('a failing skill: an error result with the manager’s text', async () => {
    const r = await inspector([...server(), '--method', 'tools/call', '--tool-name', 'fails'])
    assert.notEqual(r.code, 0)
    const out = JSON.parse(r.stdout)
    assert.equal(out.isError, true)
    assert.deepEqual(out.content, [{ type: 'text', text: 'subprocess skill fails: exit 3 (stderr: boom)' }])
  })

  test('tools/list over Streamable HTTP', async () => {
    const child = startCli(['mcp', join(R, 'skills'), '--no-audit', '--http', '0'], { stdin: 'ignore' })
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let err = ''
        child.stderr.on('data', (c: Buffer) => {
          err += c
          const m = /Streamable HTTP on (\S+)\n/.exec(err)
          if (m) resolve(m[1])
        })
        child.once('exit', () => reject(new Error(`exited: ${err}`)))
      })
      const r = await inspector([url, '--transport', 'http', '--method', 'tools/list'])
      assert.equal(r.code, 0, r.stderr)
      assert.deepEqual(
        (JSON.parse(r.stdout) as { tools: { name: string }[] }).tools.map((t) => t.name),
        ['echo', 'fails'],
      )
    } finally {
      child.kill('SIGTERM')
    }
  })
})
