/**
 * `--json` failures, for every command: one JSON document on stdout — the envelope
 * (src/ui/envelope.ts): `ok: false`, `exit_code` (the documented one), the command, and an
 * `error` object with the message and its kind — and
 * the one `ongrid-skill: …` line on stderr (plus, for a usage error, its `hint:` line).
 */
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { runCli } from '../helpers/cli.js'
import { makeTree, manifest, tempRoot } from '../helpers/tree.js'

let R = ''
let cleanup = () => {}
before(() => {
  ;({ root: R, cleanup } = tempRoot('ongrid-json-failures-'))
  makeTree(R, {
    'skills/p/skill.json': manifest({
      name: 'p',
      schema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
    }),
    'skills/p/run.sh': { exec: '#!/bin/sh\ncat\n' },
    'key.pem': 'not a key',
  })
})
after(() => cleanup())

/** [argv, exit code, message pattern]: each failure kind the commands can meet. */
function cases(): [string[], number, RegExp][] {
  const P = `${R}/skills/p`
  const MISSING = `${R}/missing`
  const UNREACHABLE = 'mysql://u:p@127.0.0.1:1/x'
  return [
    // run: unknown pack, args not matching the schema, a bad --arg, bad --args, a missing PATH, a bad flag value
    [['run', 'nope', '--dirs', `${R}/skills`], 2, /^no skill nope is registered from /],
    [['run', P, '--args', '{"n":"x"}'], 4, /^args\/n: must be integer$/],
    [['run', P, '--arg', 'n'], 2, /^--arg "n": expected key=value$/],
    [['run', P, '--args', '{"n":'], 2, /^--args: not valid JSON: .* at byte 5 \(line 1, column 5\)/],
    [['run', MISSING], 2, /missing/],
    [['run', P, '--timeout', 'soon'], 2, /^--timeout: time: invalid duration "soon"$/],
    // validate / lint: a missing PATH, a bad flag value, an unknown flag
    [['validate', MISSING], 2, /^PATH does not exist: /],
    [['validate', P, '--format', 'xml'], 2, /^--format: "xml" is not one of /],
    [['lint', MISSING], 2, /^PATH does not exist: /],
    [['lint', P, '--max-warnings', 'many'], 2, /many/],
    [['lint', P, '--bogus'], 2, /^unknown flag --bogus$/],
    // load-dirs: a bad flag value, a flag without its value
    [['load-dirs', P, '--log-format', 'xml'], 2, /^--log-format: "xml" is not one of text, json$/],
    [['load-dirs', P, '--builtins'], 2, /^--builtins needs a value$/],
    // test: a missing PATH, a bad flag value, no cases
    [['test', MISSING], 2, /^PATH does not exist: /],
    [['test', P, '-j', '0'], 2, /^-j 0: expected a whole number from 1 to 1024$/],
    [['test', P], 2, /^no test cases found under /],
    // init: a bad name, a bad flag value
    [['init', 'Bad Name', '-y'], 2, /^name "Bad Name" must be lower_snake/],
    [['init', 'ok_name', '-y', '--template', 'cobol', '--dir', `${R}/init`], 2, /^unknown template "cobol"/],
    // audit tail: an unreachable DB, a bad flag value
    [['audit', 'tail', '--db', UNREACHABLE], 2, /^cannot reach MySQL at 127\.0\.0\.1:1/],
    [['audit', 'tail', '--db', 'nonsense'], 2, /^--db nonsense: expected /],
    // mcp: no dirs, a bad flag value
    [['mcp'], 2, /^no dirs: /],
    [['mcp', `${R}/skills`, '--class', 'risky'], 2, /risky/],
    // marketplace *: a missing PATH, a bad key, a bad flag value
    [['marketplace', 'check', MISSING], 2, /no such file or directory/],
    [['marketplace', 'verify', MISSING], 2, /no such file or directory/],
    [['marketplace', 'pack', MISSING], 2, /no such directory/],
    [['marketplace', 'pack', P, '--format', 'rar'], 2, /^--format: "rar" is not one of /],
    [['marketplace', 'sign', P, '--key', `${R}/key.pem`], 2, /^--key .*: not a private key PEM/],
    [['marketplace', 'keygen', '--out', `${R}/skills/p/skill.json`], 2, /exists; not overwriting it/],
  ]
}

test('--json failures of every command: one document, ok false, the message and the exit code', async () => {
  const all = cases()
  const outs = await Promise.all(
    all.map(([argv]) =>
      runCli([...argv, '--json'], {
        cwd: R,
        env: { CI: '1', XDG_STATE_HOME: `${R}/state`, ONGRID_SKILLS_EXTERNAL_DIRS: undefined },
        stdin: 'ignore',
        timeoutMs: 60_000,
      }),
    ),
  )
  const problems: string[] = []
  all.forEach(([argv, code, message], k) => {
    const r = outs[k]
    const label = argv.join(' ')
    try {
      assert.equal(r.code, code, `exit code (stderr: ${r.stderr})`)
      const doc = JSON.parse(r.stdout)
      assert.equal(doc.ok, false, 'ok')
      assert.equal(doc.exit_code, code, 'exit_code')
      assert.equal(doc.schema_version, 1, 'schema_version')
      assert.equal(
        doc.command,
        argv[0] === 'audit' || argv[0] === 'marketplace' ? argv.slice(0, 2).join(' ') : argv[0],
      )
      assert.equal(typeof doc.error.kind, 'string', 'error.kind')
      assert.match(doc.error.message, message, 'error.message')
      // Stderr keeps its one line (a usage error adds its hint).
      assert.match(
        r.stderr,
        /^ongrid-skill: [^\n]*\n(hint: [^\n]*\n)?$|^error: [^\n]*\n(\([^\n]*\)\n)?$/,
        'stderr',
      )
      assert.ok(r.stderr.includes(doc.error.message), 'stderr says the same')
    } catch (e) {
      problems.push(`${label}: ${(e as Error).message}`)
    }
  })
  assert.deepEqual(problems, [])
})

test('--format json is --json: a failure through oclif is one document too', async () => {
  for (const argv of [
    ['lint', '.', '--format', 'json', '--bogus'],
    ['validate', '--format=json', '--max-warnings', '1'],
    ['test', '.', '--format', 'json', '--jobs'],
  ]) {
    const r = await runCli(argv, { cwd: R, stdin: 'ignore' })
    assert.equal(r.code, 2, r.stderr)
    const doc = JSON.parse(r.stdout)
    assert.deepEqual([doc.ok, doc.exit_code, doc.command, doc.error.kind], [false, 2, argv[0], 'usage'])
  }
})

test('an unknown command given --json: one document, command null, the hint in error', async () => {
  for (const argv of [
    ['lnt', '--json'],
    ['marketplace', 'chek', '--json'],
  ]) {
    const r = await runCli(argv, { cwd: R, stdin: 'ignore' })
    assert.equal(r.code, 2, r.stderr)
    const doc = JSON.parse(r.stdout)
    assert.equal(doc.exit_code, 2)
    assert.equal(doc.command, null)
    assert.equal(doc.error.kind, 'usage')
    assert.match(doc.error.message, /^unknown command "(lnt|marketplace chek)"$/)
    assert.match(doc.error.hint, /^did you mean "(lint|marketplace check)"\?$/)
  }
  // Past `--`, --json is an argument, not the flag.
  const r = await runCli(['lnt', '--', '--json'], { cwd: R, stdin: 'ignore' })
  assert.equal(r.stdout, '')
})
