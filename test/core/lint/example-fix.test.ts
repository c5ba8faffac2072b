import assert from 'node:assert/strict'
import { test } from 'node:test'
import { exampleDiffs } from '../../../src/core/lint/example-fix.js'
import { RULES_BY_ID } from '../../../src/core/lint/registry.js'

test('an example tree is never judged "changed during the run": its diffs do not depend on the clock', async () => {
  const rule = RULES_BY_ID.get('run/interpreter-missing')
  assert.ok(rule !== undefined)
  const honest = await exampleDiffs(rule)
  assert.ok(
    honest.some((d) => d !== ''),
    'the rule has an example with a fix',
  )
  // A clock a minute behind the files' times: what a file written in the same millisecond as the
  // run began looked like, now and then (the diff then went missing from docs/rules.md).
  const now = Date.now
  Date.now = () => now() - 60_000
  try {
    assert.deepEqual(await exampleDiffs(rule), honest)
  } finally {
    Date.now = now
  }
})
