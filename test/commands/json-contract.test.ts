/**
 * The --json contract (README, "JSON output"): every command's document, success and failure,
 * has the same envelope, and matches its schema in schemas/output/ (the CLI helpers check every
 * --json output of the suite against it: test/helpers/json-output.ts). Here: one success and
 * one failure per command, and proof that a document its schema does not describe is refused.
 */
import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { type CliResult, REPO, runCli } from '../helpers/cli.js'
import { jsonCommand, schemaFor } from '../helpers/json-output.js'
import { ECHO, makeTree, manifest, tempRoot } from '../helpers/tree.js'

const HEAD = ['ok', 'exit_code', 'command', 'schema_version', 'error']

/** The commands that answer for a manager release: their documents name it (`manager_version`). */
const ANSWERING = new Set([
  'validate',
  'lint',
  'load-dirs',
  'run',
  'test',
  'mcp',
  'eval',
  'marketplace check',
])

interface Doc {
  ok: boolean
  exit_code: number
  command: string | null
  schema_version: number
  error: { message: string; kind: string } | null
  [own: string]: unknown
}

let R = ''
let cleanup = () => {}
before(() => {
  ;({ root: R, cleanup } = tempRoot('ongrid-json-contract-'))
  const schema = { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] }
  makeTree(R, {
    'skills/p/skill.json': manifest({ name: 'p', class: 'safe', schema }),
    'skills/p/run.sh': ECHO,
    'skills/p/tests/cases.json': JSON.stringify([
      { name: 'echo', args: { n: 1 }, expect: { result: { n: 1 } } },
    ]),
    'bad/q/skill.json': manifest({ name: 'Bad-Name' }),
    'bad/q/run.sh': ECHO,
    'bad/q/tests/cases.json': JSON.stringify([
      { name: 'wrong', args: { n: 1 }, expect: { result: { n: 2 } } },
    ]),
    'mp/skills/hello/SKILL.md': '---\nname: hello\ndescription: Says hello.\n---\nSay hello.\n',
    'mp/.claude-plugin/plugin.json': JSON.stringify({
      name: 'mp-pack',
      version: '1.0.0',
      description: 'A pack.',
    }),
    'key.pem': 'not a key',
    'keys/.keep': '',
  })
})
after(() => cleanup())

/** [command, success argv, its exit code, failure argv, its exit code] for every command. */
function table(): [string, string[], number, string[], number][] {
  const P = `${R}/skills/p`
  const KEY = `${R}/keys/k.pem`
  return [
    ['validate', ['validate', P, '--json'], 0, ['validate', `${R}/bad`, '--json'], 1],
    ['lint', ['lint', P, '--format', 'json'], 0, ['lint', `${R}/bad`, '--json'], 1],
    ['run', ['run', P, '--args', '{"n":1}', '--json'], 0, ['run', P, '--args', '{"n":"x"}', '--json'], 4],
    [
      'eval',
      ['eval', P, '--print-request', '--prompt', 'hi', '--json'],
      0,
      ['eval', P, '--print-request', '--json'],
      2,
    ],
    [
      'load-dirs',
      ['load-dirs', `${R}/skills`, '--json'],
      0,
      ['load-dirs', `${R}/bad`, '--strict', '--json'],
      1,
    ],
    ['test', ['test', P, '--json'], 0, ['test', `${R}/bad`, '--format', 'json'], 1],
    ['mcp', ['mcp', `${R}/skills`, '--json'], 0, ['mcp', `${R}/skills`, '--class', 'risky', '--json'], 2],
    [
      'marketplace keygen',
      ['marketplace', 'keygen', '--out', KEY, '--json'],
      0,
      ['marketplace', 'keygen', '--out', KEY, '--json'],
      2,
    ],
    [
      'marketplace sign',
      ['marketplace', 'sign', `${R}/mp`, '--key', KEY, '--json'],
      0,
      ['marketplace', 'sign', `${R}/mp`, '--key', `${R}/key.pem`, '--json'],
      2,
    ],
    [
      'marketplace check',
      ['marketplace', 'check', `${R}/mp`, '--json'],
      0,
      ['marketplace', 'check', P, '--json'],
      1,
    ],
    [
      'marketplace verify',
      ['marketplace', 'verify', `${R}/mp`, '--json'],
      0,
      ['marketplace', 'verify', `${R}/missing`, '--json'],
      2,
    ],
    [
      'marketplace pack',
      ['marketplace', 'pack', `${R}/mp`, '--output', `${R}/mp.tgz`, '--json'],
      0,
      ['marketplace', 'pack', `${R}/mp`, '--format', 'rar', '--json'],
      2,
    ],
    ['audit tail', ['audit', 'tail', '--json'], 0, ['audit', 'tail', '--db', 'nonsense', '--json'], 2],
    [
      'init',
      ['init', 'made', '-y', '--description', 'Makes a thing for the test.', '--dir', `${R}/made`, '--json'],
      0,
      ['init', 'Bad Name', '-y', '--json'],
      2,
    ],
    ['help', ['help', 'lint', '--json'], 0, ['help', 'lnt', '--json'], 2],
    ['completion', ['completion', 'bash', '--json'], 0, ['completion', 'fish', '--json'], 2],
    ['version', ['version', '--json'], 0, ['version', '--bogus', '--json'], 2],
  ]
}

