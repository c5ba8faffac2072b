/**
 * Schemas ajv refuses (it throws on a `"$schema"` that is not a string, on a `$ref` it cannot
 * resolve): validate, lint and `--show-tool` give a finding with the manager's verdict beside it
 * (it never checks a schema: the tool is offered with it as written), never an internal error.
 */
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { runCliSync } from '../helpers/cli.js'
import { ECHO, makeTree, manifest, type Node, tempRoot } from '../helpers/tree.js'

const VERDICT = 'the manager does not check the schema: it offers the tool with it as written (--show-tool).'

const SCHEMAS: Record<string, Record<string, unknown>> = {
  // The case of the issue: ajv's validateSchema throws `$schema must be a string`.
  not_a_string: { $schema: 1, type: 'object', properties: {}, additionalProperties: false },
  unresolved: {
    type: 'object',
    properties: { a: { $ref: '#/$defs/nope', description: 'a' } },
    additionalProperties: false,
  },
  unknown_format: {
    type: 'object',
    properties: { a: { type: 'string', format: 'nope', description: 'a' } },
    additionalProperties: false,
  },
}

describe('a schema ajv refuses: a finding with the manager’s verdict, never an internal error', () => {
  let R = ''
  let cleanup = () => {}
  before(() => {
    ;({ root: R, cleanup } = tempRoot())
    const tree: Record<string, Node> = {}
    for (const [name, schema] of Object.entries(SCHEMAS)) {
      tree[`skills/${name}/skill.json`] = manifest({
        name,
        description: 'A schema ajv refuses to compile.',
        class: 'safe',
        timeout_seconds: 10,
        schema,
      })
      tree[`skills/${name}/run.sh`] = ECHO
    }
    makeTree(R, tree)
  })
  after(() => cleanup())

  test('run and test: ajv’s own notes never reach stderr (an unknown format is not checked, as by the manager)', () => {
    makeTree(R, {
      'skills/unknown_format/tests/c.json': JSON.stringify({
        name: 'c',
        args: { a: 'x' },
        expect: { ok: true },
      }),
    })
    const run = runCliSync(['run', 'skills/unknown_format', '--arg', 'a=x', '--no-audit'], { cwd: R })
    assert.deepEqual([run.code, run.stderr], [0, ''])
    const t = runCliSync(['test', 'skills/unknown_format'], { cwd: R })
    assert.equal(t.code, 0, t.stdout)
    assert.equal(t.stderr, '')
  })
  for (const name of Object.keys(SCHEMAS)) {
    test(`validate and lint ${name}: exit 1, one schema/invalid finding with the verdict`, () => {
      for (const command of ['validate', 'lint']) {
        const r = runCliSync([command, `skills/${name}`, '--json'], { cwd: R })
        assert.equal(r.stderr, '', command)
        assert.equal(r.code, 1, command)
        const doc = JSON.parse(r.stdout)
        const found = doc.files[0].findings.filter((f: { rule_id: string }) => f.rule_id === 'schema/invalid')
        assert.equal(found.length, 1, `${command}: ${r.stdout}`)
        assert.ok(found[0].hint.startsWith(VERDICT), `${command}: ${found[0].hint}`)
      }
    })
    test(`lint --show-tool ${name}: the bridge's definition, the schema as written`, () => {
      const r = runCliSync(['lint', '--show-tool', '--json', `skills/${name}`], { cwd: R })
      assert.deepEqual([r.code, r.stderr], [0, ''])
      const def = JSON.parse(r.stdout)
      assert.deepEqual(def.function.parameters, SCHEMAS[name])
    })
  }
})
