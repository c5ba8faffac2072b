import assert from 'node:assert/strict'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { execFormatError } from '../../../src/core/executor/exec-format.js'
import { SH, script } from '../../fixtures/run/helpers.js'
import { tempRoot } from '../../helpers/tree.js'

// What execve(2) answers, as seen through Go's fork/exec (checked with a Go program on Linux):
// ENOEXEC → "exec format error", ELOOP → "too many levels of symbolic links"; null means
// "leave it to the real execve" (it runs, or fails with an error libuv does not retry).

let R = ''
let cleanup = () => {}
before(() => {
  ;({ root: R, cleanup } = tempRoot('ongrid-execfmt-'))
})
after(() => cleanup())

const err = (p: string) => execFormatError(p)?.error() ?? null

describe('execFormatError', () => {
  test('binaries for this machine and #! scripts run', () => {
    assert.equal(err(process.execPath), null)
    assert.equal(err('/bin/sh'), null)
    assert.equal(err(script(R, 'ok', `${SH}echo\n`)), null)
    assert.equal(err(script(R, 'blanks', '#! \t/bin/sh\n')), null)
    assert.equal(err(script(R, 'arg', '#!/bin/sh -e -x\n')), null)
    assert.equal(err(script(R, 'no-newline', '#!/bin/sh')), null) // no newline, short file: NUL-padded
    assert.equal(err(script(R, 'long-args', `#!/bin/sh ${'x'.repeat(400)}`)), null) // args may be cut
  })
  test('no #!, an empty file, #! without a name, a cut name, a foreign ELF: ENOEXEC', () => {
    for (const [name, content] of [
      ['plain', 'echo hi\n'],
      ['empty', ''],
      ['bang', '#!\n'],
      ['bang-blanks', '#!   \t\n'],
      ['bang-all-blanks', `#!${' '.repeat(300)}`],
      ['cut', `#!/bin/${'s'.repeat(300)}`],
      ['elf-stub', '\x7fELF'],
      ['bom', '\ufeff#!/bin/sh\n'],
      ['space-first', ' #!/bin/sh\n'],
    ]) {
      assert.equal(err(script(R, name, content)), 'exec format error', name)
    }
  })
  test('an interpreter that is itself a script without #!: ENOEXEC', () => {
    const inner = script(R, 'inner-plain', 'echo\n')
    assert.equal(err(script(R, 'outer', `#!${inner}\n`)), 'exec format error')
  })
  test('interpreters execve rejects by itself are left to it (ENOENT, EACCES)', () => {
    const d = join(R, 'idir')
    mkdirSync(d)
    const noexec = script(R, 'noexec', 'echo\n', 0o644)
    assert.equal(err(script(R, 'missing', '#!/nonexistent/sh\n')), null)
    assert.equal(err(script(R, 'todir', `#!${d}\n`)), null)
    assert.equal(err(script(R, 'tonoexec', `#!${noexec}\n`)), null)
  })
  test('nesting: five #! levels end in a binary; a sixth is ELOOP', () => {
    let prev = script(R, 'n1', `${SH}echo\n`)
    const chain = [prev]
    for (let i = 2; i <= 6; i++) {
      prev = script(R, `n${i}`, `#!${prev}\n`)
      chain.push(prev)
    }
    for (let i = 0; i < 5; i++) assert.equal(err(chain[i]), null, `level ${i + 1}`)
    assert.equal(err(chain[5]), 'too many levels of symbolic links')
  })
  test('unreadable or missing files are left to execve', () => {
    assert.equal(err(join(R, 'nothing-here')), null)
  })
})
