import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import type { ItemResult } from '../../../src/core/testcases/suite.js'
import { SpecReporter } from '../../../src/ui/test/report.js'

describe('spec format', () => {
  test('quiet: each failure once, as it comes, with its file and line; passing cases not at all', () => {
    let out = ''
    const spec = new SpecReporter(
      (s) => {
        out += s
      },
      '/w',
      undefined,
      true,
    )
    const item = { pack: { name: 'disk', dir: '/w/disk' }, file: 'tests/a.json', case: null, problems: [] }
    const pass = {
      item: { ...item, name: 'ok', line: 2 },
      passed: true,
      failures: [],
      durationMs: 1,
      outcome: { stderr: '' },
      updated: false,
    }
    const fail = {
      item: { ...item, name: 'bad', line: 9 },
      passed: false,
      failures: [{ kind: 'result', message: 'result differs', diff: ['- 1', '+ 2'] }],
      durationMs: 1,
      outcome: { stderr: 'oops\n' },
      updated: false,
    }
    spec.result(pass as unknown as ItemResult)
    spec.result(fail as unknown as ItemResult)
    assert.equal(
      out,
      '  ✗ disk › bad  tests/a.json:9\n    ● result differs\n        - 1\n        + 2\n    stderr:\n      oops\n',
    )
    spec.end({ passed: 1, failed: 1, notRun: 0, updated: 0, snapshotErrors: [], durationMs: 12 })
    assert.equal(out.split('result differs').length, 2)
    assert.match(out, /oops\n\n1 passed, 1 failed\nTime: 0\.01 s\n$/)
  })

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
