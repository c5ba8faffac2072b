import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import type { ItemResult } from '../../../src/core/testcases/suite.js'
import { SpecReporter } from '../../../src/ui/test/report.js'

describe('spec format', () => {
  test('a message that spans lines stays under its bullet, in the line and in Failures', () => {
    let out = ''
    const spec = new SpecReporter((s) => {
      out += s
    }, '/w')
    const error = 'subprocess skill disk: exit 3 (stderr: one\ntwo)'
    const r = {
      item: { pack: { name: 'disk', dir: '/w/disk' }, name: 'fails', file: 'tests/a.json' },
      passed: false,
      failures: [{ kind: 'ok', message: `expected success, but it failed: ${error}` }],
      durationMs: 12,
      outcome: { stderr: '' },
      updated: false,
    } as unknown as ItemResult
    spec.result(r)
    spec.end({ passed: 0, failed: 1, notRun: 0, updated: 0, snapshotErrors: [], durationMs: 12 })
    assert.match(
      out,
      /\n {6}● expected success, but it failed: subprocess skill disk: exit 3 \(stderr: one\n {8}two\)\n/,
    )
    assert.match(
      out,
      /\n {4}● expected success, but it failed: subprocess skill disk: exit 3 \(stderr: one\n {6}two\)\n/,
    )
  })
})
