import assert from 'node:assert/strict'
import { chmodSync, writeFileSync } from 'node:fs'
import { after, before, describe, test } from 'node:test'
import { fromText } from '../../../src/core/go/gostring.js'
import { check } from '../../../src/core/lint/engine.js'
import { entryProblem, envLookupProblem, newEntryCache, shebang } from '../../../src/core/lint/entry.js'
import { MANAGER_RULES } from '../../../src/core/lint/registry-manager.js'
import { ECHO, makeTree, tempRoot } from '../../helpers/tree.js'
import { pack } from './rules/fixtures.js'

describe('entry checks remember within one check, not across checks', () => {
  let R = ''
  let cleanup = () => {}
  before(() => {
    ;({ root: R, cleanup } = tempRoot())
  })
  after(() => cleanup())

  const ids = async (root: string) =>
    (
      await check({ paths: [`${root}/skills`].map(fromText), rules: MANAGER_RULES, set: 'manager' })
    ).files.flatMap((f) => f.findings.map((x) => x.ruleId))

  test('an entry fixed between two checks in one process is read again', async () => {
    const root = `${R}/fixed`
    makeTree(root, { 'skills/a/skill.json': pack(), 'skills/a/run.sh': { exec: 'echo no shebang\n' } })
    assert.deepEqual(await ids(root), ['run/exec-format'])
    writeFileSync(`${root}/skills/a/run.sh`, ECHO.exec)
    assert.deepEqual(await ids(root), [])
  })

  test('an interpreter installed between two checks is found', async () => {
    const root = `${R}/interp`
    makeTree(root, {
      'skills/a/skill.json': pack(),
      'skills/a/run.sh': { exec: `#!${root}/bin/interp\n` },
    })
    assert.deepEqual(await ids(root), ['run/interpreter-missing'])
    makeTree(root, { 'bin/interp': { exec: '#!/bin/sh\ncat\n' } })
    assert.deepEqual(await ids(root), [])
  })

  test('within one cache, a file is read once: a later change is not seen', () => {
    const root = `${R}/cache`
    makeTree(root, { 'run.sh': { exec: '#!/bin/sh\n' } })
    const cache = newEntryCache()
    assert.equal(shebang(`${root}/run.sh`, cache)?.interpreter, '/bin/sh')
    writeFileSync(`${root}/run.sh`, '#!/bin/bash\n')
    assert.equal(shebang(`${root}/run.sh`, cache)?.interpreter, '/bin/sh')
    assert.equal(shebang(`${root}/run.sh`, newEntryCache())?.interpreter, '/bin/bash')
    assert.equal(shebang(`${root}/run.sh`)?.interpreter, '/bin/bash')
  })

  test('without a cache given, each call reads afresh', () => {
    const root = `${R}/fresh`
    makeTree(root, { 'run.sh': { exec: 'echo hi\n' } })
    assert.equal(entryProblem('k', `${root}/run.sh`)?.kind, 'exec-format')
    writeFileSync(`${root}/run.sh`, '#!/bin/sh\necho hi\n')
    chmodSync(`${root}/run.sh`, 0o755)
    assert.equal(entryProblem('k', `${root}/run.sh`), null)
    assert.equal(envLookupProblem(`${root}/run.sh`, ['PATH']), null)
  })
})
