import assert from 'node:assert/strict'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { resolveSource, SourceError } from '../../src/core/audit/dsn.js'
import { ArgsError, assembleArgs } from '../../src/core/executor/args.js'
import { parseEnvFile } from '../../src/core/executor/env-file.js'
import { fromBuffer } from '../../src/core/go/gostring.js'
import { loadConfig } from '../../src/core/lint/config.js'
import { ConfigError } from '../../src/core/lint/errors.js'
import { RULES } from '../../src/core/lint/registry.js'
import { Rand } from '../differential/rand.js'
import { type CliResult, runCli } from '../helpers/cli.js'
import { makeTree, tempRoot } from '../helpers/tree.js'

// The CLI's own inputs — args files, env files, DSNs, lint configs — fuzzed: each is accepted or
// refused with the error class its command prints in one line (exit 2), never anything else (a
// TypeError, a URIError, a RangeError is an `internal error`, exit 70), and never hangs (every
// CLI call below is killed after a bound, which fails the test).

const SEED = Number(process.env.FUZZ_SEED ?? 11)

let R = ''
let cleanup = () => {}
before(() => {
  ;({ root: R, cleanup } = tempRoot('ongrid-fuzz-'))
})
after(() => cleanup())

/** Random bytes, biased towards what the parsers look at. */
function noise(r: Rand, max: number, alphabet: string): Buffer {
  const n = r.int(max + 1)
  const out = Buffer.alloc(n)
  for (let i = 0; i < n; i++) {
    out[i] = r.chance(0.6) ? alphabet.charCodeAt(r.int(alphabet.length)) : r.int(256)
  }
  return out
}

/** A structured sample mutated: bytes dropped, duplicated, replaced or inserted. */
function mutate(r: Rand, sample: string, alphabet: string): string {
  let s = sample
  for (let k = r.int(6); k > 0; k--) {
    const at = r.int(s.length + 1)
    switch (r.int(4)) {
      case 0:
        s = s.slice(0, at) + s.slice(at + 1 + r.int(3))
        break
      case 1:
        s = s.slice(0, at) + s.slice(at, at + r.int(8)) + s.slice(at)
        break
      case 2:
        s = s.slice(0, at) + alphabet[r.int(alphabet.length)] + s.slice(at + 1)
        break
      default:
        s = s.slice(0, at) + String.fromCharCode(r.int(256)) + s.slice(at)
    }
  }
  return s
}

const expectOnly = (f: () => void, allowed: (new (...a: never[]) => Error)[], input: unknown) => {
  try {
    f()
  } catch (e) {
    if (allowed.some((c) => e instanceof c)) return
    assert.fail(`${(e as Error)?.constructor?.name}: ${(e as Error)?.message} on ${JSON.stringify(input)}`)
  }
}

describe('fuzz: the parsers of the CLI’s own inputs', { timeout: 120_000 }, () => {
  test('env files (NAME=value lines, NUL-separated environ)', () => {
    const r = new Rand(SEED)
    for (let i = 0; i < 3000; i++) {
      const buf = r.chance(0.5)
        ? noise(r, 200, 'AB_=\n\0 #"\'\\export ')
        : Buffer.from(mutate(r, 'export A="x y"\n# c\nB=1\0C=\\n\0', '=\n\0"\'#\\ '), 'latin1')
      expectOnly(() => parseEnvFile(buf), [], buf.toString('latin1'))
    }
  })

  test('args files and --arg assignments', () => {
    const r = new Rand(SEED + 1)
    const schemas: unknown[] = [
      undefined,
      { type: 'object', properties: { n: { type: 'integer' }, t: { type: 'array' }, s: { type: 'string' } } },
      { properties: { n: { type: ['integer', 'null'] }, o: { type: 'object' } } },
      [],
      'x',
    ]
    for (let i = 0; i < 3000; i++) {
      const json = r.chance(0.5)
        ? fromBuffer(noise(r, 80, '{}[]":,0123456789.eE+-truefalsn '))
        : mutate(r, '{"n": 1, "t": [1, {"a": null}], "s": "\\u00e9"}', '{}[]":,\\')
      const assignments = Array.from({ length: r.int(3) }, () =>
        mutate(r, r.pick(['n=3', 't=["a"]', 's=x', 'o={"a":1}', '__proto__={}', 'n=1e999']), '=[]{}"'),
      )
      const input = { json: r.chance(0.8) ? json : undefined, assignments, schema: r.pick(schemas) }
      expectOnly(() => assembleArgs(input), [ArgsError], input)
    }
  })

  test('DSNs (--db)', () => {
    const r = new Rand(SEED + 2)
    const samples = [
      'mysql://u:p%40ss@h:3306/db?loc=UTC&timeout=5s&tls=true',
      'mysql://[::1]:3306/db',
      'u:p@ss@tcp(db.internal:3307)/ongrid?parseTime=true&loc=Local',
      'u@unix(/run/mysqld/mysqld.sock)/db',
      'mysql:u:p@tcp(h)/d',
      'sqlite:///var/x.db',
      'env:MY_DSN',
      'file:/nonexistent/dsn',
    ]
    const env = { MY_DSN: 'mysql://u:p@h/d', HOME: '/nonexistent' }
    for (let i = 0; i < 5000; i++) {
      const dsn = r.chance(0.15)
        ? fromBuffer(noise(r, 60, 'mysql:/@()%?&=.tcpunix'))
        : mutate(r, r.pick(samples), ':/@()%?&=[]')
      expectOnly(() => resolveSource(dsn, env), [SourceError], dsn)
    }
  })

  test('lint configs', async () => {
    const r = new Rand(SEED + 3)
    const ids = new Set(RULES.map((x) => x.id))
    const path = join(R, 'fuzz.yaml')
    for (let i = 0; i < 400; i++) {
      const text = r.chance(0.3)
        ? noise(r, 120, 'rules:ignore- \n*/"{}[]&!|>#')
        : Buffer.from(
            mutate(
              r,
              'rules:\n  practice/class-unset: off\n  schema/too-deep: warn\nignore:\n  - vendor/**\n',
              ':-\n *"&{}[]',
            ),
            'latin1',
          )
      writeFileSync(path, text)
      try {
        await loadConfig(fromBuffer(Buffer.from(path)), ids)
      } catch (e) {
        if (!(e instanceof ConfigError))
          assert.fail(`${(e as Error).message} on ${JSON.stringify(text.toString('latin1'))}`)
      }
    }
  })
})

