import assert from 'node:assert/strict'
import { execFileSync, spawnSync } from 'node:child_process'
import { chmodSync, existsSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js'
import { Database } from '../../src/core/audit/sqlite.js'
import { aliveInGroup, aliveWithMarker, killAll, marker, SH, settle } from '../fixtures/run/helpers.js'
import { BIN, type CliResult, cliEnv, runCli, startCli } from '../helpers/cli.js'
import { STOP_SIGNALS } from '../helpers/signals.js'
import { makeTree, manifest, type Node, tempRoot } from '../helpers/tree.js'
import { until } from '../helpers/until.js'

type Text = { type: 'text'; text: string }

interface Served {
  client: Client
  stderr: () => string
  close: () => Promise<void>
}

/** `ongrid-skill mcp ARGS…` with the SDK's own client over stdio. */
async function serve(args: string[], env: Record<string, string> = {}): Promise<Served> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', ...args],
    env: cliEnv({ CI: '1', ...env }) as Record<string, string>,
    stderr: 'pipe',
  })
  let err = ''
  transport.stderr?.on('data', (c: Buffer) => {
    err += c.toString('utf8')
  })
  const client = new Client({ name: 'ongrid-skill-test', version: '0' })
  await client.connect(transport)
  return { client, stderr: () => err, close: () => client.close() }
}

function text(r: unknown): string {
  const c = (r as { content: Text[] }).content
  assert.equal(c.length, 1)
  assert.equal(c[0].type, 'text')
  return c[0].text
}

const SLEEP = '/bin/sleep'
/** In the argv of the child the linger pack leaves behind, so the test can end it. */
const LINGER = marker('mcp-linger')

let R: string
let cleanup: () => void
let STATE: string

before(() => {
  ;({ root: R, cleanup } = tempRoot('ongrid-mcp-'))
  STATE = join(R, 'state')
  const packs: Record<string, Node> = {
    // Walk order (by dir) differs from key order: the tools come sorted by key.
    'skills/a_pack/skill.json': manifest({
      name: 'zeta_echo',
      description: 'Echoes its params.',
      entry: 'run.sh',
      schema: { properties: { b: { type: 'integer' }, a: { type: 'string' } } },
    }),
    'skills/a_pack/run.sh': { exec: `${SH}cat\n` },
    'skills/b_pack/skill.json': manifest({ name: 'alpha_list', entry: 'run.sh' }),
    'skills/b_pack/run.sh': { exec: `${SH}echo '[1,2]'\n` },
    'skills/c_fail/skill.json': manifest({ name: 'fails', entry: 'run.sh' }),
    'skills/c_fail/run.sh': { exec: `${SH}echo boom >&2\nexit 3\n` },
    'skills/d_slow/skill.json': manifest({ name: 'slow', entry: 'run.sh', timeout_seconds: 1 }),
    'skills/d_slow/run.sh': { exec: `${SH}exec ${SLEEP} 30\n` },
    'skills/e_mut/skill.json': manifest({ name: 'mutates', entry: 'run.sh', class: 'mutating' }),
    'skills/e_mut/run.sh': { exec: `${SH}echo '{"done":true}'\n` },
    'skills/f_str/skill.json': manifest({ name: 'str_schema', entry: 'run.sh', schema: 'x' }),
    'skills/f_str/run.sh': { exec: `${SH}echo '{}'\n` },
    'skills/g_clash/skill.json': manifest({ name: 'web_search', entry: 'run.sh' }),
    'skills/g_clash/run.sh': { exec: `${SH}echo '{}'\n` },
    // Writes its pid (its process group's id) and waits on a background child of the group.
    'skills/h_hang/skill.json': manifest({ name: 'hangs', entry: 'run.sh', timeout_seconds: 60 }),
    'skills/h_hang/run.sh': {
      exec: `${SH}echo $$ > "${join(R, 'hang.pid')}"\n${SLEEP} 60 &\nwait\n`,
    },
    // Two calls meet: each waits (up to 20 s) until two have started, so it only succeeds when
    // two run at once; the log shows how many ever ran together.
    'skills/i_meet/skill.json': manifest({ name: 'meet', entry: 'run.sh', timeout_seconds: 30 }),
    'skills/i_meet/run.sh': {
      exec: `${SH}L="${join(R, 'meet.log')}"\necho start >> "$L"\ni=0\nwhile [ "$(grep -c start "$L")" -lt 2 ]; do i=$((i+1)); [ $i -gt 200 ] && exit 9; ${SLEEP} 0.1; done\n${SLEEP} 0.3\necho end >> "$L"\necho '{"met":true}'\n`,
    },
  }
  makeTree(R, packs)
  // The executor's rules seen through a call: the environment, the stdout cap, the WaitDelay.
  makeTree(R, {
    'execs/env/skill.json': manifest({ name: 'env', entry: 'run.sh', env_allow: ['MCP_TEST_ALLOWED'] }),
    'execs/env/run.sh': {
      exec: `${SH}printf '{"allowed":"%s","denied":"%s"}' "$MCP_TEST_ALLOWED" "$MCP_TEST_DENIED"\n`,
    },
    // Valid JSON past the 16 MiB the manager keeps: what is kept is not JSON.
    'execs/big/skill.json': manifest({ name: 'big', entry: 'run.sh' }),
    'execs/big/run.sh': {
      exec: `${SH}printf '{"s":"'\nhead -c 17000000 /dev/zero | tr '\\0' a\nprintf '"}'\n`,
    },
    // Exits at once, but a child keeps stdout open: the manager waits 1 s for the pipe, no more.
    'execs/linger/skill.json': manifest({ name: 'linger', entry: 'run.sh' }),
    'execs/linger/run.sh': { exec: `${SH}/bin/sh -c '${SLEEP} 30; :' ${LINGER} &\necho '{}'\n` },
  })
  // Definitions with what a JS object and Go's map order differently (index-like keys), what
  // json.Marshal escapes (<, >, &, U+2028), numbers Go rewrites (1.0, 1E3) and a repeated key.
  makeTree(R, {
    'defs/odd/skill.json':
      '{"name":"odd","description":"Say <b> & \u2028 \\"hi\\"","entry":"run.sh","schema":' +
      '{"properties":{"b":{"type":"string","default":"<&>"},"10":{"type":"integer","minimum":1.0},' +
      '"2":{"type":"number","maximum":1E3}},"required":["b"],"required":["b","2"]}}',
    'defs/odd/run.sh': { exec: `${SH}echo '{}'\n` },
    'defs/typed/skill.json': manifest({
      name: 'typed',
      entry: 'run.sh',
      schema: { type: 'object', additionalProperties: false, properties: { x: { enum: [1, 'a', null] } } },
    }),
    'defs/typed/run.sh': { exec: `${SH}echo '{}'\n` },
  })
  // Echoes its stdin; its schema names `__proto__` (written as text: it is a key like any other).
  makeTree(R, {
    'protos/echo/skill.json':
      '{"name":"proto_echo","description":"Echoes the params it gets.","entry":"run.sh","schema":' +
      '{"type":"object","properties":{"__proto__":{"type":"string"},"constructor":{"type":"object"}}}}',
    'protos/echo/run.sh': { exec: `${SH}cat\n` },
  })
  // Apart from the rest: a call that takes a while.
  makeTree(R, {
    'naps/nap/skill.json': manifest({ name: 'nap', entry: 'run.sh' }),
    'naps/nap/run.sh': { exec: `${SH}${SLEEP} 0.5\ncat\n` },
  })
})

