import assert from 'node:assert/strict'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { fromText } from '../../../src/core/go/gostring.js'
import { check } from '../../../src/core/lint/engine.js'
import { RULES } from '../../../src/core/lint/registry.js'
import { MANAGER_RULES } from '../../../src/core/lint/registry-manager.js'
import { makeTree, tempRoot } from '../../helpers/tree.js'

let R = ''
let cleanup = () => {}
before(() => {
  ;({ root: R, cleanup } = tempRoot('ongrid-tests-rules-'))
})
after(() => cleanup())

const MANIFEST = JSON.stringify({
  name: 'cased',
  description: 'Checks the tests rules.',
  entry: 'run.sh',
  schema: { type: 'object', properties: { n: { type: 'integer' } } },
})

async function findings(cases: string, set: 'manager' | 'all' = 'manager', manifest = MANIFEST) {
  const dir = join(R, `p${Math.random().toString(36).slice(2)}`)
  makeTree(dir, { 'skill.json': manifest, 'run.sh': { exec: '#!/bin/sh\necho {}\n' }, 'tests/a.json': cases })
  const r = await check({ paths: [dir].map(fromText), rules: set === 'manager' ? MANAGER_RULES : RULES, set })
  return r.files
    .filter((f) => f.kind === 'cases')
    .flatMap((f) =>
      f.findings.map((x) => `${f.file.slice(dir.length)}:${x.line}:${x.column} ${x.ruleId} ${x.message}`),
    )
}

describe('tests/* rules', () => {
  test('a clean case file: nothing', async () => {
    assert.deepEqual(await findings('[{"name":"a","args":{"n":1},"expect":{"ok":true}}]'), [])
  })

  test('tests/unknown-key, at the key, in the case file', async () => {
    assert.deepEqual(await findings('[\n  {"name": "a", "argz": {}, "expect": {"ok": true}}\n]'), [
      '/tests/a.json:2:17 tests/unknown-key /0/argz: unknown key "argz" (known: name, args, args_file, env, timeout, expect, snapshot)',
    ])
  })

  test('tests/shape: not JSON at 1:1; bad values at their key', async () => {
    assert.match((await findings('{"name":'))[0], /^\/tests\/a\.json:1:1 tests\/shape \(file\): not JSON: /)
    assert.deepEqual(await findings('{\n"name": "a",\n"timeout": "soon",\n"expect": {"ok": true}}'), [
      '/tests/a.json:3:1 tests/shape /timeout: `timeout` must be a Go duration > 0, such as "500ms", "5s" or "1m30s"',
    ])
  })

  test("tests/args-schema: args a passing case sends that the pack's schema refuses", async () => {
    assert.deepEqual(await findings('[{"name":"a","args":{"n":"x"},"expect":{"ok":true}}]'), [
      '/tests/a.json:1:14 tests/args-schema case "a": args/n: must be integer',
    ])
    // A case that expects the entry to refuse them may send them on purpose.
    assert.deepEqual(await findings('[{"name":"a","args":{"n":"x"},"expect":{"error":{"match":"."}}}]'), [])
  })

  test('tests/args-schema: a schema naming __proto__ is not checked (ajv would call the key additional)', async () => {
    const manifest =
      '{"name":"proto","description":"Checks the tests rules.","entry":"run.sh","schema":' +
      '{"type":"object","properties":{"__proto__":{"type":"string"}},"additionalProperties":false}}'
    assert.deepEqual(
      await findings('[{"name":"a","args":{"__proto__":"x"},"expect":{"ok":true}}]', 'manager', manifest),
      [],
    )
  })

  test('lint runs them too', async () => {
    assert.equal((await findings('[{"name":"a","argz":1,"expect":{"ok":true}}]', 'all')).length, 1)
  })
})
