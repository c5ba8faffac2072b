// The `eval-replay` figure: a pack with three eval cases, recorded once against a scripted
// OpenAI-compatible server (a child process: the bench's own rounds block its event loop), then
// replayed, so the figure is eval's own cost per run with the model's time taken out.
import { spawn, spawnSync } from 'node:child_process'
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/** The scripted server: a prompt about disks calls disk_usage, a tool result gets a final text. */
const SERVER = `
import { createServer } from 'node:http'
const message = (m) => ({ id: 'x', object: 'chat.completion', created: 0, model: 'm',
  choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', ...m } }],
  usage: { prompt_tokens: 100, completion_tokens: 5, total_tokens: 105 } })
const s = createServer((req, res) => {
  const chunks = []
  req.on('data', (c) => chunks.push(c))
  req.on('end', () => {
    const last = JSON.parse(Buffer.concat(chunks).toString('utf8')).messages.at(-1)
    let body
    if (last.role === 'tool') body = message({ content: 'It says ' + last.content })
    else if ((last.content ?? '').includes('disk')) {
      const path = last.content.includes('/var') ? '/var' : '/'
      body = message({ content: null, tool_calls: [{ id: 'c1', type: 'function',
        function: { name: 'disk_usage', arguments: JSON.stringify({ path }) } }] })
    } else body = message({ content: 'Hello.' })
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(JSON.stringify(body))
  })
})
s.listen(0, '127.0.0.1', () => console.log(s.address().port))
`

/** Makes the pack and its recording under DIR; returns the argv of the replay. */
export async function evalReplay(dir, bin) {
  const pack = join(dir, 'skills', 'disk_usage')
  mkdirSync(join(pack, 'tests'), { recursive: true })
  writeFileSync(
    join(pack, 'skill.json'),
    JSON.stringify({
      name: 'disk_usage',
      description: 'Report used and free space of a mounted filesystem, in bytes.',
      entry: 'run.sh',
      class: 'safe',
      timeout_seconds: 10,
      schema: {
        type: 'object',
        properties: { path: { type: 'string', description: 'A mount point' } },
        required: ['path'],
      },
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
        {
          name: 'root',
          prompt: 'How full is the root disk?',
          expect: { tool: 'disk_usage', args: { path: '/' } },
        },
        { name: 'greeting', prompt: 'hello', expect: { tool: null } },
      ],
    }),
  )
  const rec = join(dir, 'evals.rec.json')
  const server = spawn(process.execPath, ['--input-type=module', '-e', SERVER], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  try {
    const port = await new Promise((resolve, reject) => {
      server.stdout.once('data', (d) => resolve(String(d).trim()))
      server.once('exit', (code) => reject(new Error(`the scripted server exited (${code})`)))
    })
    const r = spawnSync(
      bin,
      [
        'eval',
        join(dir, 'skills'),
        '--base-url',
        `http://127.0.0.1:${port}/v1`,
        '--seed',
        '7',
        '--record',
        rec,
      ],
      { encoding: 'utf8', env: { ...process.env, OPENAI_API_KEY: 'sk-bench' }, timeout: 60_000 },
    )
    if (r.status !== 0)
      throw new Error(`eval --record: exit ${r.status}: ${r.stderr.trim().split('\n').pop()}`)
  } finally {
    server.kill()
  }
  return [bin, 'eval', join(dir, 'skills'), '--replay', rec, '--seed', '7']
}