after(() => cleanup())

describe('mcp over stdio, driven by the SDK client', { timeout: 120_000 }, () => {
  let s: Served
  before(async () => {
    s = await serve([join(R, 'skills'), '--audit-db', join(STATE, 'audit.db')])
  })
  after(async () => {
    await s.close()
  })

  test('tools/list: the safe skills the bridge offers, by key, with its definitions', async () => {
    const { tools } = await s.client.listTools()
    assert.deepEqual(
      tools.map((t) => t.name),
      ['alpha_list', 'fails', 'hangs', 'meet', 'slow', 'zeta_echo'],
    )
    const echo = tools.find((t) => t.name === 'zeta_echo')!
    assert.equal(echo.description, 'Echoes its params.\n\nReturns: {...} (subprocess skill output)')
    assert.deepEqual(echo.inputSchema, {
      properties: { a: { type: 'string' }, b: { type: 'integer' } },
      type: 'object',
    })
    assert.deepEqual(echo.annotations, { readOnlyHint: true, destructiveHint: false })
    const list = tools.find((t) => t.name === 'alpha_list')!
    assert.deepEqual(list.inputSchema, { properties: {}, type: 'object' })
  })

  test('the loader’s lines and the skipped ones go to stderr', () => {
    const err = s.stderr()
    assert.match(err, /skill loader: registered subprocess skill "zeta_echo" from .*a_pack\/skill\.json\n/)
    assert.match(
      err,
      /skill loader: skill "web_search" already registered, skipping .*g_clash\/skill\.json\n/,
    )
    assert.match(
      err,
      /WARN aiops\/tools: skill schema build failed skill=str_schema err=subprocess skill "str_schema": invalid manifest schema: json: cannot unmarshal string into Go value of type map\[string\]interface \{\}\n/,
    )
    assert.match(err, /mcp: "mutates" not served: class mutating/)
    assert.match(err, /mcp: serving 6 tools \(8 skills registered\)\n/)
  })

  test('a call gets the params the bridge sends: keys sorted, edge_id dropped, HTML escaped', async () => {
    const r = await s.client.callTool({ name: 'zeta_echo', arguments: { b: 2, a: '<x>&', edge_id: 9 } })
    assert.equal(r.isError, undefined)
    assert.equal(text(r), '{"a":"\\u003cx\\u003e\\u0026","b":2}')
    assert.deepEqual(r.structuredContent, { a: '<x>&', b: 2 })
  })

  test('no arguments: the entry gets {}', async () => {
    const r = await s.client.callTool({ name: 'zeta_echo' })
    assert.equal(text(r), '{}')
  })

  test('stdout that is not an object: text only, verbatim', async () => {
    const r = await s.client.callTool({ name: 'alpha_list', arguments: {} })
    assert.equal(text(r), '[1,2]\n')
    assert.equal(r.structuredContent, undefined)
  })

  test('a failing entry: an error result with the manager’s text', async () => {
    const r = await s.client.callTool({ name: 'fails', arguments: {} })
    assert.equal(r.isError, true)
    assert.equal(text(r), 'subprocess skill fails: exit 3 (stderr: boom)')
  })

  test('a tool that is not served: JSON-RPC error -32602 (Invalid params) with the registry’s not-found text', async () => {
    for (const name of ['nope', 'mutates', 'web_search']) {
      await assert.rejects(
        s.client.callTool({ name, arguments: {} }),
        (e: Error & { code?: number }) =>
          e.code === -32602 && e.message.includes(`not found: tool "${name}"`),
      )
    }
  })

  test('a timeout: the manager’s text', async () => {
    const r = await s.client.callTool({ name: 'slow', arguments: {} })
    assert.equal(r.isError, true)
    assert.equal(text(r), 'subprocess skill slow: timed out after 1s')
  })

  test('a cancelled call kills the entry’s process group', async () => {
    const pidFile = join(R, 'hang.pid')
    const c = new AbortController()
    const call = s.client.callTool({ name: 'hangs', arguments: {} }, undefined, { signal: c.signal })
    call.catch(() => {})
    await until(
      'the entry to start',
      () => existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() !== '',
    )
    const pgid = Number(readFileSync(pidFile, 'utf8'))
    assert.ok(aliveInGroup(pgid).length >= 2, 'the entry and its child run')
    c.abort()
    await assert.rejects(call)
    const left = await settle(() => aliveInGroup(pgid), 10_000)
    killAll(left, pgid)
    assert.deepEqual(left, [])
    // The server goes on answering.
    assert.equal(text(await s.client.callTool({ name: 'zeta_echo', arguments: { a: 'x' } })), '{"a":"x"}')
  })

  test('calls are recorded in the local audit store, caller_role mcp', () => {
    const db = new Database(join(STATE, 'audit.db'), { readonly: true })
    try {
      const rows = db
        .prepare(
          "SELECT skill_key, caller_role, class, params_json, result_json, error FROM skill_executions WHERE skill_key IN ('zeta_echo', 'fails') ORDER BY id",
        )
        .all()
        .map((r) => ({ ...r })) as Record<string, string>[]
      assert.deepEqual(rows[0], {
        skill_key: 'zeta_echo',
        caller_role: 'mcp',
        class: 'safe',
        params_json: '{"a":"\\u003cx\\u003e\\u0026","b":2}',
        result_json: '{"a":"\\u003cx\\u003e\\u0026","b":2}',
        error: '',
      })
      const fail = rows.find((r) => r.skill_key === 'fails')!
      assert.equal(fail.error, 'subprocess skill fails: exit 3 (stderr: boom)')
      assert.equal(fail.result_json, '')
    } finally {
      db.close()
    }
  })
})

