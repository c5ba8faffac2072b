/**
 * A FIFO named skill.json in the dirs `run NAME` and `mcp` walk: the manager's boot blocks on
 * it until a writer comes, and so does the walk here — but never silently: a line on stderr
 * names the file before the walk blocks. Once a writer has opened and closed it, the walk goes
 * on as the manager's would.
 */
import assert from 'node:assert/strict'
import { writeFileSync } from 'node:fs'
import { after, before, test } from 'node:test'
import { mkfifoSync } from '../core/lint/fifo.js'
import { startCli } from '../helpers/cli.js'
import { ECHO, makeTree, manifest, tempRoot } from '../helpers/tree.js'

let R = ''
let cleanup = () => {}
before(() => {
  ;({ root: R, cleanup } = tempRoot('ongrid-fifo-dirs-'))
})
after(() => cleanup())

/** Starts ARGS, waits for the blocking line, writes the FIFO, then waits for the exit. */
async function throughFifo(args: string[], fifo: string, says: RegExp) {
  const child = startCli(args, { stdin: 'open', env: { XDG_STATE_HOME: `${R}/state` } })
  let out = ''
  let err = ''
  child.stdout.on('data', (c) => {
    out += c
  })
  const blocked = new Promise<void>((resolve) =>
    child.stderr.on('data', (c) => {
      err += c
      if (says.test(err)) resolve()
    }),
  )
  let closed = false
  const done = new Promise<number | null>((resolve) =>
    child.on('close', (code) => {
      closed = true
      resolve(code)
    }),
  )
  // Never a hung test: killed after 20 s, which fails the checks below.
  const guard = setTimeout(() => child.kill('SIGKILL'), 20_000)
  await Promise.race([blocked, done])
  const before = err
  // Open the FIFO as a writer would (whether or not the line came), so nothing stays blocked.
  if (!closed) writeFileSync(fifo, '{}')
  const code = await done
  clearTimeout(guard)
  return { code, out, err, before }
}

test('run NAME --dirs: the FIFO is named on stderr before the walk blocks; then the pack runs', async () => {
  makeTree(R, { 'r/a/skill.json': manifest({ name: 'fa' }), 'r/a/run.sh': ECHO, 'r/b/run.sh': ECHO })
  mkfifoSync(`${R}/r/b/skill.json`)
  const r = await throughFifo(['run', 'fa', '--dirs', `${R}/r`, '--no-audit'], `${R}/r/b/skill.json`, /FIFO/)
  assert.equal(
    r.before,
    `note: ${R}/r/b/skill.json is a FIFO: the manager's boot blocks reading it until a writer opens it and closes it, and so does this walk\n`,
  )
  assert.equal(r.code, 0, r.err)
  assert.equal(r.out, '{}')
})

test('mcp: the FIFO is named on stderr before the walk blocks; then the tools are served', async () => {
  makeTree(R, { 'm/a/skill.json': manifest({ name: 'fa' }), 'm/a/run.sh': ECHO, 'm/b/run.sh': ECHO })
  mkfifoSync(`${R}/m/b/skill.json`)
  const r = await throughFifo(['mcp', `${R}/m`, '--json'], `${R}/m/b/skill.json`, /FIFO/)
  assert.equal(
    r.before,
    `mcp: ${R}/m/b/skill.json is a FIFO: the manager's boot blocks reading it until a writer opens it and closes it, and so does this walk\n`,
  )
  assert.equal(r.code, 0, r.err)
  const doc = JSON.parse(r.out) as { tools: { name: string }[] }
  assert.deepEqual(
    doc.tools.map((t) => t.name),
    ['fa'],
  )
})
