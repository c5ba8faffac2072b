import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, describe, test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { Ajv2020 } from 'ajv/dist/2020.js'
import { BaselineError, parseBaseline } from '../src/core/lint/baseline.js'
import { runCliSync } from './helpers/cli.js'
import { ECHO, makeTree, manifest, tempRoot } from './helpers/tree.js'

// schemas/ongrid-skill-baseline.schema.json: the baseline's format, checked against the files
// lint writes and the files lint refuses.
const REPO = fileURLToPath(new URL('../../', import.meta.url))
const T = tempRoot('ongrid-baseline-schema-')
after(T.cleanup)

describe('schemas/ongrid-skill-baseline.schema.json', () => {
  const schema = JSON.parse(readFileSync(join(REPO, 'schemas', 'ongrid-skill-baseline.schema.json'), 'utf8'))
  const valid = new Ajv2020({ strict: true, allErrors: true }).compile(schema)

  test('a 2020-12 schema', () => {
    assert.equal(schema.$schema, 'https://json-schema.org/draft/2020-12/schema')
  })

  test('takes the file lint --update-baseline writes', () => {
    makeTree(T.root, {
      '.git/HEAD': 'x\n',
      'skills/a/skill.json': manifest({ name: 'a_one', description: 'x' }),
      'skills/a/run.sh': ECHO,
      'skills/b/SKILL.md': '---\nname: b\ndescription: x\n---\nbody\n',
    })
    const r = runCliSync(['lint', 'skills', '--update-baseline'], { cwd: T.root })
    assert.equal(r.code, 0, r.stderr)
    const doc = JSON.parse(readFileSync(join(T.root, '.ongrid-skill-baseline.json'), 'utf8'))
    assert.ok(Object.keys(doc.files).length > 0)
    assert.equal(valid(doc), true, JSON.stringify(valid.errors))
    assert.equal(valid({ $schema: './schemas/ongrid-skill-baseline.schema.json', ...doc }), true)
  })

  test('refuses what lint refuses', () => {
    const entry = { at: '', message: 'm', count: 1 }
    const bad: unknown[] = [
      [],
      { files: {} },
      { version: 2, files: {} },
      { version: 1 },
      { version: 1, files: {}, extra: 1 },
      { version: 1, files: { '/abs': {} } },
      { version: 1, files: { 'a\\b': {} } },
      { version: 1, files: { '': {} } },
      { version: 1, files: { a: { r: {} } } },
      { version: 1, files: { a: { r: [{ ...entry, count: 0 }] } } },
      { version: 1, files: { a: { r: [{ ...entry, count: 1.5 }] } } },
      { version: 1, files: { a: { r: [{ ...entry, at: 1 }] } } },
      { version: 1, files: { a: { r: [{ at: '', count: 1 }] } } },
      { version: 1, files: { a: { r: [{ ...entry, line: 3 }] } } },
      { $schema: 1, version: 1, files: {} },
    ]
    for (const doc of bad) {
      assert.equal(valid(doc), false, JSON.stringify(doc))
      assert.throws(() => parseBaseline(JSON.stringify(doc), 'b'), BaselineError, JSON.stringify(doc))
    }
    const good = { version: 1, files: { 'skills/a/skill.json': { 'r/x': [entry] } } }
    assert.equal(valid(good), true)
    assert.doesNotThrow(() => parseBaseline(JSON.stringify(good), 'b'))
  })
})