describe('mcp: bounds and options', { timeout: 120_000 }, () => {
  test('--jobs 2: two calls run at once, never three', async () => {
    const s = await serve([join(R, 'skills'), '--no-audit', '--jobs', '2'], {
      XDG_STATE_HOME: join(R, 'none'),
    })
    try {
      const calls = Array.from({ length: 4 }, () => s.client.callTool({ name: 'meet', arguments: {} }))
      const results = await Promise.all(calls)
      for (const r of results) assert.equal(text(r), '{"met":true}\n')
      let running = 0
      let most = 0
      for (const line of readFileSync(join(R, 'meet.log'), 'utf8').trim().split('\n')) {
        running += line === 'start' ? 1 : -1
        most = Math.max(most, running)
      }
      assert.equal(most, 2)
      assert.equal(existsSync(join(R, 'none')), false, '--no-audit opens no store')
    } finally {
      await s.close()
    }
  })

  test('--class widens the set; annotations follow the class', async () => {
    const s = await serve([join(R, 'skills'), '--no-audit', '--class', 'safe,mutating'])
    try {
      const { tools } = await s.client.listTools()
      const m = tools.find((t) => t.name === 'mutates')
      assert.deepEqual(m?.annotations, { readOnlyHint: false, destructiveHint: false })
      const r = await s.client.callTool({ name: 'mutates', arguments: {} })
      assert.deepEqual(r.structuredContent, { done: true })
    } finally {
      await s.close()
    }
  })

  test('--watch: a new pack is served after tools/list_changed', async () => {
    const { root, cleanup: done } = tempRoot('ongrid-mcp-watch-')
    try {
      makeTree(root, {
        'one/skill.json': manifest({ name: 'one', entry: 'run.sh' }),
        'one/run.sh': { exec: `${SH}echo '{}'\n` },
      })
      const s = await serve([root, '--no-audit', '--watch'])
      try {
        assert.deepEqual(
          (await s.client.listTools()).tools.map((t) => t.name),
          ['one'],
        )
        // Without the notification the test fails (rather than waiting for ever).
        let timer: NodeJS.Timeout | undefined
        const changed = Promise.race([
          new Promise<void>((resolve) =>
            s.client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()),
          ),
          new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(new Error('no tools/list_changed within 30 s')), 30_000)
          }),
        ]).finally(() => clearTimeout(timer))
        makeTree(root, {
          'two/run.sh': { exec: `${SH}echo '{}'\n` },
          'two/skill.json': manifest({ name: 'two', entry: 'run.sh' }),
        })
        await changed
        assert.deepEqual(
          (await s.client.listTools()).tools.map((t) => t.name),
          ['one', 'two'],
        )
      } finally {
        await s.close()
      }
    } finally {
      done()
    }
  })
})

describe('mcp: a call runs through the manager’s executor', { timeout: 120_000 }, () => {
  let s: Served
  before(async () => {
    s = await serve([join(R, 'execs'), '--no-audit'], {
      MCP_TEST_ALLOWED: 'yes',
      MCP_TEST_DENIED: 'no',
    })
  })
  after(async () => {
    await s.close()
  })

  test('the entry’s environment holds only what env_allow names', async () => {
    const r = await s.client.callTool({ name: 'env', arguments: {} })
    assert.deepEqual(r.structuredContent, { allowed: 'yes', denied: '' })
  })

  test('stdout past the cap is dropped: the manager’s not-JSON error', async () => {
    const r = await s.client.callTool({ name: 'big', arguments: {} })
    assert.equal(r.isError, true)
    assert.equal(
      text(r),
      `subprocess skill big: stdout is not valid JSON (first 200B: ...${'a'.repeat(200)})`,
    )
  })

  test('a pipe held after the exit: the WaitDelay’s error, about 1 s later', async () => {
    const t0 = Date.now()
    const r = await s.client.callTool({ name: 'linger', arguments: {} })
    assert.equal(r.isError, true)
    assert.equal(text(r), 'subprocess skill linger: exec: WaitDelay expired before I/O complete (stderr: )')
    assert.ok(Date.now() - t0 >= 900, 'not before the WaitDelay')
    killAll(aliveWithMarker(LINGER))
  })
})