function cli(args: string[], env: Record<string, string> = {}, limitMs = 20_000): Promise<CliResult> {
  return runCli(args, {
    env: { CI: '1', ...env },
    cwd: R,
    stdin: 'ignore',
    timeoutMs: limitMs,
    encoding: 'latin1',
  })
}

/** One line, no stack trace, no internal error, an expected exit code, in time. */
function assertClean(o: CliResult, codes: number[], what: string): void {
  assert.equal(o.hung, false, `${what}: hung`)
  assert.ok(codes.includes(o.code ?? -1), `${what}: exit ${o.code}\n${o.stderr}`)
  assert.doesNotMatch(o.stderr, /internal error|\n\s+at .*:\d+:\d+\)?\n/, `${what}: ${o.stderr}`)
}

describe('fuzz: the CLI on those inputs', { timeout: 600_000 }, () => {
  test('run --args-file / --env-from, audit tail --db, lint with a config', async () => {
    const r = new Rand(SEED + 4)
    const pack = join(R, 'pack')
    makeTree(pack, {
      'skill.json': JSON.stringify({
        name: 'fz',
        description: 'A fuzzed skill.',
        entry: 'run.sh',
        env_allow: ['A', 'B'],
        schema: {
          type: 'object',
          properties: { n: { type: 'integer' }, s: { type: 'string', pattern: '^(a+)+$' } },
        },
      }),
      'run.sh': { exec: '#!/bin/sh\ncat >/dev/null\necho "{}"\n' },
    })
    const argsFile = join(R, 'args.json')
    const envFile = join(R, 'env')
    const lintDir = join(R, 'lintme')
    makeTree(lintDir, {
      'a/skill.json': JSON.stringify({ name: 'a', description: 'A fuzzed skill.', entry: 'run.sh' }),
      'a/run.sh': { exec: '#!/bin/sh\necho "{}"\n' },
    })
    for (let i = 0; i < 12; i++) {
      writeFileSync(
        argsFile,
        r.chance(0.5)
          ? noise(r, 100, '{}[]":,0123456789 ns')
          : mutate(r, `{"n":1,"s":"${'a'.repeat(30)}!"}`, '{}":'),
      )
      writeFileSync(envFile, noise(r, 100, 'AB=\n\0 #"'))
      const arg = mutate(r, 'n=3', '=[]{}"')
      const o = await cli([
        'run',
        pack,
        '--no-audit',
        '--args-file',
        argsFile,
        '--env-from',
        envFile,
        '--arg',
        arg,
      ])
      // 0 ok, 1 failed, 2 usage, 4 args refused by the schema.
      assertClean(o, [0, 1, 2, 4], `run #${i}`)
    }
    for (let i = 0; i < 12; i++) {
      const dsn = mutate(
        r,
        r.pick([
          'mysql://u:p%zz@127.0.0.1:1/db',
          'u:p@tcp(127.0.0.1:1)/d?timeout=1ms',
          'sqlite:/nonexistent/x.db',
        ]),
        ':/@()%?&=',
      )
      const o = await cli(['audit', 'tail', '--db', dsn, '-n', '1'], {}, 30_000)
      assertClean(o, [0, 2], `audit tail --db ${JSON.stringify(dsn)}`)
      assert.doesNotMatch(o.stderr, /:p(%zz)?@/, `a password echoed: ${o.stderr}`)
    }
    for (let i = 0; i < 8; i++) {
      writeFileSync(
        join(lintDir, '.ongrid-skill.yaml'),
        mutate(r, 'rules:\n  practice/class-unset: off\nignore:\n  - b/**\n', ':-\n *"&'),
      )
      const o = await cli(['lint', lintDir])
      assertClean(o, [0, 1, 2], `lint #${i}`)
    }
  })
})