const run = (argv: string[]): Promise<CliResult> =>
  runCli(argv, { cwd: R, env: { XDG_STATE_HOME: `${R}/state` }, stdin: 'ignore', timeoutMs: 60_000 })

describe('every command: a success and a failure document with the same envelope', () => {
  // In order: keygen makes the key sign uses, sign the signature verify checks, run the audit row.
  for (const [command, good, goodCode, bad, badCode] of table()) {
    test(command, async () => {
      const ok = await run(good)
      assert.equal(ok.code, goodCode, ok.stderr)
      const failed = await run(bad)
      assert.equal(failed.code, badCode, failed.stderr)
      const docs = [ok, failed].map((r): Doc => {
        const text = command === 'audit tail' ? (r.stdout.trimEnd().split('\n').at(-1) ?? '') : r.stdout
        return JSON.parse(text)
      })
      for (const d of docs) {
        assert.deepEqual(Object.keys(d).slice(0, 5), HEAD)
        assert.equal(d.command, command)
        assert.equal(d.schema_version, 1)
      }
      assert.deepEqual([docs[0].ok, docs[0].exit_code, docs[0].error], [true, 0, null])
      assert.deepEqual([docs[1].ok, docs[1].exit_code], [false, badCode])
      const error = docs[1].error
      assert.ok(error !== null && typeof error.message === 'string')
      // A usage error is also the one line on stderr.
      if (error.kind === 'usage') assert.ok(failed.stderr.includes(error.message), 'stderr says the same')
      // A document its schema does not describe is refused: a key added, a key of its own removed.
      const valid = schemaFor(command)
      assert.ok(valid(docs[0]), JSON.stringify(valid.errors))
      assert.equal(valid({ ...docs[0], undocumented: 1 }), false, 'an undocumented key')
      if (ANSWERING.has(command)) {
        assert.deepEqual(
          docs.map((d) => d.manager_version),
          ['v0.13.4', 'v0.13.4'],
        )
        const { manager_version: _v, ...unnamed } = docs[0]
        assert.equal(valid(unnamed), false, 'manager_version removed')
      } else assert.equal('manager_version' in docs[0], false)
      const own = Object.keys(docs[0])
        .slice(5)
        .filter((k) => k !== 'manager_version')
      assert.ok(own.length > 0, 'a success has fields of its own')
      const { [own[0] as string]: _dropped, ...less } = docs[0]
      assert.equal(valid(less), false, `${own[0]} removed`)
    })
  }
})

describe('schemas/output', () => {
  test('a schema for every command, each compiling in strict mode, with the envelope', () => {
    const manifest = JSON.parse(readFileSync(join(REPO, 'oclif.manifest.json'), 'utf8'))
    // lsp speaks JSON-RPC on stdio: no document of its own (a usage failure is the envelope's).
    const ids = Object.keys(manifest.commands)
      .map((id) => id.replaceAll(':', '-'))
      .filter((id) => id !== 'lsp')
    const files = readdirSync(join(REPO, 'schemas/output')).map((f) => f.replace(/\.schema\.json$/, ''))
    assert.deepEqual(files.sort(), [...ids, 'envelope'].sort())
    for (const id of ids) schemaFor(id.replace(/^(marketplace|audit|remote)-/, '$1 '))
  })

  test('which outputs are documents: --json, --format json, not --help nor lint --show-tool', () => {
    assert.equal(jsonCommand(['marketplace', 'check', '.', '--json']), 'marketplace check')
    assert.equal(jsonCommand(['test', '.', '--format', 'json']), 'test')
    assert.equal(jsonCommand(['lint', '--format=json']), 'lint')
    assert.equal(jsonCommand(['load-dirs', '.', '--log-format', 'json']), undefined)
    assert.equal(jsonCommand(['lint', '--json', '--help']), undefined)
    assert.equal(jsonCommand(['lint', '--show-tool', '--json']), undefined)
    assert.equal(jsonCommand(['run', 'p', '--', '--json']), undefined)
  })

  test('a document that breaks its schema fails the run that printed it', () => {
    const doc = (exit: number, extra: Record<string, unknown> = {}) =>
      JSON.stringify({
        ok: exit === 0,
        exit_code: exit,
        command: 'version',
        schema_version: 1,
        error: null,
        ...extra,
      })
    const fine = {
      version: '0.1.0',
      node: 'v20.0.0',
      platform: 'linux-x64',
      manager_release: 'v0.13.4',
      manager_versions: ['v0.13.3', 'v0.13.4'],
    }
    // The helpers' check, as a run of `version --json` would meet it.
    return import('../helpers/json-output.js').then(({ checkJsonOutput }) => {
      checkJsonOutput(['version', '--json'], 0, doc(0, fine))
      assert.throws(
        () => checkJsonOutput(['version', '--json'], 0, doc(0, { ...fine, managerRelease: 'x' })),
        /does not match its schema/,
      )
      assert.throws(
        () => checkJsonOutput(['version', '--json'], 1, doc(0, fine)),
        /exit_code 0, but the CLI exited 1/,
      )
      assert.throws(() => checkJsonOutput(['version', '--json'], 0, 'nope'), /not one JSON document/)
    })
  })
})
