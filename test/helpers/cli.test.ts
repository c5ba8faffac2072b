import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { after, describe, test } from 'node:test'
import { cliEnv, runCli, runCliSync, startCli } from './cli.js'
import { until, waitFor } from './until.js'

describe('cliEnv', () => {
  const saved = { CI: process.env.CI, NO_COLOR: process.env.NO_COLOR }
  after(() => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k]
      else process.env[k] = v
    }
  })
  test('CI and colour variables are never inherited; a test sets what it depends on', () => {
    process.env.CI = 'true'
    process.env.NO_COLOR = '1'
    const env = cliEnv()
    assert.equal(env.CI, undefined)
    assert.equal(env.NO_COLOR, undefined)
    assert.equal(env.PATH, process.env.PATH)
    assert.equal(cliEnv({ CI: '1' }).CI, '1')
    assert.equal('PATH' in cliEnv({ PATH: undefined }), false)
  })
})

describe('the CLI runner', () => {
  test('sync: exit code, text and bytes', () => {
    const r = runCliSync(['--version'])
    assert.equal(r.code, 0, r.stderr)
    assert.match(r.stdout, /^ongrid-skill\/\d+\.\d+\.\d+ /)
    assert.deepEqual(r.stdoutBytes, Buffer.from(r.stdout))
    assert.equal(r.hung, false)
  })

  test('through sh: bytes that are not UTF-8, decoded as asked', async () => {
    const o = { sh: `printf 'caf\\351 '; exec "$0" "$@"`, encoding: 'latin1' as const }
    for (const r of [runCliSync(['--version'], o), await runCli(['--version'], o)]) {
      assert.equal(r.code, 0, r.stderr)
      assert.deepEqual(r.stdoutBytes.subarray(0, 5), Buffer.from('caf\xe9 ', 'latin1'))
      assert.match(r.stdout, /^caf\xe9 ongrid-skill\//)
    }
  })

  test('async: stdin input, and a child killed at timeoutMs is reported as hung', async () => {
    const echo = await runCli([], { sh: 'exec cat', input: 'in\xff', encoding: 'latin1' })
    assert.deepEqual([echo.code, echo.stdout], [0, 'in\xc3\xbf'])
    const slow = await runCli([], { sh: 'exec sleep 30', timeoutMs: 300 })
    assert.deepEqual([slow.hung, slow.code, slow.signal], [true, null, 'SIGKILL'])
  })

  test('startCli: a child to talk to', async () => {
    const child = startCli([], { sh: 'exec cat', stdin: 'open' })
    let out = ''
    child.stdout.on('data', (c: Buffer) => {
      out += c
    })
    child.stdin.write('ping\n')
    await until('the echo', () => out === 'ping\n', 20_000)
    child.stdin.end()
    assert.equal(await new Promise((r) => child.on('close', r)), 0)
  })

  test('on a pseudo-terminal', {
    skip: spawnSync('script', ['--version']).status !== 0 && 'no script(1)',
  }, () => {
    const r = runCliSync(['--version'], { tty: true, stdin: 'ignore' })
    assert.equal(r.code, 0)
    assert.match(r.stdout, /^ongrid-skill\/\S+ .*\r\n$/)
  })
})

describe('until / waitFor', () => {
  test('waitFor: true once the condition holds, false when the time is up', async () => {
    let i = 0
    assert.equal(await waitFor(() => ++i === 3, 20_000, 1), true)
    assert.equal(await waitFor(() => false, 30, 5), false)
  })
  test('until fails the test, naming what it waited for', async () => {
    await assert.rejects(
      until('nothing', () => false, 30, 5),
      /timed out after 30 ms waiting for nothing/,
    )
  })
})
