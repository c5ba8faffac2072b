import assert from 'node:assert/strict'
import { existsSync } from 'node:fs'
import { after, before, describe, test } from 'node:test'
import { RULES } from '../../../src/core/lint/registry.js'
import { shellcheckSkip } from '../../helpers/shellcheck.js'
import { tempRoot } from '../../helpers/tree.js'
import { runRule, unlockCase, writeCase } from './rule-tester.js'

/** Every rule's examples (docs/rules.md shows them), replayed: bad trees are reported, good ones not. */
describe('rule examples', () => {
  let R = ''
  let cleanup = () => {}
  let n = 0
  before(() => {
    ;({ root: R, cleanup } = tempRoot())
  })
  after(() => cleanup())

  for (const rule of RULES) {
    test(`${rule.id}: has examples, and they do what they show`, async (t) => {
      const skip = rule.id === 'entry/shellcheck' ? shellcheckSkip() : undefined
      if (skip !== undefined) return t.skip(skip)
      const x = rule.examples
      assert.ok(x, 'the rule has examples')
      assert.ok(x.good.length > 0, 'at least one good tree')
      assert.ok(x.bad.length > 0 || (x.noBad ?? '') !== '', 'at least one bad tree, or noBad says why not')
      assert.ok(x.bad.length === 0 || x.noBad === undefined, 'noBad only for a rule without bad trees')
      for (const [i, e] of x.bad.entries()) {
        const locked = Object.values(e.files).some((f) => typeof f === 'object' && 'mode' in f)
        if (locked && process.getuid?.() === 0) {
          t.diagnostic(`bad example #${i + 1} not replayed: root reads any dir`)
          continue
        }
        const dir = `${R}/bad${n++}`
        writeCase(dir, e)
        const got = await runRule(rule, dir, e.path).finally(() => unlockCase(dir, e))
        assert.ok(got.length > 0, `bad example #${i + 1} is reported`)
        assert.deepEqual(
          got.filter((f) => f.ruleId !== rule.id && rule.subIds?.pattern.test(f.ruleId) !== true),
          [],
        )
      }
      for (const [i, e] of x.good.entries()) {
        const dir = `${R}/good${n++}`
        writeCase(dir, e)
        const got = await runRule(rule, dir, e.path).finally(() => unlockCase(dir, e))
        assert.deepEqual(got, [], `good example #${i + 1} is not reported`)
      }
    })
  }

  test('every rule module has its test file (test/core/lint/rules/ mirrors src/core/lint/rules/)', () => {
    const missing = RULES.map((r) => r.id.replace('/', '-')).filter(
      (name) => !existsSync(new URL(`./rules/${name}.test.js`, import.meta.url)),
    )
    assert.deepEqual(missing, [])
  })
})
