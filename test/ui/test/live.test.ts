import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import type { Item, ItemResult, PackPlan } from '../../../src/core/testcases/suite.js'
import { stripCsi, fakeTerminal as terminal } from '../../helpers/terminal.js'

// ink decides once, when it is loaded, whether it runs under CI (and then draws no frame until it
// unmounts); the view is only chosen outside CI, so it is tested as it runs there.
delete process.env.CI
delete process.env.CONTINUOUS_INTEGRATION
// chalk (ink's and ours) takes its level when loaded: a colour level it can draw, for the tests
// where ui/color.ts says colour; where it says none, nothing is drawn in colour all the same.
process.env.FORCE_COLOR = '1'
delete process.env.NO_COLOR
const { createLiveView } = await import('../../../src/ui/test/live.js')

const strip = stripCsi
const settle = () => new Promise((r) => setTimeout(r, 60))

describe('the live view', () => {
  test('cases in flight tick with stderr; finished ones and the summary stay', async () => {
    const out = terminal()
    const pack = { name: 'disk', dir: process.cwd() } as PackPlan
    const item = (name: string): Item => ({
      pack,
      name,
      file: 'tests/a.json',
      line: null,
      case: null,
      problems: [],
    })
    const a = item('first')
    const b = item('second')
    const view = await createLiveView(2, out as unknown as NodeJS.WriteStream)
    view.start(a, 0)
    view.stderr(a, 0, Buffer.from('checking /tmp\npartial'))
    await settle()
    let screen = strip(out.frames.join(''))
    try {
      assert.match(screen, /⠿ disk › first \d+\.\ds/)
      assert.match(screen, /│ checking \/tmp/)
      assert.match(screen, /│ partial/)
      assert.match(screen, /0 passed, 0 failed, 2 to go/)
    } catch (e) {
      await view.done()
      throw e
    }
    const result = (i: Item, passed: boolean): ItemResult => ({
      item: i,
      passed,
      failures: passed ? [] : [{ kind: 'ok', message: 'expected success, but it failed: x' }],
      durationMs: 3,
      outcome: null,
      updated: false,
    })
    view.result(result(a, true), 0)
    view.start(b, 1)
    view.result(result(b, false), 1)
    view.end({ passed: 1, failed: 1, notRun: 0, updated: 0, snapshotErrors: [], durationMs: 10 })
    await view.done()
    screen = strip(out.frames.join(''))
    assert.match(screen, /✓ first/)
    assert.match(screen, /✗ second/)
    assert.match(screen, /Failures \(- expected, \+ actual\)/)
    assert.match(screen, /1 passed, 1 failed\n/)
  })

  /** Frames of a short run: one case passes, one fails. */
  async function frames(env: NodeJS.ProcessEnv): Promise<string> {
    const out = terminal()
    const pack = { name: 'disk', dir: process.cwd() } as PackPlan
    const a: Item = { pack, name: 'first', file: 'tests/a.json', line: null, case: null, problems: [] }
    const b: Item = { ...a, name: 'second' }
    const view = await createLiveView(2, out as unknown as NodeJS.WriteStream, env)
    view.start(a, 0)
    view.stderr(a, 0, Buffer.from('checking /tmp\n'))
    await settle()
    view.result({ item: a, passed: true, failures: [], durationMs: 3, outcome: null, updated: false }, 0)
    view.start(b, 1)
    await settle()
    const failures = [{ kind: 'ok' as const, message: 'expected success, but it failed: x' }]
    view.result({ item: b, passed: false, failures, durationMs: 3, outcome: null, updated: false }, 1)
    view.end({ passed: 1, failed: 1, notRun: 0, updated: 0, snapshotErrors: [], durationMs: 10 })
    await view.done()
    return out.frames.join('')
  }
  const SGR = /\x1b\[[0-9;]*m/

  test('colour as ui/color.ts decides: NO_COLOR wins over FORCE_COLOR, in the live part and the cases', async () => {
    const screen = await frames({ NO_COLOR: '1', FORCE_COLOR: '1' })
    assert.match(screen, /1 passed, 1 failed/)
    assert.doesNotMatch(screen, SGR)
  })

  test('FORCE_COLOR=0 on a terminal: no colour', async () => {
    assert.doesNotMatch(await frames({ FORCE_COLOR: '0', TERM: 'xterm-256color' }), SGR)
  })

  test('a terminal (TERM not dumb), nothing said: in colour', async () => {
    const screen = await frames({ TERM: 'xterm-256color' })
    assert.match(screen, /\x1b\[32m/) // green: passed
    assert.match(screen, /\x1b\[31m/) // red: failed
  })
})