describe('mcp: definitions as lint --show-tool prints them', { timeout: 120_000 }, () => {
  test('each tool’s name, description and input schema are the bridge’s function definition', async () => {
    const s = await serve([join(R, 'defs'), '--no-audit'])
    try {
      const { tools } = await s.client.listTools()
      assert.deepEqual(
        tools.map((t) => t.name),
        ['odd', 'typed'],
      )
      for (const [tool, pack] of [
        [tools[0], 'odd'],
        [tools[1], 'typed'],
      ] as const) {
        const lint = await runCli(['lint', join(R, 'defs', pack), '--show-tool', '--json'], {
          stdin: 'ignore',
        })
        const def = JSON.parse(lint.stdout) as {
          function: { name: string; description: string; parameters: unknown }
        }
        assert.equal(tool.name, def.function.name)
        assert.equal(tool.description, def.function.description)
        assert.deepEqual(tool.inputSchema, def.function.parameters)
      }
      assert.equal(tools[0].description, 'Say <b> & \u2028 "hi"\n\nReturns: {...} (subprocess skill output)')
      assert.deepEqual(tools[0].inputSchema, {
        properties: {
          '10': { minimum: 1, type: 'integer' },
          '2': { maximum: 1000, type: 'number' },
          b: { default: '<&>', type: 'string' },
        },
        required: ['b', '2'],
        type: 'object',
      })
    } finally {
      await s.close()
    }
  })

  test('a single pack dir works as DIR', async () => {
    const r = await raw([join(R, 'defs', 'typed'), '--json'], '')
    assert.equal(r.code, 0, r.stderr)
    const doc = JSON.parse(r.stdout) as { loader_lines: { message: string }[]; tools: { name: string }[] }
    assert.deepEqual(
      doc.tools.map((t) => t.name),
      ['typed'],
    )
    assert.match(
      doc.loader_lines[0]?.message,
      /^skill loader: registered subprocess skill "typed" from .*\/defs\/typed\/skill\.json$/,
    )
    const s = await serve([join(R, 'defs', 'odd'), '--no-audit'])
    try {
      assert.deepEqual(
        (await s.client.listTools()).tools.map((t) => t.name),
        ['odd'],
      )
    } finally {
      await s.close()
    }
  })
})

describe('mcp --http: Streamable HTTP on loopback', { timeout: 60_000 }, () => {
  test('two clients, each its own session; 127.0.0.1 only; the server stops on SIGTERM', async () => {
    const { StreamableHTTPClientTransport } = await import(
      '@modelcontextprotocol/sdk/client/streamableHttp.js'
    )
    const { child, url, exited } = await startHttp(['mcp', join(R, 'skills'), '--no-audit', '--http', '0'])
    let out = ''
    child.stdout.on('data', (c: Buffer) => {
      out += c
    })
    try {
      const clients = await Promise.all(
        [1, 2].map(async () => {
          const c = new Client({ name: 'http-test', version: '0' })
          await c.connect(new StreamableHTTPClientTransport(url))
          return c
        }),
      )
      for (const c of clients) {
        assert.equal((await c.listTools()).tools.length, 6)
        const r = await c.callTool({ name: 'zeta_echo', arguments: { a: 'h' } })
        assert.equal(text(r), '{"a":"h"}')
      }
      // An unknown tool: JSON-RPC Invalid params over HTTP too.
      await assert.rejects(
        clients[0].callTool({ name: 'nope', arguments: {} }),
        (e: Error & { code?: number }) => e.code === -32602 && e.message.includes('not found: tool "nope"'),
      )
      // Listening on loopback only: the kernel's socket table has 127.0.0.1 for this port, no other.
      const port = Number(url.port).toString(16).toUpperCase().padStart(4, '0')
      const listening = ['/proc/net/tcp', '/proc/net/tcp6']
        .flatMap((f) => (existsSync(f) ? readFileSync(f, 'utf8').split('\n').slice(1) : []))
        .map((l) => l.trim().split(/\s+/))
        .filter((f) => f[1]?.endsWith(`:${port}`) && f[3] === '0A')
        .map((f) => f[1])
      assert.deepEqual(listening, [`0100007F:${port}`])
      const res = await fetch(url, {
        method: 'POST',
        body: '{}',
        headers: { 'content-type': 'application/json' },
      })
      assert.equal(res.status, 400)
      // DNS rebinding: another name for 127.0.0.1 in Host is refused.
      const { request } = await import('node:http')
      const status = await new Promise<number | undefined>((resolve, reject) => {
        const r = request(
          {
            host: '127.0.0.1',
            port: url.port,
            path: '/mcp',
            method: 'POST',
            headers: { host: `evil.example:${url.port}` },
          },
          (res) => {
            res.resume()
            resolve(res.statusCode)
          },
        )
        r.once('error', reject)
        r.end('{}')
      })
      assert.equal(status, 403)
      assert.equal(out, '', 'nothing on stdout')
      for (const c of clients) await c.close()
    } finally {
      child.kill('SIGTERM')
    }
    assert.equal(await exited, 143)
  })
})

interface Answer {
  status: number
  session: string | undefined
  text: string
}

/**
 * One raw HTTP request: `body` written whole, or `chunks` of it written one by one until the
 * answer comes (a body the server refuses part way); the status, mcp-session-id and body text.
 */
/** `mcp … --http PORT` started: the URL it says it serves on (stderr), and its exit. */
async function startHttp(args: string[]) {
  const child = startCli(args, { stdin: 'ignore' })
  let err = ''
  const url = await new Promise<URL>((resolve, reject) => {
    child.stderr.on('data', (c: Buffer) => {
      err += c
      const m = /Streamable HTTP on (http:\/\/127\.0\.0\.1:\d+\/mcp)\n/.exec(err)
      if (m) resolve(new URL(m[1]))
    })
    child.once('exit', () => reject(new Error(`exited: ${err}`)))
  })
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  return { child, url, exited }
}

async function httpRequest(
  url: URL,
  o: { method?: string; headers?: Record<string, string>; body?: string; chunks?: () => Buffer | null },
): Promise<Answer> {
  const { request } = await import('node:http')
  return await new Promise<Answer>((resolve, reject) => {
    let answered = false
    const r = request(
      url,
      {
        method: o.method ?? 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...o.headers,
        },
      },
      (res) => {
        answered = true
        let text = ''
        res.on('data', (c: Buffer) => {
          text += c
        })
        res.on('end', () => {
          const sid = res.headers['mcp-session-id']
          resolve({ status: res.statusCode ?? 0, session: typeof sid === 'string' ? sid : undefined, text })
        })
        res.on('error', reject)
      },
    )
    // A body cut short by the server's answer: the write fails once the answer is in.
    r.on('error', (e) => {
      if (!answered) reject(e)
    })
    if (o.chunks === undefined) {
      r.end(o.body ?? '')
      return
    }
    const next = () => {
      if (answered) return
      const c = o.chunks?.()
      if (c === null || c === undefined) r.end()
      else if (r.write(c)) setImmediate(next)
      else r.once('drain', next)
    }
    next()
  })
}

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
})

