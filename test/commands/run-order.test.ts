import assert from 'node:assert/strict'
import { join } from 'node:path'
import { after, test } from 'node:test'
import { runCli } from '../helpers/cli.js'
import { makeTree, tempRoot } from '../helpers/tree.js'

/**
 * `run` in the manager's order (the class gate before anything but the body's decoding), args
 * from a piped stdin, and the usage errors of a NAME with no dirs and of a PATH that is not there.
 */

const { root: R, cleanup } = tempRoot('ongrid-run-order-')
after(cleanup)

const ECHO_ARGS = { exec: '#!/bin/sh\ncat\n' }
makeTree(R, {
  'skills/restart/skill.json': JSON.stringify({
    name: 'restart',
    description: 'Restarts.',
    entry: 'run.sh',
    class: 'mutating',
    schema: {
      type: 'object',
      required: ['unit'],
      properties: { unit: { type: 'string' }, n: { type: 'integer' } },
    },
  }),
  'skills/restart/run.sh': ECHO_ARGS,
  'skills/free/skill.json': JSON.stringify({
    name: 'free',
    description: 'Any args.',
    entry: 'run.sh',
    schema: { type: 'object', properties: { n: { type: 'integer' } } },
  }),
  'skills/free/run.sh': ECHO_ARGS,
})

const run = (args: string[], o: { sh?: string; stdin?: 'ignore' } = {}) =>
  runCli(['run', ...args, '--no-audit'], { cwd: R, env: { CI: '1' }, sh: o.sh, stdin: o.stdin })

test('--role: the class gate first, as the manager answers 403 without looking at the args', async () => {
  const r = await run(['skills/restart', '--role', 'viewer', '--args', '{}'])
  assert.equal(r.code, 5, r.stderr)
  assert.equal(r.stderr, 'error: forbidden: viewer role cannot run mutating skills\n')
  const j = await run(['skills/restart', '--role', 'viewer', '--args', '{}', '--json'])
  assert.equal(JSON.parse(j.stdout).error.status, 403)
  // A call the manager would run is checked against the schema.
  const user = await run(['skills/restart', '--role', 'user', '--args', '{}'])
  assert.equal(user.code, 4, user.stderr)
  // Args that are not JSON are the body the manager cannot decode: before the gate.
  const bad = await run(['skills/restart', '--role', 'viewer', '--args', '{'])
  assert.equal(bad.code, 2, bad.stderr)
})

test('a piped stdin is the args (--arg set over it); a closed stdin and no stdin are not read', async () => {
  const piped = await run(['skills/free'], { sh: `echo '{"n":1}' | "$0" "$@"` })
  assert.equal(piped.code, 0, piped.stderr)
  assert.equal(piped.stdout, '{"n":1}\n')
  const over = await run(['skills/free', '--arg', 'n=2'], { sh: `echo '{"n":1,"m":3}' | "$0" "$@"` })
  assert.equal(over.code, 0, over.stderr)
  assert.deepEqual(JSON.parse(over.stdout), { n: 2, m: 3 })
  const closed = await run(['skills/free'], { sh: `exec "$0" "$@" <&-` })
  assert.equal(closed.code, 0, closed.stderr)
  assert.equal(closed.stdout, '{}')
  const none = await run(['skills/free'], { stdin: 'ignore' })
  assert.equal(none.code, 0, none.stderr)
  assert.equal(none.stdout, '{}')
  // Not JSON on stdin: said as stdin's.
  const bad = await run(['skills/free'], { sh: `printf 'nope' | "$0" "$@"` })
  assert.equal(bad.code, 2)
  assert.match(bad.stderr, /^ongrid-skill: stdin: not valid JSON: /)
})

test('a terminal is never read: run does not wait for typing', async () => {
  const r = await runCli(['run', 'skills/free', '--no-audit'], {
    cwd: R,
    tty: true,
    env: { CI: '1' },
    timeoutMs: 20_000,
  })
  assert.equal(r.hung, false)
  assert.equal(r.code, 0, r.stdout)
  assert.match(r.stdout, /\{\}/)
})

test('a NAME with no dirs: how to give a pack dir or --dirs', async () => {
  const r = await runCli(['run', 'disk_free', '--no-audit'], {
    cwd: R,
    env: { ONGRID_SKILLS_EXTERNAL_DIRS: undefined },
  })
  assert.equal(r.code, 2)
  assert.equal(
    r.stderr,
    'ongrid-skill: no dirs to look the skill disk_free up in\nhint: give its pack dir (run ./disk_free, or the path of its dir or skill.json), or --dirs DIR (or set ONGRID_SKILLS_EXTERNAL_DIRS) to find it by name\n',
  )
})

test('a PATH that is not there: a usage error, with the path nearby that is', async () => {
  const r = await run(['skils/free'])
  assert.equal(r.code, 2)
  assert.equal(
    r.stderr,
    'ongrid-skill: skils/free: no such pack dir or skill.json\nhint: did you mean skills/free?\n',
  )
  const far = await run(['nothing/like/it'])
  assert.equal(far.code, 2)
  assert.equal(far.stderr, 'ongrid-skill: nothing/like/it: no such pack dir or skill.json\n')
  const abs = await run([join(R, 'skills/fre/skill.json')])
  assert.match(abs.stderr, /hint: did you mean .*\/skills\/free\/skill\.json\?\n$/)
})
