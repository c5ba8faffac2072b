import assert from 'node:assert/strict'
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { runCli, startCli } from '../helpers/cli.js'
import { assertJunitValid, haveXmllint } from '../helpers/junit.js'

/**
 * `eval` against a local OpenAI-compatible server that answers from a script (no model runs
 * here): a prompt about disks calls disk_usage (with the path the prompt names, or a number for
 * "bad args"), a tool result is answered with a final text, anything else gets a text at once.
 */
interface Seen {
  url: string
  auth: string | undefined
  body: string
}

let server: Server
let base = ''
const seen: Seen[] = []
let dir = ''

function answer(body: string): unknown {
  const req = JSON.parse(body) as { messages: { role: string; content?: string }[] }
  const last = req.messages[req.messages.length - 1]
  const message = (m: object) => ({
    id: 'x',
    object: 'chat.completion',
    created: 0,
    model: 'm',
    choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', ...m } }],
    usage: { prompt_tokens: 100, completion_tokens: 5, total_tokens: 105 },
  })
  if (last.role === 'tool') return message({ content: `It says ${last.content}` })
  const p = last.content ?? ''
  if (p.includes('slow')) {
    return message({
      tool_calls: [{ id: 'c', type: 'function', function: { name: 'slow', arguments: '{}' } }],
    })
  }
  if (p.includes('disk')) {
    const args = p.includes('bad args')
      ? '{"path":5}'
      : JSON.stringify({ path: p.includes('/var') ? '/var' : '/' })
    return message({
      content: null,
      reasoning_content: 'thinking',
      tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'disk_usage', arguments: args } }],
    })
  }
  return message({ content: 'Hello.' })
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'eval-cmd-'))
  const pack = join(dir, 'skills', 'disk_usage')
  mkdirSync(join(pack, 'tests'), { recursive: true })
  writeFileSync(
    join(pack, 'skill.json'),
    JSON.stringify({
      name: 'disk_usage',
      description: 'Report used and free space of a mounted filesystem <in bytes>.',
      entry: 'run.sh',
      class: 'safe',
      timeout_seconds: 10,
      schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    }),
  )
  writeFileSync(join(pack, 'run.sh'), '#!/bin/sh\ncat\n')
  chmodSync(join(pack, 'run.sh'), 0o755)
  writeFileSync(
    join(pack, 'tests', 'evals.json'),
    JSON.stringify({
      cases: [
        {
          name: 'var',
          prompt: 'Is the disk at /var full?',
          expect: { tool: 'disk_usage', args: { path: '/var' } },
        },
        { name: 'greeting', prompt: 'hello', expect: { tool: null } },
        { name: 'wrong', prompt: 'disk with bad args', expect: { tool: 'disk_usage', args: { path: '/' } } },
      ],
    }),
  )
  server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8')
      seen.push({ url: req.url ?? '', auth: req.headers.authorization, body })
      if (req.url !== '/v1/chat/completions') {
        res.writeHead(404, { 'content-type': 'application/json' })
        res.end('{"error":{"message":"not here"}}')
        return
      }
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify(answer(body)))
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

after(() => {
  server?.close()
  rmSync(dir, { recursive: true, force: true })
})

const env = { OPENAI_API_KEY: 'sk-test-secret', OPENAI_BASE_URL: undefined }