describe('mcp --http: bounds, checked with raw requests', { timeout: 60_000 }, () => {
  test('Origin and Host, the body limit, idle sessions, the session cap', async () => {
    const { child, url, exited } = await startHttp([
      'mcp',
      join(R, 'naps'),
      '--no-audit',
      '--http',
      '0',
      '--session-idle',
      '2s',
      '--max-sessions',
      '2',
    ])
    const port = url.port
    try {
      // Origin: a web page of another origin is refused; loopback on this port and none pass.
      for (const origin of [
        'http://evil.example',
        'null',
        `http://127.0.0.1:${Number(port) + 1}`,
        `https://localhost:${port}`,
      ]) {
        const a = await httpRequest(url, { headers: { origin }, body: INITIALIZE })
        assert.equal(a.status, 403, origin)
        assert.match(JSON.parse(a.text).error.message, /^forbidden: Origin /)
      }
      // Host: only 127.0.0.1:PORT and localhost:PORT.
      for (const host of [`127.0.0.1`, `evil.example:${port}`, `localhost.:${port}`]) {
        const a = await httpRequest(url, { headers: { host }, body: INITIALIZE })
        assert.equal(a.status, 403, host)
      }
      // A body that is not JSON: 400 with JSON-RPC's Parse error.
      const garbled = await httpRequest(url, { body: '{not json' })
      assert.equal(garbled.status, 400, garbled.text)
      assert.equal(JSON.parse(garbled.text).error.code, -32700)

      // Bodies over 10 MiB: 413 with a JSON-RPC error, by Content-Length before any byte is read,
      // or once the bytes read pass the bound; the server serves on.
      // Before any session: they take a while, and a session idle for 2 s ends.
      let opened = false
      const declared = await httpRequest(url, {
        headers: { 'content-length': String(11 * 1024 * 1024) },
        chunks: () => {
          if (opened) return null
          opened = true
          return Buffer.from('{"jsonrpc":')
        },
      })
      assert.equal(declared.status, 413)
      const refusal = JSON.parse(declared.text)
      assert.equal(refusal.id, null)
      assert.match(refusal.error.message, /^Payload Too Large: the request body has more than 10485760 bytes/)
      // The client is still writing when the answer comes: it must get the 413, not a reset
      // (EPIPE, ECONNRESET). That was a race lost about one time in three: eight tries. The body
      // offered is 1 GiB, far more than the server reads before it answers (10 MiB), so the
      // client is still writing when the answer comes even on a loaded machine (with 64 MiB, the
      // whole body was sometimes sent before the client saw the answer); it stops once it has.
      const offered = 1024 * 1024 * 1024
      for (let i = 0; i < 8; i++) {
        let sent = 0
        const streamed = await httpRequest(url, {
          chunks: () => {
            if (sent >= offered) return null
            sent += 1024 * 1024
            return Buffer.alloc(1024 * 1024, 0x20)
          },
        })
        assert.equal(streamed.status, 413, `try ${i}`)
        assert.ok(sent < offered, `no answer before the whole body: ${sent} bytes sent`)
      }
      const first = await httpRequest(url, {
        headers: { origin: `http://localhost:${port}` },
        body: INITIALIZE,
      })
      assert.equal(first.status, 200, first.text)
      const second = await httpRequest(url, { headers: { host: `localhost:${port}` }, body: INITIALIZE })
      assert.equal(second.status, 200, second.text)
      // The cap: a third session is refused until one ends.
      const third = await httpRequest(url, { body: INITIALIZE })
      assert.equal(third.status, 503)
      assert.match(JSON.parse(third.text).error.message, /^too many sessions \(2\)/)
      const del = await httpRequest(url, {
        method: 'DELETE',
        headers: { 'mcp-session-id': second.session ?? '' },
      })
      assert.equal(del.status, 200, del.text)
      const again = await httpRequest(url, { body: INITIALIZE })
      assert.equal(again.status, 200, again.text)

      const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' })
      const live = { 'mcp-session-id': again.session ?? '', 'mcp-protocol-version': '2025-06-18' }
      const used = await httpRequest(url, { headers: live, body: list })
      assert.equal(used.status, 200, used.text)
      // Over HTTP too, a `__proto__` argument reaches the entry (which echoes its stdin).
      const call = await httpRequest(url, {
        headers: live,
        body: '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"nap","arguments":{"__proto__":"x","b":1}}}',
      })
      assert.equal(call.status, 200, call.text)
      const data = /^data: (.*)$/m.exec(call.text)?.[1] ?? call.text
      assert.deepEqual(JSON.parse(data).result.content, [{ type: 'text', text: '{"__proto__":"x","b":1}' }])

      // Idle sessions end: `first` has had no request since it began (3.6 s of requests below, past
      // the 2 s idle and a sweep every 0.5 s); `again` is kept in use, a request every 0.4 s.
      for (let i = 0; i < 9; i++) {
        await new Promise((r) => setTimeout(r, 400))
        assert.equal((await httpRequest(url, { headers: live, body: list })).status, 200)
      }
      const stale = await httpRequest(url, {
        headers: { 'mcp-session-id': first.session ?? '', 'mcp-protocol-version': '2025-06-18' },
        body: list,
      })
      assert.equal(stale.status, 404, stale.text)

      // A client that writes on past the answer (and past our FIN: half-open) is cut, after a
      // second of discarding.
      const { connect } = await import('node:net')
      const raw = connect({ port: Number(port), host: '127.0.0.1', allowHalfOpen: true })
      let heard = ''
      raw.on('data', (c: Buffer) => {
        heard += c
      })
      raw.on('error', () => {})
      raw.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n`)
      raw.write('Transfer-Encoding: chunked\r\n\r\n')
      const chunk = Buffer.concat([
        Buffer.from('100000\r\n'),
        Buffer.alloc(0x100000, 0x20),
        Buffer.from('\r\n'),
      ])
      const pump = () => {
        while (!raw.destroyed && raw.write(chunk));
      }
      raw.on('drain', pump)
      pump()
      await new Promise((resolve) => raw.once('close', resolve))
      assert.match(heard, /^HTTP\/1\.1 413 Payload Too Large\r\n/)
      assert.match(heard, /\r\nConnection: close\r\n/i)
    } finally {
      child.kill('SIGTERM')
    }
    assert.equal(await exited, 143)
  })
})

/** Runs `ongrid-skill mcp ARGS` with this stdin; stdout, stderr and the exit code. */
function raw(args: string[], input: string, env: Record<string, string> = {}): Promise<CliResult> {
  return runCli(['mcp', ...args], { input, env })
}

const rpc = (id: number | null, method: string, params: object = {}) =>
  `${JSON.stringify({ jsonrpc: '2.0', ...(id === null ? {} : { id }), method, params })}\n`
const INIT =
  rpc(1, 'initialize', {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'raw', version: '0' },
  }) + rpc(null, 'notifications/initialized')

describe('mcp: stdio as a pipe', { timeout: 60_000 }, () => {
  test('stdout holds only JSON-RPC; a call under way at the end of stdin still answers, then exit 0', async () => {
    const r = await raw(
      [join(R, 'naps'), '--no-audit'],
      INIT + rpc(2, 'tools/list') + rpc(3, 'tools/call', { name: 'nap', arguments: { a: 1 } }),
    )
    assert.equal(r.code, 0, r.stderr)
    const msgs = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: number; result: Record<string, unknown> })
    assert.deepEqual(
      msgs.map((m) => m.id),
      [1, 2, 3],
    )
    assert.equal((msgs[1].result.tools as unknown[]).length, 1)
    assert.deepEqual(msgs[2].result.content, [{ type: 'text', text: '{"a":1}' }])
  })

  test('arguments named __proto__, constructor, prototype reach the entry as the bridge sends them', async () => {
    // As the client wrote them (JSON.stringify cannot write an own `__proto__` from a literal).
    const args = '{"z":1,"__proto__":"x","constructor":{"__proto__":[1],"b":"<"},"prototype":2,"edge_id":3}'
    const call = `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"proto_echo","arguments":${args}}}\n`
    const r = await raw([join(R, 'protos'), '--no-audit'], INIT + call)
    assert.equal(r.code, 0, r.stderr)
    const answer = JSON.parse(r.stdout.trim().split('\n')[1]) as {
      id: number
      result: Record<string, unknown>
    }
    assert.equal(answer.id, 2)
    // json.Marshal of the map: keys sorted byte-wise, edge_id dropped, HTML escaped.
    const sent = '{"__proto__":"x","constructor":{"__proto__":[1],"b":"\\u003c"},"prototype":2,"z":1}'
    assert.deepEqual(answer.result.content, [{ type: 'text', text: `${sent}` }])
    // Structured content would lose the top-level key in the SDK's copy: text only.
    assert.equal(answer.result.structuredContent, undefined)
  })

  test('a message over 10 MiB, one not JSON, one not JSON-RPC: each answered, later requests served', async () => {
    const big = `{"jsonrpc":"2.0","method":"tools/call","params":{"name":"nap","arguments":{"s":"${'a'.repeat(11 * 1024 * 1024)}"}},"id":"big"}\n`
    const r = await raw(
      [join(R, 'naps'), '--no-audit'],
      `${INIT + big}not json\n{"jsonrpc":"2.0","method":"x","params":7}\n{"jsonrpc":"1.0","id":5,"method":"ping"}\n${rpc(3, 'tools/call', { name: 'nap', arguments: { after: 1 } })}`,
    )
    assert.equal(r.code, 0, r.stderr)
    const msgs = r.stdout
      .trim()
      .split('\n')
      .map(
        (l) => JSON.parse(l) as { id: unknown; error?: { code: number; message: string }; result?: unknown },
      )
    assert.deepEqual(
      msgs.map((m) => [m.id, m.error?.code ?? 'result']),
      [
        [1, 'result'],
        ['big', -32600],
        [null, -32700],
        [5, -32600],
        [3, 'result'],
      ],
    )
    assert.match(
      msgs[1].error?.message ?? '',
      /^Invalid Request: the message has 11534\d{3} bytes; this server reads at most 10485760 \(10 MiB\)$/,
    )
    assert.deepEqual((msgs[4].result as { content: unknown }).content, [
      { type: 'text', text: '{"after":1}' },
    ])
    const lines = r.stderr.split('\n').filter((l) => l.startsWith('mcp: a '))
    assert.deepEqual(lines, [
      `mcp: a message of ${big.length - 1} bytes (over the 10 MiB a message may hold) was answered with an Invalid Request error (id "big")`,
      'mcp: a message that is not JSON was answered with a Parse error',
      'mcp: a notification that is not JSON-RPC was dropped',
      'mcp: a message that is not JSON-RPC was answered with an Invalid Request error',
    ])
  })

  test('arguments and results nested 10000 deep (Go’s limit): answered, the result as text only', async () => {
    const deep = (d: number) => `${'['.repeat(d)}${']'.repeat(d)}`
    // Written by hand: JSON.stringify (the SDK client's too) cannot write this depth.
    const call = `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"zeta_echo","arguments":{"c":${deep(9998)}}}}\n`
    const r = await raw([join(R, 'skills'), '--no-audit'], INIT + call)
    assert.equal(r.code, 0, r.stderr)
    const msgs = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: number; result?: Record<string, unknown>; error?: unknown })
    assert.deepEqual(
      msgs.map((m) => [m.id, m.error]),
      [
        [1, undefined],
        [2, undefined],
      ],
    )
    assert.deepEqual(msgs[1].result?.content, [{ type: 'text', text: `{"c":${deep(9998)}}` }])
    assert.equal(msgs[1].result?.structuredContent, undefined)
  })

  test('an entry that is a FIFO, a schema pattern that backtracks: each call answers at once', async () => {
    const dir = join(R, 'hostile')
    makeTree(dir, {
      'fifo/skill.json': manifest({ name: 'fifo', entry: 'e' }),
      'redos/skill.json': manifest({
        name: 'redos',
        entry: 'run.sh',
        schema: { properties: { s: { type: 'string', pattern: '^(a+)+$' } } },
      }),
      'redos/run.sh': { exec: `${SH}cat\n` },
    })
    execFileSync('mkfifo', [join(dir, 'fifo/e')])
    chmodSync(join(dir, 'fifo/e'), 0o755)
    const s = `${'a'.repeat(40)}!`
    const r = await runCli(['mcp', dir, '--no-audit'], {
      input:
        INIT +
        rpc(2, 'tools/call', { name: 'fifo', arguments: {} }) +
        rpc(3, 'tools/call', { name: 'redos', arguments: { s } }),
      timeoutMs: 20_000,
    })
    assert.equal(r.hung, false, 'mcp hung')
    assert.equal(r.code, 0, r.stderr)
    const answers = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: number; result: { content: Text[]; isError?: boolean } })
    const by = new Map(answers.map((a) => [a.id, a.result]))
    assert.deepEqual(by.get(2)?.content, [
      {
        type: 'text',
        text: `subprocess skill fifo: start: fork/exec ${join(dir, 'fifo/e')}: permission denied (stderr: )`,
      },
    ])
    assert.equal(by.get(2)?.isError, true)
    // No args pre-check here, as in the manager: the entry gets the args as they are.
    assert.deepEqual(by.get(3)?.content, [{ type: 'text', text: JSON.stringify({ s }) }])
  })

  test('300 calls piped at once (--jobs 2): every one answered, no listener warning', async () => {
    const calls = Array.from({ length: 300 }, (_, i) =>
      rpc(i + 2, 'tools/call', { name: 'zeta_echo', arguments: { b: i } }),
    ).join('')
    const r = await raw([join(R, 'skills'), '--no-audit', '--jobs', '2'], INIT + calls)
    assert.equal(r.code, 0, r.stderr)
    const answers = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: number; result: { content: Text[] } })
    assert.equal(answers.length, 301)
    for (const a of answers.slice(1)) assert.equal(a.result.content[0].text, `{"b":${a.id - 2}}`)
    assert.doesNotMatch(r.stderr, /Warning/)
  })

  for (const [signal, code] of STOP_SIGNALS) {
    test(`${signal}: running entries’ process groups are killed, exit ${code}`, async () => {
      const { rmSync } = await import('node:fs')
      const pidFile = join(R, 'hang.pid')
      rmSync(pidFile, { force: true })
      const child = startCli(['mcp', join(R, 'skills'), '--no-audit'], { stdin: 'open' })
      const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
        child.once('exit', (code, signal) => resolve({ code, signal })),
      )
      child.stdin.write(INIT + rpc(2, 'tools/call', { name: 'hangs', arguments: {} }))
      await until(
        'the entry to start',
        () => existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() !== '',
      )
      const pgid = Number(readFileSync(pidFile, 'utf8'))
      child.kill(signal)
      assert.deepEqual(await exited, { code, signal: null })
      const left = await settle(() => aliveInGroup(pgid), 5000)
      killAll(left, pgid)
      assert.deepEqual(left, [])
    })
  }

  test('usage errors: one line, exit 2, nothing on stdout', async () => {
    const cases: [string[], RegExp][] = [
      [[], /^ongrid-skill: no dirs: pass DIR arguments or set ONGRID_SKILLS_EXTERNAL_DIRS\n$/],
      [
        [join(R, 'skills'), '--class', 'safe,risky'],
        /^ongrid-skill: --class: unknown class "risky" \(expected safe, mutating, dangerous\)\n$/,
      ],
      [
        [join(R, 'skills'), '--jobs', '0'],
        /^ongrid-skill: --jobs 0: expected a whole number from 1 to 1024\n$/,
      ],
      [
        [join(R, 'skills'), '--http', 'x'],
        /^ongrid-skill: --http x: expected a whole number from 0 to 65535\n$/,
      ],
      [[join(R, 'skills'), '--session-idle', '1s'], /^ongrid-skill: --session-idle: only with --http\n$/],
      [
        [join(R, 'skills'), '--http', '0', '--max-sessions', '0'],
        /^ongrid-skill: --max-sessions 0: expected a whole number, 1 or more\n$/,
      ],
      [
        [join(R, 'skills'), '--http', '0', '--session-idle', '0s'],
        /^ongrid-skill: --session-idle: must be positive\n$/,
      ],
    ]
    for (const [args, want] of cases) {
      const r = await runCli(['mcp', ...args], { env: { ONGRID_SKILLS_EXTERNAL_DIRS: '' }, stdin: 'ignore' })
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`)
      assert.equal(r.stdout, '')
      assert.match(r.stderr, want)
    }
  })

  test('without DIR: the dirs of ONGRID_SKILLS_EXTERNAL_DIRS, split as the manager splits it', async () => {
    const r = await raw(['--json'], '', { ONGRID_SKILLS_EXTERNAL_DIRS: ` ${join(R, 'naps')};relative ,` })
    assert.equal(r.code, 0, r.stderr)
    const doc = JSON.parse(r.stdout) as {
      dirs: string[]
      loader_lines: { kind: string; message: string }[]
      tools: { name: string }[]
    }
    assert.deepEqual(doc.dirs, [join(R, 'naps'), 'relative'])
    assert.deepEqual(doc.loader_lines.at(-1), {
      kind: 'skip-non-absolute',
      path: 'relative',
      name: null,
      message: 'skill loader: skip non-absolute dir "relative"',
    })
    assert.deepEqual(
      doc.tools.map((t) => t.name),
      ['nap'],
    )
  })

  test('--json: what would be served, then exit', async () => {
    const r = await raw([join(R, 'skills'), '--json'], '')
    assert.equal(r.code, 0)
    const doc = JSON.parse(r.stdout) as {
      tools: { name: string }[]
      skipped: { name: string; reason: string }[]
    }
    assert.deepEqual(
      doc.tools.map((t) => t.name),
      ['alpha_list', 'fails', 'hangs', 'meet', 'slow', 'zeta_echo'],
    )
    assert.deepEqual(
      doc.skipped.map((s) => [s.name, s.reason]),
      [
        ['mutates', 'class'],
        ['str_schema', 'schema'],
      ],
    )
  })
})

