import assert from 'node:assert/strict'
import { writeFileSync } from 'node:fs'
import { after, before, describe, test } from 'node:test'
import { EXIT, ExitWith, reportError, UserError } from '../../src/cli/errors.js'
import { reportFailure } from '../../src/cli/fast.js'
import { SourceError } from '../../src/core/audit/dsn.js'
import { AuditError } from '../../src/core/audit/errors.js'
import { ArgsError } from '../../src/core/executor/args.js'
import { TemplateError } from '../../src/core/init/templates.js'
import { TargetError } from '../../src/core/init/write.js'
import { ConfigError, PathError } from '../../src/core/lint/errors.js'
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

describe('one error base: the exit code travels with the error', () => {
  test("core's refusals are UserErrors: exit 2, one line, their hint", () => {
    const refusals = [
      new PathError('no such dir: x'),
      new ArgsError('--arg n: not an integer'),
      new SourceError('--db x: unknown'),
      new TargetError('x: not empty'),
      new AuditError('cannot reach MySQL at h:3306 (connection refused)', true),
    ]
    for (const e of refusals) {
      assert.ok(e instanceof UserError, e.constructor.name)
      assert.deepEqual(report(e), { code: EXIT.usage, stderr: `ongrid-skill: ${e.message}\n` })
    }
    for (const e of [
      new ConfigError('bad rule x', 'did you mean "y"?'),
      new TemplateError('no template x', 'did you mean "y"?'),
    ]) {
      assert.ok(e instanceof UserError, e.constructor.name)
      assert.deepEqual(report(e), {
        code: EXIT.usage,
        stderr: `ongrid-skill: ${e.message}\nhint: did you mean "y"?\n`,
      })
    }
  })

  test('ExitWith: its code, nothing printed', () => {
    assert.deepEqual(report(new ExitWith(3)), { code: 3, stderr: '' })
  })

  test('the launcher: a UserError (or one derived from it) of another copy of the code keeps its code and hint', () => {
    // Classes of the same names as ours, as the modules of dist/ have them beside the bundle.
    class UserError extends Error {
      constructor(
        message: string,
        readonly exitCode = 2,
        readonly hint?: string,
      ) {
        super(message)
      }
    }
    class ExitWith extends UserError {}
    class PathError extends UserError {}
    const failure = (e: Error) => {
      const write = process.stderr.write
      let stderr = ''
      process.stderr.write = ((t: string) => {
        stderr += t
        return true
      }) as typeof process.stderr.write
      try {
        return { code: reportFailure(e), stderr }
      } finally {
        process.stderr.write = write
      }
    }
    assert.deepEqual(failure(new UserError('unknown command "x"', 2, 'did you mean "y"?')), {
      code: 2,
      stderr: 'ongrid-skill: unknown command "x"\nhint: did you mean "y"?\n',
    })
    assert.deepEqual(failure(new PathError('no such dir', 4)), {
      code: 4,
      stderr: 'ongrid-skill: no such dir\n',
    })
    assert.deepEqual(failure(new ExitWith('exit 5', 5)), { code: 5, stderr: '' })
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
      // Both ways a document reaches fd 1: process.stdout, and writeSync (cli/output.ts).
      `import fs from 'node:fs'
import { syncBuiltinESMExports } from 'node:module'
const write = process.stdout.write.bind(process.stdout)
process.stdout.write = (chunk, ...rest) => {
  if (String(chunk).startsWith('{')) throw new Error('injected fault')
  return write(chunk, ...rest)
}
const writeSync = fs.writeSync
fs.writeSync = (fd, data, ...rest) => {
  if (fd === 1 && String(data).startsWith('{')) throw new Error('injected fault')
  return writeSync(fd, data, ...rest)
}
syncBuiltinESMExports()
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
