import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import { jsonRecord } from '../../../../../src/core/go/log/slog/slog.js'

// log/slog's JSONHandler (Go 1.21+; not in the Go 1.19 the differential tests run, so the
// expectations are written out): appendEscapedJSONString leaves <, > and & raw, unlike
// json.Marshal's HTML escaping; "time", "level", "msg", then the attributes in order.
describe('slog jsonRecord', () => {
  // The time is printed in the process's zone.
  before(() => {
    process.env.TZ = 'UTC'
  })

  test('<, > and & stay raw in msg, keys and values; " \\ and control bytes are escaped', () => {
    assert.equal(
      jsonRecord(0n, 'INFO', 'a <b> & "c"\\\n\u0001', [
        ['k<&>', 'v <&>'],
        ['n', 3],
        ['big', 9007199254740993n],
      ]),
      '{"time":"1970-01-01T00:00:00Z","level":"INFO","msg":"a <b> & \\"c\\"\\\\\\n\\u0001","k<&>":"v <&>","n":3,"big":9007199254740993}\n',
    )
  })

  test('the level as given, and a record with no attributes', () => {
    assert.equal(
      jsonRecord(1_500_000_000n, 'WARN', 'skill loader returned error', []),
      '{"time":"1970-01-01T00:00:01.5Z","level":"WARN","msg":"skill loader returned error"}\n',
    )
  })
})
