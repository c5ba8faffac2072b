import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { LoaderEventKind } from '../../src/core/loader/loader.js'
import { loadSummary } from '../../src/ui/load-dirs.js'

test('the load-dirs summary: one and more than one of each kind', () => {
  const counts = new Map<LoaderEventKind, number>([
    ['parse-error', 2],
    ['duplicate', 1],
    ['not-a-directory', 3],
  ])
  assert.equal(
    loadSummary(4, counts),
    '4 registered, 6 skipped (2 parse errors, 1 duplicate name, 3 not directories)',
  )
  assert.equal(loadSummary(1, new Map([['parse-error', 1]])), '1 registered, 1 skipped (1 parse error)')
})