describe('mcp: schemas nested deep (Go allows 10000)', { timeout: 60_000 }, () => {
  test('served as the bridge sends them; past what the transport can write, skipped with why, never a crash', async () => {
    const deep = (d: number) => `${'['.repeat(d)}${']'.repeat(d)}`
    const schema = (d: number) => `{"type":"object","properties":{"a":{"default":${deep(d)}}}}`
    makeTree(R, {
      'deep_schemas/a/skill.json': `{"name":"d1500","description":"Nested.","entry":"run.sh","schema":${schema(1500)}}`,
      'deep_schemas/a/run.sh': { exec: `${SH}cat\n` },
      'deep_schemas/b/skill.json': `{"name":"d9996","description":"Nested.","entry":"run.sh","schema":${schema(9996)}}`,
      'deep_schemas/b/run.sh': { exec: `${SH}cat\n` },
    })
    const r = await raw([join(R, 'deep_schemas'), '--json'], '')
    assert.equal(r.code, 0, r.stderr)
    const doc = JSON.parse(r.stdout) as {
      tools: { name: string; input_schema: { properties: { a: { default: unknown } } } }[]
      skipped: { name: string; reason: string; line: string }[]
    }
    assert.deepEqual(
      doc.tools.map((t) => t.name),
      ['d1500'],
    )
    assert.equal(JSON.stringify(doc.tools[0].input_schema.properties.a.default), deep(1500))
    assert.deepEqual(
      doc.skipped.map((s) => [s.name, s.reason, s.line]),
      [
        [
          'd9996',
          'too-deep',
          `mcp: "d9996" not served: its schema nests too deep for the MCP transport to write (the manager's bridge would offer it)`,
        ],
      ],
    )
  })
})

