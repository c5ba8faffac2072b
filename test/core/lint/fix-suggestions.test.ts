import assert from 'node:assert/strict'
import { after, describe, test } from 'node:test'
import { fromText } from '../../../src/core/go/gostring.js'
import type { Context } from '../../../src/core/lint/context.js'
import { check } from '../../../src/core/lint/engine.js'
import { applyEdits, planFixes } from '../../../src/core/lint/fix.js'
import nearMiss from '../../../src/core/lint/rules/practice-near-miss-key.js'
import type { Rule } from '../../../src/core/lint/types.js'
import { ECHO, makeTree, tempRoot } from '../../helpers/tree.js'

const { root, cleanup } = tempRoot()
after(cleanup)
let n = 0

async function findings(skillJson: string) {
  const dir = `${root}/c${n++}`
  makeTree(dir, { 'skills/a/skill.json': skillJson, 'skills/a/run.sh': ECHO })
  const r = await check({
    paths: [fromText(`${dir}/skills`)],
    rules: [nearMiss as unknown as Rule<Context>],
    set: 'all',
  })
  return r.files.flatMap((f) => f.findings)
}

describe('practice/near-miss-key: a rename is a suggestion, never a fix', () => {
  test('the rename is offered as a suggestion, and --fix has nothing to apply', async () => {
    const text = '{"name": "a", "entry": "run.sh",\n  "timeout" : 10, "envAllow": ["PATH"]}'
    const got = await findings(text)
    assert.equal(got.length, 2)
    assert.deepEqual(
      got.map((x) => x.fix),
      [undefined, undefined],
    )
    assert.equal(planFixes(got).size, 0)
    const edits = got.flatMap((x) => x.suggestions?.flatMap((s) => s.fix.edits) ?? [])
    assert.equal(
      applyEdits(text, edits).text,
      '{"name": "a", "entry": "run.sh",\n  "timeout_seconds" : 10, "env_allow": ["PATH"]}',
    )
    assert.match(got[0].suggestions?.[0].message ?? '', /^rename "timeout" to "timeout_seconds": /)
  })
  test("no suggestion when the value is not of the field's type, the field is set, or the unit differs", async () => {
    const got = await findings(
      '{"name": "a", "entry": "run.sh", "timeout": "10s", "env": ["PATH"], "env_allow": [], "timeout_ms": 5}',
    )
    assert.equal(got.length, 3)
    assert.deepEqual(
      got.map((x) => x.suggestions),
      [undefined, undefined, undefined],
    )
  })
})
