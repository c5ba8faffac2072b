import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { Ajv2020 } from 'ajv/dist/2020.js'
import {
  commandName,
  ERROR_KINDS,
  envelope,
  errorKind,
  jsonError,
  SCHEMA_VERSION,
} from '../../src/ui/envelope.js'

const REPO = fileURLToPath(new URL('../../../', import.meta.url))
const schema = JSON.parse(readFileSync(join(REPO, 'schemas/output/envelope.schema.json'), 'utf8'))
const ajv = new Ajv2020({ strict: true, allErrors: true })
ajv.addSchema(schema)
const valid = ajv.getSchema(schema.$id)
const failure = ajv.getSchema(`${schema.$id}#/$defs/failure`)
if (!valid || !failure) throw new Error('envelope schema not compiled')

describe('the --json envelope', () => {
  test('a success: ok, exit 0, the command, schema version 1, no error, then its own fields', () => {
    const doc = envelope('marketplace check', 0, { files: [] })
    assert.deepEqual(doc, {
      ok: true,
      exit_code: 0,
      command: 'marketplace check',
      schema_version: 1,
      error: null,
      files: [],
    })
    assert.deepEqual(Object.keys(doc).slice(0, 5), ['ok', 'exit_code', 'command', 'schema_version', 'error'])
    assert.ok(valid(doc), JSON.stringify(valid.errors))
  })

  test('a failure: ok false, the exit code, the error with its kind from the code', () => {
    const doc = envelope('lint', 1, { files: [] }, '2 errors')
    assert.equal(doc.ok, false)
    assert.equal(doc.exit_code, 1)
    assert.deepEqual(doc.error, { message: '2 errors', kind: 'findings' })
    assert.ok(valid(doc), JSON.stringify(valid.errors))
  })

  test('kinds: 1 is findings for checks and failed for run, test, init; run owns 3, 4, 5', () => {
    const table: [string | null, number, string][] = [
      ['validate', 1, 'findings'],
      ['lint', 1, 'findings'],
      ['load-dirs', 1, 'findings'],
      ['marketplace check', 1, 'findings'],
      ['marketplace verify', 1, 'findings'],
      ['run', 1, 'failed'],
      ['test', 1, 'failed'],
      ['init', 1, 'failed'],
      ['lint', 2, 'usage'],
      [null, 2, 'usage'],
      ['run', 3, 'timeout'],
      ['run', 4, 'bad_args'],
      ['run', 5, 'forbidden'],
      ['test', 3, 'usage'],
      ['mcp', 70, 'internal'],
      ['audit tail', 130, 'signal'],
    ]
    for (const [command, code, kind] of table)
      assert.equal(errorKind(command, code), kind, `${command} ${code}`)
  })

  test('a stop signal names its signal; a kind adds its fields', () => {
    assert.deepEqual(jsonError('run', 143, 'stopped'), {
      message: 'stopped',
      kind: 'signal',
      signal: 'SIGTERM',
    })
    const doc = envelope('run', 4, {}, jsonError('run', 4, 'args/n: must be integer', { issues: ['x'] }))
    assert.deepEqual(doc.error, { message: 'args/n: must be integer', kind: 'bad_args', issues: ['x'] })
    assert.ok(failure(doc), JSON.stringify(failure.errors))
  })

  test('the schema refuses a document that breaks the envelope', () => {
    const good = envelope(null, 2, {}, 'unknown command "x"')
    assert.ok(failure(good), JSON.stringify(failure.errors))
    const bad: Record<string, unknown>[] = [
      { ...good, ok: true },
      { ...good, exit_code: 0 },
      { ...good, error: null },
      { ...good, schema_version: 2 },
      { ...good, error: { message: 'x', kind: 'oops' } },
      { ...good, error: { message: 'x', kind: 'usage', exitCode: 2 } },
      { ...good, extra: 1 },
    ]
    for (const d of bad) assert.equal(failure(d), false, JSON.stringify(d))
  })

  test("the schema's kinds are the module's, and its version", () => {
    assert.deepEqual(schema.$defs.error_kind.enum, [...ERROR_KINDS])
    assert.equal(schema.$defs.envelope.properties.schema_version.const, SCHEMA_VERSION)
  })

  test('a field may not take an envelope name; ids are typed with spaces', () => {
    assert.throws(() => envelope('run', 0, { ok: 1 }), /may not be named ok/)
    assert.equal(commandName('marketplace:check'), 'marketplace check')
  })
})