describe('mcp: the SDK is loaded by mcp only', { timeout: 60_000 }, () => {
  /** Logs every module specifier resolved through the ES module loader, on stderr. */
  const HOOK = `data:text/javascript,${encodeURIComponent(
    'import { register } from \'node:module\'; register(\'data:text/javascript,\' + encodeURIComponent(\'export async function resolve(s, c, n) { if (s.includes("modelcontextprotocol")) process.stderr.write("resolve: " + s + "\\\\n"); return n(s, c) }\'))',
  )}`

  async function probe(args: string[], input = ''): Promise<string> {
    // Started as a user starts it (its `#!` line: node with the launcher's flags, which V8 counts
    // in a code cache's), the hook through NODE_OPTIONS.
    const r = await runCli(args, {
      program: true,
      env: {
        ONGRID_SKILL_DEBUG_LOAD: '1',
        XDG_STATE_HOME: join(R, 'probe-state'),
        NODE_OPTIONS: `--import ${HOOK}`,
      },
      input,
    })
    return r.stderr
  }

  test('mcp loads the bundled SDK with a code cache V8 accepts', async () => {
    const err = await probe(['mcp', join(R, 'naps'), '--no-audit'], INIT)
    assert.match(err, /^ongrid-skill: MCP SDK from dist\/bundle\/mcp-sdk\.js, code cache accepted$/m)
    assert.doesNotMatch(err, /^resolve: .*modelcontextprotocol/m)
  })

  test('other commands never load it', async () => {
    for (const args of [
      ['load-dirs', join(R, 'skills')],
      ['run', join(R, 'skills', 'b_pack')],
      ['validate', join(R, 'skills', 'b_pack')],
    ]) {
      const err = await probe(args)
      assert.match(err, /fast path from dist\/bundle\/fast(-lint)?\.js/, 'the probe sees the launcher')
      assert.doesNotMatch(err, /MCP SDK|modelcontextprotocol/, args.join(' '))
    }
  })
})

