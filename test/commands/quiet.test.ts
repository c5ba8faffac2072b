import assert from 'node:assert/strict'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { after, describe, test } from 'node:test'
import { cli } from '../core/lint/cli.js'
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
})
