import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { fromText } from '../../../src/core/go/gostring.js'
import { check } from '../../../src/core/lint/engine.js'
import { RULES } from '../../../src/core/lint/registry.js'
import { MANAGER_RULES } from '../../../src/core/lint/registry-manager.js'
import { ECHO, makeTree, tempRoot } from '../../helpers/tree.js'
import { NATIVE_OK, pack } from './rules/fixtures.js'

describe('the registry', () => {
  let R = ''
  let cleanup = () => {}
  before(() => {
    ;({ root: R, cleanup } = tempRoot())
  })
  after(() => cleanup())

  test('the clean pack and a clean SKILL.md have no findings at all', async () => {
    const root = `${R}/clean`
    makeTree(root, { 'skills/a/skill.json': pack(), 'skills/a/run.sh': ECHO, 'skills/n/SKILL.md': NATIVE_OK })
    const r = await check({ paths: [`${root}/skills`].map(fromText), rules: RULES, set: 'all' })
    assert.deepEqual(
      r.files.flatMap((f) => f.findings),
      [],
    )
  })

  test('validate’s set is the manager rules only', async () => {
    const root = `${R}/validate`
    makeTree(root, {
      'skills/a/skill.json': pack({ class: undefined, name: 'Bad' }),
      'skills/a/run.sh': ECHO,
    })
    const r = await check({ paths: [`${root}/skills`].map(fromText), rules: MANAGER_RULES, set: 'manager' })
    assert.deepEqual(
      r.files.flatMap((f) => f.findings.map((x) => x.ruleId)),
      ['manager/build'],
    )
    assert.ok(MANAGER_RULES.every((x) => x.category === 'manager' || x.category === 'tests'))
    assert.ok(RULES.filter((x) => x.category === 'manager').every((x) => MANAGER_RULES.includes(x)))
  })

  test('each fixable rule says whether its fix is always safe, and why', () => {
    const without = RULES.filter((r) => r.fixable && !r.fixSafety?.because).map((r) => r.id)
    assert.deepEqual(without, [])
    assert.deepEqual(
      RULES.filter((r) => r.fixSafety && !r.fixable).map((r) => r.id),
      [],
    )
  })
})