describe('mcp --http: only this user’s processes are served', { timeout: 60_000 }, () => {
  // A node another uid may run (this one may be in root's home).
  const othersNode = [process.execPath, '/usr/bin/node', '/usr/local/bin/node'].find((p) =>
    p
      .split('/')
      .every(
        (_, i, a) =>
          i === 0 ||
          ((statSync(a.slice(0, i + 1).join('/'), { throwIfNoEntry: false })?.mode ?? 0) & 0o001) !== 0,
      ),
  )
  test('a connection from another user’s process: 403, nothing served', {
    skip:
      (process.getuid?.() !== 0 && 'needs root, to start a process as another user') ||
      (!othersNode && 'no node another uid may run'),
  }, async () => {
    const { child, url, exited } = await startHttp(['mcp', join(R, 'skills'), '--no-audit', '--http', '0'])
    try {
      const script = `const r = require('node:http').request(${JSON.stringify(url.href)}, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' } }, (res) => { let t = ''; res.on('data', (c) => { t += c }); res.on('end', () => process.stdout.write(res.statusCode + ' ' + t)) }); r.end(${JSON.stringify(INITIALIZE)})`
      const nobody = spawnSync(
        'setpriv',
        ['--reuid=65534', '--regid=65534', '--clear-groups', othersNode as string, '-e', script],
        { encoding: 'utf8', env: { PATH: process.env.PATH } },
      )
      assert.equal(nobody.status, 0, nobody.stderr)
      const [status, ...body] = nobody.stdout.split(' ')
      assert.equal(status, '403', nobody.stdout)
      assert.equal(
        JSON.parse(body.join(' ')).error.message,
        'forbidden: the connection comes from a process of uid 65534; this server serves uid 0 only',
      )
      // This user's own: served.
      const mine = await httpRequest(url, { body: INITIALIZE })
      assert.equal(mine.status, 200, mine.text)
    } finally {
      child.kill('SIGTERM')
      await exited
    }
  })
})
