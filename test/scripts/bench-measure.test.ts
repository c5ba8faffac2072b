import assert from 'node:assert/strict'
import { join } from 'node:path'
import { describe, test } from 'node:test'
import { fileURLToPath, pathToFileURL } from 'node:url'

const REPO = fileURLToPath(new URL('../../../', import.meta.url))

type Run = { wallMs: number; rssBytes: number | null; cpuMs: number | null; heapBytes: number | null }
type Once = (probed: boolean) => { r: Run; bad: string | null }
type TimedAndProbed = (once: Once, rss: boolean) => { r: Run; bad: string | null }

async function load(): Promise<TimedAndProbed> {
  const mod = await import(pathToFileURL(join(REPO, 'scripts/bench/measure.mjs')).href)
  return (mod as { timedAndProbed: TimedAndProbed }).timedAndProbed
}

/** A figure's runs as the bench would make them: the probed one slower and with a peak. */
function fake(bad: { timed?: string; probed?: string } = {}) {
  const calls: boolean[] = []
  const once: Once = (probed) => {
    calls.push(probed)
    return probed
      ? { r: { wallMs: 31, rssBytes: 48_000_000, cpuMs: 28, heapBytes: 5 }, bad: bad.probed ?? null }
      : { r: { wallMs: 24, rssBytes: null, cpuMs: null, heapBytes: null }, bad: bad.timed ?? null }
  }
  return { calls, once }
}

describe('a figure’s run in a round (scripts/bench/measure.mjs)', () => {
  test('the time is the unprobed run’s; peak, CPU and heap the probed run’s, made after it', async () => {
    const { calls, once } = fake()
    const got = (await load())(once, true)
    assert.deepEqual(calls, [false, true])
    assert.deepEqual(got, { r: { wallMs: 24, rssBytes: 48_000_000, cpuMs: 28, heapBytes: 5 }, bad: null })
  })

  test('a figure without rss runs once, unprobed', async () => {
    const { calls, once } = fake()
    assert.deepEqual((await load())(once, false).r.wallMs, 24)
    assert.deepEqual(calls, [false])
  })

  test('a failed run is the figure’s failure: the probed run is not made after a failed timed one', async () => {
    const timed = fake({ timed: 'exit status 2' })
    assert.equal((await load())(timed.once, true).bad, 'exit status 2')
    assert.deepEqual(timed.calls, [false])
    const probed = fake({ probed: 'not clean' })
    assert.equal((await load())(probed.once, true).bad, 'not clean')
    assert.deepEqual(probed.calls, [false, true])
  })
})
