import assert from 'node:assert/strict'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import type { ExecSkill } from '../../../src/core/executor/executor.js'
import { fromText } from '../../../src/core/go/gostring.js'
import { SECOND } from '../../../src/core/go/time/duration.js'
import { parseCaseFile, type TestCase } from '../../../src/core/testcases/cases.js'
import { type CaseOutcome, caseEnviron, runCase } from '../../../src/core/testcases/run.js'
import { makeTree, tempRoot } from '../../helpers/tree.js'

const ENTRY = `#!/bin/sh
read -r line
case "$line" in
  *twolines*) printf 'one\ntwo\n' >&2; exit 4;;
  *fail*) echo "boom" >&2; exit 3;;
  *sleep*) sleep 5;;
  *bad*) echo "not json";;
  *env*) printf '{"v":"%s","w":"%s"}' "$MYVAR" "$OTHER";;
  *) printf '{"used":10,"path":"/tmp","list":[1,2]}';;
esac
echo "note: done" >&2
`

let R = ''
let cleanup = () => {}
let skill: ExecSkill
before(() => {
  ;({ root: R, cleanup } = tempRoot('ongrid-cases-run-'))
  makeTree(R, { 'p/run.sh': { exec: ENTRY } })
  skill = { key: 'disk', entry: fromText(join(R, 'p/run.sh')), envAllow: ['MYVAR'], timeoutNs: 5n * SECOND }
})
after(() => cleanup())

function tc(c: Record<string, unknown>): TestCase {
  const f = parseCaseFile('/p/tests/t.json', JSON.stringify({ name: 't', ...c }))
  assert.deepEqual(f.problems, [])
  return f.cases[0]
}
const run = (c: Record<string, unknown>, update = false): Promise<CaseOutcome> =>
  runCase(skill, tc(c), { update })
const kinds = (o: CaseOutcome) => o.failures.map((f) => f.kind)

