import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { describe, test } from 'node:test'
import { parse } from '../../src/cli/fast.js'

// The shipped manifest is what bin/run.js reads; test the parser against the real definitions.
const manifest = JSON.parse(readFileSync(new URL('../../../oclif.manifest.json', import.meta.url), 'utf8'))
const run = manifest.commands.run
const loadDirs = manifest.commands['load-dirs']

describe('fast path parser', () => {
  test('flags with values, =values, repeats, chars, negations and defaults', () => {
    const got = parse(run, [
      './pack',
      '--args',
      '{"a":1}',
      '--arg=n=3',
      '--arg',
      'x=y',
      '-q',
      '--no-audit',
      '--role=viewer',
    ])
    assert.deepEqual(got, {
      args: { target: './pack' },
      argv: ['./pack'],
      flags: { args: '{"a":1}', arg: ['n=3', 'x=y'], quiet: true, audit: false, role: 'viewer' },
    })
    assert.deepEqual(parse(loadDirs, ['/a', '/b', '--explain'])?.flags, {
      explain: true,
      'log-format': 'text',
    })
    assert.deepEqual(parse(loadDirs, ['--', '--not-a-flag'])?.argv, ['--not-a-flag'])
  })

  test('leaves everything unusual to oclif (null)', () => {
    const cases: [typeof run, string[]][] = [
      [run, ['./pack', '--help']],
      [run, ['-h']],
      [run, ['./pack', '--bogus']],
      [run, ['./pack', '--role', 'root']], // not one of the options
      [run, []], // required arg missing
      [run, ['a', 'b']], // too many args (strict)
      [run, ['./pack', '--args']], // value missing
      [run, ['./pack', '--timeout', '1s', '--timeout', '2s']], // repeated single flag
      [run, ['./pack', '--quiet=yes']],
      [run, ['./pack', '--no-quiet']], // quiet does not allowNo
      [run, ['./pack', '-qx']],
      [run, ['./pack', '--args', '{}', '--args-file', 'f']], // exclusive
      [loadDirs, ['/a', '--builtins', 'x', '--no-builtins']], // exclusive
    ]
    for (const [cmd, argv] of cases) assert.equal(parse(cmd, argv), null, argv.join(' '))
  })
})
