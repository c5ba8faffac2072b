import assert from 'node:assert/strict'
import { join } from 'node:path'
import { after, describe, test } from 'node:test'
import { callPack, scanPacks } from '../../../src/core/agent/packs.js'
import { TOOL_TIMEOUT_MS } from '../../../src/core/agent/request.js'
import { fromText } from '../../../src/core/go/gostring.js'
import { makeTree, tempRoot } from '../../helpers/tree.js'

const { root, cleanup } = tempRoot('ongrid-call-pack-')
after(() => cleanup())

const pack = (name: string, timeout: number) => ({
  [`${name}/skill.json`]: JSON.stringify({
    name,
    description: 'Sleeps for a while, then answers.',
    entry: 'run.sh',
    class: 'safe',
    timeout_seconds: timeout,
  }),
  [`${name}/run.sh`]: { exec: '#!/bin/sh\nsleep 5\necho "{}"\n' },
})

describe('callPack: a pack called by the bridge, under the agent’s tool deadline', () => {
  makeTree(join(root, 'skills'), { ...pack('slow_long', 60), ...pack('slow_short', 1) })
  const { packs } = scanPacks([fromText(join(root, 'skills'))], [])

  test('the deadline is agent.Config.ToolTimeout’s default, 15 s', () => {
    assert.equal(TOOL_TIMEOUT_MS, 15_000)
  })

  test('a skill whose own timeout is longer is cut at the deadline, in Execute’s words (its own timeout)', async () => {
    const started = Date.now()
    const r = await callPack(packs, 'slow_long', '{}', { signal: new AbortController().signal, capMs: 300 })
    assert.deepEqual(r, { ok: false, stdout: '', error: 'subprocess skill slow_long: timed out after 1m0s' })
    assert.ok(
      Date.now() - started < 4_000,
      `cut at the deadline, not after the 5 s sleep (${Date.now() - started} ms)`,
    )
  })

  test('a skill whose own timeout is nearer keeps it', async () => {
    const started = Date.now()
    const r = await callPack(packs, 'slow_short', '{}', {
      signal: new AbortController().signal,
      capMs: 4_000,
    })
    assert.deepEqual(r, { ok: false, stdout: '', error: 'subprocess skill slow_short: timed out after 1s' })
    assert.ok(Date.now() - started < 3_500, `${Date.now() - started} ms`)
  })

  test('a name no pack has', async () => {
    const r = await callPack(packs, 'nope', '{}', { signal: new AbortController().signal })
    assert.deepEqual(r, { ok: false, stdout: '', error: 'not found: nope' })
  })
})