describe('runCase: each assertion passing and failing', () => {
  test('ok', async () => {
    assert.deepEqual(kinds(await run({ expect: { ok: true } })), [])
    assert.deepEqual(kinds(await run({ args: { fail: 1 }, expect: { ok: true } })), ['ok'])
    assert.deepEqual(kinds(await run({ args: { fail: 1 }, expect: { ok: false } })), [])
    const o = await run({ expect: { ok: false } })
    assert.deepEqual(kinds(o), ['ok'])
    assert.equal(o.failures[0].message, 'expected a failure, but it succeeded')
  })

  test('result: subset match, with a readable diff', async () => {
    assert.deepEqual(kinds(await run({ expect: { result: { used: 10 } } })), [])
    assert.deepEqual(kinds(await run({ expect: { result: { list: [1, 2] } } })), [])
    const o = await run({ expect: { result: { used: 11, list: [1] } } })
    assert.deepEqual(kinds(o), ['result'])
    assert.equal(
      o.failures[0].message,
      'result does not match: /used expected 11, got 10; /list expected [1], got [1,2]',
    )
    assert.ok(o.failures[0].diff?.includes('-   "used": 11,'))
    assert.ok(o.failures[0].diff?.includes('+   "used": 10,'))
  })

  test('result_schema, compiled with ajv', async () => {
    const schema = { type: 'object', required: ['used'], properties: { used: { type: 'integer' } } }
    assert.deepEqual(kinds(await run({ expect: { result_schema: schema } })), [])
    const o = await run({
      expect: { result_schema: { ...schema, properties: { used: { type: 'string' } } } },
    })
    assert.deepEqual(kinds(o), ['result_schema'])
    assert.equal(o.failures[0].message, 'result does not satisfy result_schema: result/used: must be string')
  })

  test("error: the manager's text exactly, or a regex", async () => {
    const text = 'subprocess skill disk: exit 3 (stderr: boom)'
    assert.deepEqual(kinds(await run({ args: { fail: 1 }, expect: { error: text } })), [])
    assert.deepEqual(
      kinds(await run({ args: { fail: 1 }, expect: { error: { match: 'exit \\d \\(' } } })),
      [],
    )
    const o = await run({
      args: { fail: 1 },
      expect: { error: 'subprocess skill disk: exit 2 (stderr: boom)' },
    })
    assert.deepEqual(kinds(o), ['error'])
    assert.deepEqual(o.failures[0].diff, ['- subprocess skill disk: exit 2 (stderr: boom)', `+ ${text}`])
    assert.deepEqual(kinds(await run({ args: { fail: 1 }, expect: { error: { match: '^timed' } } })), [
      'error',
    ])
    // Not JSON on stdout: the manager's own text.
    assert.deepEqual(
      kinds(
        await run({
          args: { bad: 1 },
          expect: { error: 'subprocess skill disk: stdout is not valid JSON (first 200B: not json)' },
        }),
      ),
      [],
    )
    // An expected error implies a failure: a success fails the case.
    assert.deepEqual(kinds(await run({ expect: { error: { match: '.' } } })), ['ok', 'error'])
  })

  test('error texts that span lines (the stderr in them) are diffed line by line', async () => {
    const text = 'subprocess skill disk: exit 4 (stderr: one\ntwo)'
    assert.deepEqual(kinds(await run({ args: { twolines: 1 }, expect: { error: text } })), [])
    const o = await run({
      args: { twolines: 1 },
      expect: { error: 'subprocess skill disk: exit 4 (stderr: one\nthree)' },
    })
    assert.deepEqual(o.failures[0].diff, [
      '  subprocess skill disk: exit 4 (stderr: one',
      '- three)',
      '+ two)',
    ])
    const m = await run({ args: { twolines: 1 }, expect: { error: { match: '^exit' } } })
    assert.deepEqual(m.failures[0].diff, ['+ subprocess skill disk: exit 4 (stderr: one', '+ two)'])
  })

  test('timed_out, and a timeout nobody expected fails the case', async () => {
    const o = await run({ args: { sleep: 1 }, timeout: '100ms', expect: { timed_out: true } })
    assert.deepEqual(kinds(o), [])
    assert.equal(o.error, 'subprocess skill disk: timed out after 100ms')
    const u = await run({ args: { sleep: 1 }, timeout: '100ms', expect: { ok: false } })
    assert.deepEqual(kinds(u), ['timed_out'])
    assert.equal(
      u.failures[0].message,
      'timed out, which the case does not expect ("timed_out": true if it should): subprocess skill disk: timed out after 100ms',
    )
    // The timeout's own text as the expected error expects it; a regex does not.
    const text = 'subprocess skill disk: timed out after 100ms'
    assert.deepEqual(kinds(await run({ args: { sleep: 1 }, timeout: '100ms', expect: { error: text } })), [])
    assert.deepEqual(
      kinds(await run({ args: { sleep: 1 }, timeout: '100ms', expect: { error: { match: 'timed out' } } })),
      ['timed_out'],
    )
    assert.deepEqual(kinds(await run({ expect: { timed_out: true } })), ['timed_out'])
  })

  test('stderr_contains', async () => {
    assert.deepEqual(kinds(await run({ expect: { stderr_contains: 'note: done' } })), [])
    const o = await run({ expect: { stderr_contains: 'nope' } })
    assert.deepEqual(kinds(o), ['stderr_contains'])
    assert.deepEqual(o.failures[0].diff, ['- "nope"', '+ "note: done\\n"'])
  })

  test('max_duration_ms', async () => {
    assert.deepEqual(kinds(await run({ expect: { max_duration_ms: 60_000 } })), [])
    const o = await run({
      args: { sleep: 1 },
      timeout: '300ms',
      expect: { timed_out: true, max_duration_ms: 50 },
    })
    assert.deepEqual(kinds(o), ['max_duration_ms'])
  })

  test("env goes over this process's environment, then is filtered by env_allow", async () => {
    process.env.MYVAR = 'from-us'
    try {
      const o = await run({
        args: { env: 1 },
        env: { OTHER: 'b' },
        expect: { result: { v: 'from-us', w: '' } },
      })
      assert.deepEqual(kinds(o), [])
      const over = await run({
        args: { env: 1 },
        env: { MYVAR: 'a', OTHER: 'b' },
        expect: { result: { v: 'a', w: '' } },
      })
      assert.deepEqual(kinds(over), [])
      const unset = await run({ args: { env: 1 }, env: { MYVAR: null }, expect: { result: { v: '' } } })
      assert.deepEqual(kinds(unset), [])
    } finally {
      delete process.env.MYVAR
    }
  })
})

describe('runCase: snapshots', () => {
  test('a snapshot case with none stored fails until --update', async () => {
    const o = await run({ snapshot: true })
    assert.deepEqual(kinds(o), ['snapshot'])
    assert.match(o.failures[0].message, /--update/)
    const u = await run({ snapshot: true }, true)
    assert.deepEqual(kinds(u), [])
    assert.deepEqual(u.snapshot, { result: { used: 10, path: '/tmp', list: [1, 2] } })
  })

  test('snapshots compare exactly, not as subsets', async () => {
    const stored = { used: 10, path: '/tmp', list: [1, 2] }
    const same = await run({ snapshot: true, expect: { result: stored } })
    assert.deepEqual(kinds(same), [])
    assert.equal(same.snapshot, undefined)
    const o = await run({ snapshot: true, expect: { result: { used: 10 } } })
    assert.deepEqual(kinds(o), ['snapshot'])
    assert.ok(o.failures[0].diff?.includes('+   "path": "/tmp",'))
    assert.deepEqual((await run({ snapshot: true, expect: { result: { used: 10 } } }, true)).snapshot, {
      result: stored,
    })
  })
})

describe('caseEnviron', () => {
  test('a variable named __proto__ or constructor is one like any other; null unsets', () => {
    const over = parseCaseFile(
      '/t.json',
      '{"name":"a","env":{"__proto__":"p","constructor":"c","GONE":null},"expect":{"ok":true}}',
    ).cases[0].env
    const env = caseEnviron({ GONE: 'x', KEPT: 'k' }, over)
    assert.equal(JSON.stringify(env), '{"KEPT":"k","__proto__":"p","constructor":"c"}')
  })
})
