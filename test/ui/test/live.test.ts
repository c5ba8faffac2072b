import assert from 'node:assert/strict'
import { EventEmitter } from 'node:events'
import { describe, test } from 'node:test'
import type { Item, ItemResult, PackPlan } from '../../../src/core/testcases/suite.js'

// ink decides once, when it is loaded, whether it runs under CI (and then draws no frame until it
// unmounts); the view is only chosen outside CI, so it is tested as it runs there.
delete process.env.CI
delete process.env.CONTINUOUS_INTEGRATION
const { createLiveView } = await import('../../../src/ui/test/live.js')

/** A terminal as ink sees it: frames written, 100 columns. */
function terminal() {
  const t = Object.assign(new EventEmitter(), {
    frames: [] as string[],
    columns: 100,
    rows: 40,
    isTTY: true,
    write(s: string) {
      t.frames.push(s)
      return true
    },
  })
  return t
}

const strip = (s: string) => s.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '')
const settle = () => new Promise((r) => setTimeout(r, 60))

describe('the live view', () => {
  test('cases in flight tick with stderr; finished ones and the summary stay', async () => {
    const out = terminal()
    const pack = { name: 'disk', dir: process.cwd() } as PackPlan
    const item = (name: string): Item => ({ pack, name, file: 'tests/a.json', case: null, problems: [] })
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
    view.end({ passed: 1, failed: 1, notRun: 0, updated: 0, durationMs: 10 })
    await view.done()
    screen = strip(out.frames.join(''))
    assert.match(screen, /✓ first/)
    assert.match(screen, /✗ second/)
    assert.match(screen, /Failures \(- expected, \+ actual\)/)
    assert.match(screen, /1 passed, 1 failed\n/)
  })
})
