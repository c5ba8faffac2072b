import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import {
  cString,
  decoration,
  parseCall,
  parseTrace,
  stringArray,
} from '../../../src/core/trace/strace-line.js'

describe('strace lines', () => {
  test('a call: pid, time, name, top-level args, return and errno', () => {
    const r = parseCall(
      7,
      1.5,
      'openat(AT_FDCWD</w>, "/etc/x, y (z)", O_WRONLY|O_CREAT|O_TRUNC, 0666) = -1 EACCES (Permission denied)',
    )
    assert.deepEqual(r, {
      pid: 7,
      time: 1.5,
      name: 'openat',
      args: ['AT_FDCWD</w>', '"/etc/x, y (z)"', 'O_WRONLY|O_CREAT|O_TRUNC', '0666'],
      ret: '-1',
      errno: 'EACCES',
    })
  })

  test('structs, arrays, comments and decorations with commas stay one argument', () => {
    const r = parseCall(1, 0, 'execve("/bin/sh", ["sh", "-c", "a, b"], 0x7ffd /* 35 vars */) = 0')
    assert.deepEqual(r?.args, ['"/bin/sh"', '["sh", "-c", "a, b"]', '0x7ffd /* 35 vars */'])
    const c = parseCall(
      1,
      0,
      'connect(3<socket:[1]>, {sa_family=AF_INET, sin_port=htons(80), sin_addr=inet_addr("1.2.3.4")}, 16) = 0',
    )
    assert.equal(c?.args.length, 3)
    const d = parseCall(1, 0, 'fchmod(4</tmp/a,b>c>, 0600) = 0')
    assert.deepEqual(d?.args, ['4</tmp/a,b>c>', '0600'])
  })

  test('an interrupted call is joined to its end, in the order it was made', () => {
    const text = [
      '10 100.000001 vfork( <unfinished ...>',
      '11 100.000002 execve("/usr/bin/rm", ["rm", "x"], 0x1 /* 3 vars */ <unfinished ...>',
      '10 100.000003 <... vfork resumed>) = 11',
      '11   100.000004 <... execve resumed>) = 0',
      '11 100.000005 +++ exited with 0 +++',
      '10 100.000006 --- SIGCHLD {si_signo=SIGCHLD} ---',
      '',
    ].join('\n')
    const { records, unreadable } = parseTrace(text)
    assert.equal(unreadable, 0)
    assert.deepEqual(
      records.map((r) => [r.pid, r.name, r.ret, r.time]),
      [
        [10, 'vfork', '11', 100.000001],
        [11, 'execve', '0', 100.000002],
      ],
    )
    assert.deepEqual(records[1].args[1], '["rm", "x"]')
  })

  test('a call still unfinished at the end (killed in it) is kept with ret ?; a cut line is unreadable', () => {
    const { records, unreadable } = parseTrace(
      '5 1.0 wait4(-1,  <unfinished ...>\n5 1.1 openat(AT_FDCWD, "/x',
    )
    assert.equal(records.length, 1)
    assert.equal(records[0].ret, '?')
    assert.equal(unreadable, 1)
  })

  test('C strings, decorations and argv arrays decode escapes (bytes as UTF-8)', () => {
    assert.equal(cString('"a\\nb\\"c\\\\d\\x41\\303\\251"'), 'a\nb"c\\dAé')
    assert.equal(cString('"long"...'), 'long')
    assert.equal(cString('AT_FDCWD'), null)
    assert.equal(decoration('3</tmp/x>'), '/tmp/x')
    assert.equal(decoration('AT_FDCWD</w d>'), '/w d')
    assert.equal(decoration('3'), null)
    assert.deepEqual(stringArray('["a", "b c"]'), { items: ['a', 'b c'], cut: false })
    assert.deepEqual(stringArray('["a", "b"...]'), { items: ['a', 'b'], cut: true })
    assert.deepEqual(stringArray('["a", ...]'), { items: ['a'], cut: true })
  })
})
