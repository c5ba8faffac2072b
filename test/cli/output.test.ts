import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, describe, test } from 'node:test'
import { runCliSync } from '../helpers/cli.js'
import { entrylessPacks } from '../helpers/tree.js'

// writeStdout (cli/output.ts): validate's and lint's report in one go, straight to fd 1 when it is
// a file, through process.stdout when it is a pipe (a reader that stops reading or goes away is
// the stream's to handle; test/commands/lint-fix-signals.test.ts: a stop signal while it waits).
const TMP = mkdtempSync(join(tmpdir(), 'ongrid-output-'))
after(() => rmSync(TMP, { recursive: true, force: true }))

describe('writeStdout: the whole report to fd 1', () => {
  const dir = entrylessPacks(join(TMP, 'many'), 400)
  const whole = runCliSync(['lint', dir], { program: true })

  test('the report is large and lint finds problems (the cases below need both)', () => {
    assert.equal(whole.code, 1, whole.stderr)
    assert.ok(Buffer.byteLength(whole.stdout) > 4 * 65536, `${Buffer.byteLength(whole.stdout)} bytes`)
  })

  test('a reader that goes away: the verdict stays the exit code, nothing on stderr', () => {
    const r = runCliSync(['lint', dir], { program: true, sh: '{ "$0" "$@"; echo "rc=$?" >&2; } | head -c 1' })
    assert.equal(r.stdout, whole.stdout.slice(0, 1))
    assert.equal(r.stderr, 'rc=1\n')
  })

  test('to a file: the same bytes as through a pipe', () => {
    const out = join(TMP, 'report.txt')
    const r = runCliSync(['lint', dir], { program: true, sh: `"$0" "$@" > ${out}` })
    assert.equal(r.code, 1, r.stderr)
    assert.equal(readFileSync(out, 'utf8'), whole.stdout)
  })
})

describe('stdoutKind: what fd 1 is', () => {
  // Which of node's modules the command loaded, written at its exit by a preload.
  const report = join(TMP, 'modules.json')
  const preload = join(TMP, 'modules.cjs')
  writeFileSync(
    preload,
    `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(report)}, JSON.stringify(process.moduleLoadList)))\n`,
  )
  const pack = join(entrylessPacks(join(TMP, 'one'), 1), 'p0')
  const loaded = (sh: string) => {
    rmSync(report, { force: true })
    const r = runCliSync(['validate', pack], {
      program: true,
      sh,
      env: { NODE_OPTIONS: `--require=${preload}` },
    })
    return { r, modules: JSON.parse(readFileSync(report, 'utf8')) as string[] }
  }

  const plain = runCliSync(['validate', pack], { program: true })

  test('/dev/null is a device, not a terminal, told without loading node:tty', () => {
    const { r, modules } = loaded('"$0" "$@" > /dev/null')
    assert.equal(r.code, plain.code, r.stderr)
    assert.ok(!modules.includes('NativeModule tty'), 'node:tty was loaded')
  })

  test('a file neither; a pipe goes through process.stdout; all three say the same', () => {
    const out = join(TMP, 'out.txt')
    const file = loaded(`"$0" "$@" > ${out}`)
    assert.ok(!file.modules.includes('NativeModule tty'))
    assert.equal(readFileSync(out, 'utf8'), plain.stdout)
    const pipe = loaded('"$0" "$@" | cat')
    assert.equal(pipe.r.stdout, plain.stdout)
    assert.ok(pipe.modules.includes('NativeModule net'), 'a pipe is a socket of node:net')
  })
})