describe('eval against a scripted OpenAI-compatible server', () => {
  test('runs each case through the loop, scores it, and sends the manager’s bytes with the key from the environment', async () => {
    seen.length = 0
    const r = await runCli(['eval', join(dir, 'skills'), '--base-url', base, '--seed', '7', '--json'], {
      env,
      timeoutMs: 60_000,
    })
    assert.equal(r.code, 1, r.stderr)
    const doc = JSON.parse(r.stdout)
    assert.deepEqual(
      doc.cases.map((c: { name: string; passed: boolean }) => [c.name, c.passed]),
      [
        ['var', true],
        ['greeting', true],
        ['wrong', false],
      ],
    )
    assert.deepEqual(doc.cases[0].calls, [
      { tool: 'disk_usage', kind: 'pack', args: '{"path":"/var"}', schema_errors: [] },
    ])
    assert.equal(doc.cases[0].runs[0].answer, 'It says {"error":"","result":{"path":"/var"}}')
    assert.deepEqual(doc.cases[2].calls[0].schema_errors.length > 0, true)
    assert.deepEqual(doc.summary.per_tool, [
      { tool: 'disk_usage', expected: 2, called: 2, passed: 1, precision: 0.5, recall: 0.5 },
    ])
    assert.deepEqual(doc.summary.tokens, { prompt: 500, completion: 25, total: 525 })
    assert.equal(doc.seed, 7)
    assert.equal(doc.model, 'gpt-5.4')
    // A bare base URL gets /v1; the key only in the header, never in the output.
    assert.ok(seen.every((s) => s.url === '/v1/chat/completions'))
    assert.ok(seen.every((s) => s.auth === 'Bearer sk-test-secret'))
    assert.ok(!r.stdout.includes('sk-test-secret') && !r.stderr.includes('sk-test-secret'))
    // go-openai's bytes: HTML escaped, no temperature for the default (reasoning) model, the
    // assistant's reasoning_content dropped and its null content left out.
    const first = seen[0].body
    assert.ok(
      first.startsWith(
        '{"model":"gpt-5.4","messages":[{"role":"user","content":"Is the disk at /var full?"}],"tools":[',
      ),
    )
    assert.ok(first.includes('mounted filesystem \\u003cin bytes\\u003e.'))
    assert.equal(JSON.parse(first).tools.length, 29)
    const follow = JSON.parse(seen[1].body).messages
    assert.deepEqual(follow[1], {
      role: 'assistant',
      tool_calls: [
        { id: 'call_1', type: 'function', function: { name: 'disk_usage', arguments: '{"path":"/var"}' } },
      ],
    })
    // Each request its own tool order, from the seed.
    const order = (b: string) =>
      JSON.parse(b)
        .tools.map((t: { function: { name: string } }) => t.function.name)
        .join()
    assert.notEqual(order(seen[0].body), order(seen[1].body))
  })

  test('the same seed gives the same orders; --repeat reports the rate and its spread', async () => {
    seen.length = 0
    const cases = join(dir, 'one.json')
    writeFileSync(cases, JSON.stringify({ cases: [{ name: 'g', prompt: 'hello', expect: { tool: null } }] }))
    const args = ['eval', join(dir, 'skills'), '--cases', cases, '--base-url', base, '--seed', '3']
    const seeded = () => runCli([...args, '--repeat', '3', '--json'], { env, timeoutMs: 60_000 })
    const a = await seeded()
    const orders = seen.map((s) => s.body)
    seen.length = 0
    await seeded()
    assert.deepEqual(
      seen.map((s) => s.body),
      orders,
    )
    assert.equal(new Set(orders).size, 3)
    const doc = JSON.parse(a.stdout)
    assert.equal(a.code, 0)
    assert.equal(doc.summary.runs, 3)
    assert.equal(doc.summary.pass_rate, 1)
    assert.equal(doc.cases[0].runs.length, 3)
  })

  test('--record, then --replay with no server: identical results; a changed pack no longer matches', async () => {
    const rec = join(dir, 'rec.json')
    const live = await runCli(
      ['eval', join(dir, 'skills'), '--base-url', base, '--seed', '11', '--record', rec, '--json'],
      {
        env,
        timeoutMs: 60_000,
      },
    )
    const again = await runCli(['eval', join(dir, 'skills'), '--base-url', base, '--record', rec], {
      env,
      timeoutMs: 60_000,
    })
    assert.equal(again.code, 2)
    assert.match(again.stderr, /exists/)
    const replay = await runCli(
      ['eval', join(dir, 'skills'), '--replay', rec, '--base-url', 'http://127.0.0.1:9', '--json'],
      {
        env: { OPENAI_API_KEY: undefined },
        timeoutMs: 60_000,
      },
    )
    const a = JSON.parse(live.stdout)
    const b = JSON.parse(replay.stdout)
    assert.equal(replay.code, live.code)
    assert.deepEqual(b.cases, a.cases)
    assert.deepEqual(b.summary, a.summary)
    assert.ok(!readFileSync(rec, 'utf8').includes('sk-test-secret'))

    const manifest = join(dir, 'skills', 'disk_usage', 'skill.json')
    const before = readFileSync(manifest, 'utf8')
    writeFileSync(manifest, before.replace('mounted filesystem', 'mounted file system'))
    try {
      const changed = await runCli(['eval', join(dir, 'skills'), '--replay', rec, '--json'], {
        env: {},
        timeoutMs: 60_000,
      })
      assert.equal(changed.code, 1)
      const d = JSON.parse(changed.stdout)
      assert.match(
        d.cases[0].runs[0].error,
        /^replay: request 1 of case "var" \(round 1\) no longer matches the recording \(first difference at character \d+/,
      )
    } finally {
      writeFileSync(manifest, before)
    }
  })

  test('stylish names each run, the scores and the tokens; junit is a valid report', async (t) => {
    const s = await runCli(['eval', join(dir, 'skills'), '--base-url', base, '--seed', '7'], {
      env,
      timeoutMs: 60_000,
    })
    assert.equal(s.code, 1)
    assert.match(s.stdout, /^pass var {2}expected disk_usage$/m)
    assert.match(s.stdout, /^FAIL wrong {2}expected disk_usage$/m)
    assert.match(s.stdout, /^ {7}schema: args\/path: /m)
    assert.match(s.stdout, /^disk_usage +2 +2 +1 +50% +50%$/m)
    assert.match(s.stdout, /^2\/3 runs passed \(67%\)$/m)
    assert.match(s.stdout, /^tokens: 500 prompt, 25 completion, 525 total$/m)
    const j = await runCli(
      ['eval', join(dir, 'skills'), '--base-url', base, '--seed', '7', '--format', 'junit'],
      {
        env,
        timeoutMs: 60_000,
      },
    )
    assert.equal(j.code, 1)
    assert.match(j.stdout, /<failure message="expected disk_usage, decided disk_usage">/)
    if (haveXmllint(t)) assertJunitValid(j.stdout, j.stdout.replace('<testcase ', '<testcase bogus="1" '))
  })

  test('--print-request: the exact first body, tools sorted by name; no endpoint', async () => {
    const r = await runCli(
      ['eval', join(dir, 'skills'), '--print-request', '--prompt', 'hi', '--model', 'llama3.1'],
      { timeoutMs: 30_000 },
    )
    assert.equal(r.code, 0)
    const body = JSON.parse(r.stdout)
    assert.equal(body.temperature, 0.1)
    const names = body.tools.map((t: { function: { name: string } }) => t.function.name)
    assert.deepEqual(names, [...names].sort())
    assert.ok(names.includes('disk_usage'))
  })

  test('an endpoint that fails ends the run with exit 2 and its error, no retry', async () => {
    seen.length = 0
    const r = await runCli(['eval', join(dir, 'skills'), '--base-url', `${base}/nope`, '--seed', '1'], {
      env,
      timeoutMs: 60_000,
    })
    assert.equal(r.code, 2)
    assert.match(r.stderr, /^ongrid-skill: the endpoint failed: 404 /m)
    assert.equal(seen.length, 3)
  })

  test('Ctrl-C ends it at once with 130, the running pack killed', async () => {
    const slow = join(dir, 'slow')
    mkdirSync(join(slow, 'tests'), { recursive: true })
    writeFileSync(
      join(slow, 'skill.json'),
      JSON.stringify({
        name: 'slow',
        description: 'Takes its time, for tests.',
        entry: 'run.sh',
        timeout_seconds: 60,
      }),
    )
    writeFileSync(
      join(slow, 'run.sh'),
      `#!/bin/sh\necho $$ > ${join(dir, 'slow.pid')}\nsleep 30\necho '{}'\n`,
    )
    chmodSync(join(slow, 'run.sh'), 0o755)
    writeFileSync(
      join(slow, 'tests', 'evals.json'),
      JSON.stringify({ cases: [{ name: 's', prompt: 'slow one', expect: { tool: 'slow' } }] }),
    )
    const child = startCli(['eval', slow, '--base-url', base], { env })
    const started = Date.now()
    while (!existsSync(join(dir, 'slow.pid'))) {
      assert.ok(Date.now() - started < 20_000, 'the pack never started')
      await new Promise((r) => setTimeout(r, 50))
    }
    child.kill('SIGINT')
    const code = await new Promise<number | null>((r) => child.on('close', (c) => r(c)))
    assert.equal(code, 130)
    assert.ok(Date.now() - started < 15_000)
    const pid = Number(readFileSync(join(dir, 'slow.pid'), 'utf8'))
    await new Promise((r) => setTimeout(r, 200))
    assert.throws(() => process.kill(pid, 0))
  })

  test('usage errors exit 2: a bad case file, --print-request without --prompt', async () => {
    const bad = join(dir, 'bad.json')
    writeFileSync(bad, '{"cases":[{"name":"x","prompt":"p","expect":{"tool":"t","args":[1]}}]}')
    const a = await runCli(['eval', join(dir, 'skills'), '--cases', bad], { env, timeoutMs: 30_000 })
    assert.equal(a.code, 2)
    assert.match(a.stderr, /bad\.json: \/cases\/0\/expect\/args: an object/)
    const b = await runCli(['eval', join(dir, 'skills'), '--print-request'], { timeoutMs: 30_000 })
    assert.equal(b.code, 2)
  })
})
