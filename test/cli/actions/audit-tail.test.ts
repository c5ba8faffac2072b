import assert from 'node:assert/strict'
import { test } from 'node:test'
import { auditTailAction } from '../../../src/cli/actions/audit-tail.js'
import { UserError } from '../../../src/cli/errors.js'

// -n is a string flag on both parsers (oclif's and the fast path's): the action takes digits only,
// as oclif's integer flag did, and the same on either path.
test('audit tail -n: a whole number in digits, else one error line', async () => {
  for (const n of ['1e2', '0x10', '5.0', '', ' 5', '-1', '+3']) {
    await assert.rejects(
      auditTailAction({
        args: {},
        argv: [],
        flags: { lines: n, db: 'sqlite:/nonexistent/x.db', 'gap-wait': '10s' },
      }),
      (e: Error) =>
        e instanceof UserError &&
        e.message ===
          `--lines ${/^[\x21-\x7e]+$/.test(n) ? n : JSON.stringify(n)}: expected a whole number, 0 or more`,
      JSON.stringify(n),
    )
  }
})
