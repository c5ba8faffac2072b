import assert from 'node:assert/strict'
import { writeFileSync } from 'node:fs'
import { after, before, describe, test } from 'node:test'
import { EXIT, reportError, UserError } from '../../src/cli/errors.js'
import { runCliSync } from '../helpers/cli.js'
import { ECHO, makeTree, manifest, tempRoot } from '../helpers/tree.js'

/** reportError's code and what it wrote on stderr. */
function report(err: Error): { code: number; stderr: string } {
  const write = process.stderr.write
  let stderr = ''
  process.stderr.write = ((s: string) => {
    stderr += s
    return true
  }) as typeof process.stderr.write
  try {
    return { code: reportError(err), stderr }
  } finally {
    process.stderr.write = write
  }
}

describe('reportError: one line, one exit code per kind of failure', () => {
  test('a bug (any other error) is an internal error: exit 70, EX_SOFTWARE', () => {
    assert.equal(EXIT.internal, 70)
    assert.deepEqual(report(new Error('boom\n  at x')), {
      code: 70,
      stderr: 'ongrid-skill: internal error: boom; at x (set DEBUG=* for details)\n',
    })
  })

  test('a UserError: its own code, and its hint as one more line', () => {
    assert.deepEqual(report(new UserError('no dirs')), {
      code: 2,
      stderr: 'ongrid-skill: no dirs\n',
    })
    assert.deepEqual(report(new UserError('unknown x', 2, 'did you mean "y"?\nor z')), {
      code: 2,
      stderr: 'ongrid-skill: unknown x\nhint: did you mean "y"? or z\n',
    })
    assert.deepEqual(report(new UserError('cannot read x', 3)), {
      code: 3,
      stderr: 'ongrid-skill: cannot read x\n',
    })
  })

  test("oclif's parse errors: their exit code, the help line dropped", () => {
    const e = Object.assign(new Error('Unexpected argument: x\nSee more help with --help'), {
      oclif: { exit: 2 },
    })
    assert.deepEqual(report(e), { code: 2, stderr: 'ongrid-skill: Unexpected argument: x\n' })
  })
})

// A fault injected into the process (a preloaded module makes writing a JSON document throw)
// stands for a bug: the CLI must end with exit 70 and one line, on both paths.
describe('an internal error through the CLI', () => {
  let R = ''
  let cleanup = () => {}
  let fault = ''
  before(() => {
    ;({ root: R, cleanup } = tempRoot())
    makeTree(R, { 'p/skill.json': manifest({ name: 'p' }), 'p/run.sh': ECHO, out: { dir: true } })
    fault = `${R}/fault.mjs`
    writeFileSync(
      fault,
      `const write = process.stdout.write.bind(process.stdout)
process.stdout.write = (chunk, ...rest) => {
  if (String(chunk).startsWith('{')) throw new Error('injected fault')
  return write(chunk, ...rest)
}
`,
    )
  })
  after(() => cleanup())

  const cli = (args: string[]) => {
    const r = runCliSync(args, { env: { NODE_OPTIONS: `--import ${fault}` } })
    return { code: r.code, stderr: r.stderr }
  }

  test('the fast path (validate --json): exit 70, one line', () => {
    assert.deepEqual(cli(['validate', `${R}/p`, '--json']), {
      code: 70,
      stderr: 'ongrid-skill: internal error: injected fault (set DEBUG=* for details)\n',
    })
  })

  test('through oclif (init --json): exit 70, one line', () => {
    const r = cli(['init', 'demo', '--yes', '--json', '-d', 'Does a thing well enough.', '--dir', `${R}/out`])
    assert.deepEqual(r, {
      code: 70,
      stderr: 'ongrid-skill: internal error: injected fault (set DEBUG=* for details)\n',
    })
  })
})
