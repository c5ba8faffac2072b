import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { describe, test } from 'node:test'
import { type ManifestFlag, parse } from '../../src/cli/fast.js'

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

describe('the manifest bin/run.js gives the bundled fast path (dist/bundle/fast-manifest.json)', () => {
  const slim = JSON.parse(
    readFileSync(new URL('../../../dist/bundle/fast-manifest.json', import.meta.url), 'utf8'),
  )

  test('every command parses every flag, value and argument as with oclif.manifest.json', () => {
    assert.deepEqual(Object.keys(slim.commands), Object.keys(manifest.commands))
    let compared = 0
    for (const [id, full] of Object.entries(manifest.commands) as [string, typeof run][]) {
      const cmd = slim.commands[id]
      assert.equal(cmd.strict, full.strict, id)
      assert.deepEqual(Object.keys(cmd.args), Object.keys(full.args), id)
      const argvs: string[][] = [[], ['a'], ['a', 'b', 'c'], ['--', '-x']]
      for (const f of Object.values(full.flags) as ManifestFlag[]) {
        const value = f.options?.[0] ?? 'v'
        argvs.push([`--${f.name}`], [`--${f.name}`, value], [`--${f.name}=${value}`], [`--no-${f.name}`])
        argvs.push(['a', `--${f.name}`, value, `--${f.name}`, value])
        if (f.char) argvs.push([`-${f.char}`], [`-${f.char}`, value])
        for (const other of f.exclusive ?? []) argvs.push([`--${f.name}`, value, `--${other}`])
      }
      for (const argv of argvs) {
        assert.deepEqual(parse(cmd, argv), parse(full, argv), `${id} ${argv.join(' ')}`)
        compared++
      }
    }
    assert.ok(compared > 500, `${compared} command lines`)
  })

  test('without the texts of help: a fraction of the bytes to parse at each start', () => {
    const size = (u: string) => readFileSync(new URL(u, import.meta.url)).length
    assert.ok(size('../../../dist/bundle/fast-manifest.json') * 4 < size('../../../oclif.manifest.json'))
    for (const c of Object.values(slim.commands) as { flags: object; args: object }[])
      for (const o of [c, ...Object.values(c.flags), ...Object.values(c.args)])
        assert.ok(!('description' in o) && !('summary' in o) && !('examples' in o), JSON.stringify(o))
  })
})
