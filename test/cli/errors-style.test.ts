import assert from 'node:assert/strict'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, describe, test } from 'node:test'
import { cli, REPO } from '../helpers/lint-fixtures.js'
import { ECHO, makeTree, manifest, tempRoot } from '../helpers/tree.js'

/** stderr as the user sees it: the error line, then at most one hint line. */
function expectError(args: string[], line: string, hint?: string, cwd = REPO) {
  const r = cli(args, {}, cwd)
  assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`)
  assert.equal(r.stderr, `ongrid-skill: ${line}\n${hint === undefined ? '' : `hint: ${hint}\n`}`)
  assert.equal(r.stdout, '')
}

const T = tempRoot('ongrid-style-')
after(T.cleanup)

describe('one error style: a line of ours, one hint line, no oclif internals', () => {
  test('unknown commands, with the nearest one', () => {
    expectError(['lnt'], 'unknown command "lnt"', 'did you mean "lint"?')
    expectError(['validat', 'x'], 'unknown command "validat"', 'did you mean "validate"?')
    expectError(['audit', 'tial'], 'unknown command "audit tial"', 'did you mean "audit tail"?')
    expectError(['frobnicate'], 'unknown command "frobnicate"', 'see `ongrid-skill --help` for the commands')
  })

  test('help [COMMAND] is the command’s --help', () => {
    const help = cli(['help', 'lint'])
    assert.equal(help.code, 0, help.stderr)
    assert.equal(help.stdout, cli(['lint', '--help']).stdout)
    const topic = cli(['help', 'audit', 'tail'])
    assert.equal(topic.code, 0, topic.stderr)
    assert.equal(topic.stdout, cli(['audit', 'tail', '--help']).stdout)
    // help's own: `help help`.
    const self = cli(['help', 'help'])
    assert.equal(self.code, 0, self.stderr)
    assert.match(self.stdout, /^Show help for a command\n\nUSAGE\n {2}\$ ongrid-skill help \[COMMAND\.\.\.\]/)
    for (const flag of ['--help', '-h']) assert.equal(cli(['help', flag]).stdout, self.stdout, `help ${flag}`)
    // A topic: its commands, as `marketplace --help` lists them.
    const mp = cli(['help', 'marketplace'])
    assert.equal(mp.code, 0, mp.stderr)
    assert.equal(mp.stdout, cli(['marketplace', '--help']).stdout)
    assert.match(mp.stdout, /^ {2}marketplace verify +/m)
    const root = cli(['help'])
    assert.equal(root.code, 0)
    assert.match(root.stdout, /^COMMANDS$/m)
    assert.match(root.stdout, /^ {2}help +Show help for a command$/m)
    expectError(['help', 'lnt'], 'unknown command "lnt"', 'did you mean "lint"?')
    // --json: the command's definition, or the list.
    const j = JSON.parse(cli(['help', 'lint', '--json']).stdout)
    assert.deepEqual([j.ok, j.exit_code, j.command, j.id], [true, 0, 'help', 'lint'])
    assert.deepEqual(j.flags.find((f: { name: string }) => f.name === 'format').options, [
      'stylish',
      'json',
      'sarif',
      'github',
      'junit',
    ])
    const list = JSON.parse(cli(['help', '--json']).stdout)
    assert.ok(list.commands.some((c: { id: string }) => c.id === 'audit tail'))
  })

  test('flags: unknown names, values not among the options, missing values and arguments', () => {
    expectError(['lint', '--formt', 'json'], 'unknown flag --formt', 'did you mean --format?')
    expectError(['validate', '--bogus'], 'unknown flag --bogus', 'see `ongrid-skill validate --help`')
    expectError(
      ['lint', '--format', 'jsn'],
      '--format: "jsn" is not one of stylish, json, sarif, github, junit',
      'did you mean "json"?',
    )
    expectError(
      ['audit', 'tail', '--status', 'eror'],
      '--status: "eror" is not one of ok, error, timeout, pending',
      'did you mean "error"?',
    )
    expectError(['init', '--timeout'], '--timeout needs a value', 'see `ongrid-skill init --help`')
    // `warning` is `warn` in a config; as a flag value it gets the hint.
    expectError(
      ['lint', '--fail-severity', 'warning'],
      '--fail-severity: "warning" is not one of error, warn, info',
      'did you mean "warn"?',
    )
    expectError(
      ['lint', '--format'],
      '--format needs a value: one of stylish, json, sarif, github, junit',
      'see `ongrid-skill lint --help`',
    )
    expectError(
      ['run', 'x', '--role'],
      '--role needs a value: one of admin, user, viewer, system',
      'see `ongrid-skill run --help`',
    )
    expectError(['run'], 'missing argument: TARGET', 'see `ongrid-skill run --help`')
    expectError(
      ['marketplace', 'sign', '.'],
      'missing flag: --key',
      'see `ongrid-skill marketplace sign --help`',
    )
    expectError(['init', 'a', 'b'], 'unexpected argument: "b"', 'see `ongrid-skill init --help`')
    expectError(['audit', 'tail', 'x'], 'unexpected argument: "x"', 'see `ongrid-skill audit tail --help`')
    expectError(
      ['lint', '.', '--config', 'x.yaml', '--no-config'],
      '--config and --no-config cannot be used together',
      'see `ongrid-skill lint --help`',
    )
  })

  test('rule ids, rule settings, templates and skill names', () => {
    expectError(
      ['lint', '--rule', 'practice/clas-unset=off', '.'],
      '--rule practice/clas-unset=off: unknown rule "practice/clas-unset"',
      'did you mean "practice/class-unset"?',
    )
    expectError(
      ['lint', '--rule', 'practice/nothing-like-it=off', '.'],
      '--rule practice/nothing-like-it=off: unknown rule "practice/nothing-like-it"',
      'see `ongrid-skill lint --list-rules`',
    )
    expectError(
      ['lint', '--rule', 'practice/class-unset=eror', '.'],
      '--rule practice/class-unset=eror: expected practice/class-unset=off|info|warn|error',
      'did you mean "error"?',
    )
    const R = join(T.root, 'names')
    expectError(
      [
        'init',
        'ok_name',
        '-y',
        '-d',
        'Checks that a port answers',
        '--template',
        'pyton',
        '--dir',
        join(R, 'x'),
      ],
      'unknown template "pyton": the built-in ones are bash, go, node, python (or pass a template dir, e.g. ./my-template)',
      'did you mean "python"?',
    )
    makeTree(R, {
      'skills/disk_usage/skill.json': manifest({ name: 'disk_usage', entry: 'run.sh' }),
      'skills/disk_usage/run.sh': ECHO,
    })
    const r = cli(['run', 'disk_usag', '--dirs', join(R, 'skills'), '--no-audit'])
    assert.equal(r.code, 2)
    assert.equal(
      r.stderr,
      `ongrid-skill: no skill disk_usag is registered from ${join(R, 'skills')}\nhint: did you mean "disk_usage"?\n`,
    )
  })

  test('config files: `warning` is `warn`; unknown rules and settings get the nearest', () => {
    const R = join(T.root, 'cfg')
    makeTree(R, {
      'p/skill.json': manifest({ name: 'p', entry: 'run.sh' }),
      'p/run.sh': ECHO,
    })
    const cfg = join(R, '.ongrid-skill.yaml')
    writeFileSync(cfg, 'rules:\n  schema/missing: warning\n')
    const ok = cli(['lint', join(R, 'p'), '--format', 'json'])
    assert.equal(ok.code, 0, ok.stderr)
    // schema/missing is an info by default; `warning` makes it a warn.
    const [file] = JSON.parse(ok.stdout).files as { findings: { rule_id: string; severity: string }[] }[]
    assert.equal(file?.findings.find((f) => f.rule_id === 'schema/missing')?.severity, 'warn')
    writeFileSync(cfg, 'rules:\n  practice/clas-unset: warn\n')
    expectError(
      ['lint', join(R, 'p')],
      `${cfg}: rules: unknown rule "practice/clas-unset"`,
      'did you mean "practice/class-unset"?',
    )
    writeFileSync(cfg, 'rules:\n  practice/class-unset: eror\n')
    expectError(
      ['lint', join(R, 'p')],
      `${cfg}: rules: practice/class-unset: expected off, info, warn or error, not "eror"`,
      'did you mean "error"?',
    )
  })
})
