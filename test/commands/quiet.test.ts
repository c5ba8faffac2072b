import assert from 'node:assert/strict'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { after, describe, test } from 'node:test'
import { cli } from '../helpers/lint-fixtures.js'
import { ECHO, makeTree, manifest, tempRoot } from '../helpers/tree.js'

const T = tempRoot('ongrid-quiet-')
after(T.cleanup)

describe('-q/--quiet on every command that prints progress or findings', () => {
  test('init -q writes the pack and prints nothing; without it, the summary', () => {
    const args = [
      'init',
      'port_check',
      '-y',
      '-d',
      'Checks that a TCP port answers, for deploys.',
      '--template',
      'bash',
    ]
    const quiet = cli([...args, '-q', '--dir', join(T.root, 'a')])
    assert.equal(quiet.code, 0, quiet.stderr)
    assert.equal(quiet.stdout, '')
    assert.ok(existsSync(join(T.root, 'a', 'skill.json')))
    const loud = cli([...args, '--dir', join(T.root, 'b')])
    assert.equal(loud.code, 0, loud.stderr)
    assert.notEqual(loud.stdout, '')
  })

  test('lint -q and validate -q are --quiet', () => {
    const pack = join(T.root, 'a')
    for (const cmd of ['lint', 'validate']) {
      const short = cli([cmd, pack, '-q'])
      const long = cli([cmd, pack, '--quiet'])
      assert.equal(short.code, long.code, `${cmd}: ${short.stderr}`)
      assert.equal(short.stdout, long.stdout, cmd)
      assert.equal(short.stderr, '', cmd)
    }
    // A pack with warnings only (class and timeout unset): -q hides them.
    makeTree(T.root, { 'w/skill.json': manifest({ name: 'w' }), 'w/run.sh': ECHO })
    assert.match(cli(['lint', join(T.root, 'w')]).stdout, /practice\/class-unset/)
    assert.doesNotMatch(cli(['lint', join(T.root, 'w'), '-q']).stdout, /practice\/class-unset/)
  })

  test('test -q shows only the failing cases and the counts', () => {
    const entry = { exec: '#!/bin/sh\nprintf \'{"n":1}\'\n' }
    makeTree(T.root, {
      't/skill.json': manifest({ name: 't', entry: 'run.sh' }),
      't/run.sh': entry,
      't/tests/cases.json': JSON.stringify([
        { name: 'passes', expect: { result: { n: 1 } } },
        { name: 'fails', expect: { result: { n: 2 } } },
      ]),
      'u/skill.json': manifest({ name: 'u', entry: 'run.sh' }),
      'u/run.sh': entry,
      'u/tests/cases.json': JSON.stringify([{ name: 'passes too', expect: { ok: true } }]),
    })
    const env = { NO_COLOR: '1' }
    const loud = cli(['test', join(T.root, 't'), join(T.root, 'u')], env, T.root)
    assert.equal(loud.code, 1, loud.stderr)
    assert.match(loud.stdout, /✓ passes/)
    const quiet = cli(['test', join(T.root, 't'), join(T.root, 'u'), '-q'], env, T.root)
    assert.equal(quiet.code, 1, quiet.stderr)
    assert.match(quiet.stdout, /^ {2}✗ t › fails {2}tests\/cases\.json:1\n {4}● /)
    assert.equal(quiet.stdout.split('fails').length, 2, 'each failure once')
    assert.doesNotMatch(quiet.stdout, /passes|u \(u\)/)
    assert.match(quiet.stdout, /\n2 passed, 1 failed\n/)
    const allPass = cli(['test', join(T.root, 'u'), '--quiet'], env, T.root)
    assert.equal(allPass.code, 0, allPass.stderr)
    assert.match(allPass.stdout, /^1 passed, 0 failed\nTime: /)
  })

  test('marketplace check -q and verify -q report errors only', () => {
    makeTree(T.root, {
      'mp/.claude-plugin/plugin.json': '{"id":"demo","version":"1.0.0"}',
      'mp/skills/hello/SKILL.md': '---\nname: hello\ndescription: Says hello.\n---\nHi\n',
    })
    const mp = join(T.root, 'mp')
    for (const cmd of ['check', 'verify']) {
      const loud = cli(['marketplace', cmd, mp, '--format', 'json'])
      assert.equal(loud.code, 0, loud.stderr)
      assert.deepEqual(
        JSON.parse(loud.stdout).files.flatMap((f: { findings: { rule_id: string }[] }) =>
          f.findings.map((x) => x.rule_id),
        ),
        ['marketplace/unsigned'],
        cmd,
      )
      const quiet = cli(['marketplace', cmd, mp, '--format', 'json', '-q'])
      assert.equal(quiet.code, 0, quiet.stderr)
      assert.deepEqual(
        JSON.parse(quiet.stdout).files.flatMap((f: { findings: unknown[] }) => f.findings),
        [],
        cmd,
      )
    }
    // An error stays: unsigned under --require-signed.
    const failing = cli(['marketplace', 'verify', mp, '--require-signed', '--quiet'])
    assert.equal(failing.code, 1, failing.stderr)
    assert.match(failing.stdout, /error {2}no signature\.json found {2}marketplace\/unsigned/)
  })
})
