import assert from 'node:assert/strict'

/** Polls `cond` every `every` ms until it holds (true) or `ms` have passed (false). */
export async function waitFor(cond: () => boolean, ms: number, every = 20): Promise<boolean> {
  const end = Date.now() + ms
  for (;;) {
    if (cond()) return true
    if (Date.now() >= end) return false
    await new Promise((r) => setTimeout(r, every))
  }
}

/** Polls `cond` until it holds; fails the test after `ms` ("timed out … waiting for WHAT"). */
export async function until(what: string, cond: () => boolean, ms = 20_000, every = 20): Promise<void> {
  if (!(await waitFor(cond, ms, every))) assert.fail(`timed out after ${ms} ms waiting for ${what}`)
}
