import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { escapeUnprintable, quote } from '../../src/core/go/strconv/quote.js'
import {
  inCi,
  liveTerminal,
  TerminalStream,
  terminalBytes,
  terminalLine,
  terminalLineText,
  terminalText,
} from '../../src/ui/terminal.js'

describe('escapeUnprintable: %q’s escapes, in place', () => {
  test('escape sequences are shown, not obeyed', () => {
    assert.equal(escapeUnprintable('\x1b]52;c;aGk=\x07'), '\\x1b]52;c;aGk=\\a')
    assert.equal(escapeUnprintable('\x1b]0;title\x1b\\'), '\\x1b]0;title\\x1b\\')
    assert.equal(escapeUnprintable('a\x1b[2Jb\r\x00\x7f'), 'a\\x1b[2Jb\\r\\x00\\x7f')
    // C1 CSI (U+009B) as UTF-8, and as a lone byte (invalid UTF-8).
    assert.equal(escapeUnprintable('\xc2\x9b2J'), '\\u009b2J')
    assert.equal(escapeUnprintable('\x9b2J'), '\\x9b2J')
    // Bidi overrides are not printable either.
    assert.equal(escapeUnprintable('\xe2\x80\xaeabc'), '\\u202eabc')
  })
  test('newlines, tabs, backslashes and printable UTF-8 are kept as they are', () => {
    const s = 'line 1\n\tline 2 \\ "q" caf\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac \xf0\x9f\x98\x80'
    assert.equal(escapeUnprintable(s), s)
  })
  test('agrees with strconv.Quote (checked against Go) on random bytes', () => {
    let seed = 42
    const rand = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff
      return seed
    }
    for (let n = 0; n < 3000; n++) {
      let s = ''
      const len = rand() % 12
      for (let i = 0; i < len; i++) {
        const b = rand() % 256
        // What Quote escapes and escapeUnprintable keeps: quote, backslash, newline, tab.
        if (b === 0x22 || b === 0x5c || b === 0x0a || b === 0x09) continue
        s += String.fromCharCode(b)
      }
      assert.equal(`"${escapeUnprintable(s)}"`, quote(s), JSON.stringify(s))
    }
  })
})

describe('terminal output', () => {
  test('unchanged unless on a terminal', () => {
    assert.equal(terminalBytes('\x1b[2J', false), '\x1b[2J')
    assert.equal(terminalBytes('\x1b[2J', true), '\\x1b[2J')
    assert.equal(terminalText('é\u001b]0;x\u0007', false), 'é\u001b]0;x\u0007')
    assert.equal(terminalText('é\u001b]0;x\u0007', true), 'é\\x1b]0;x\\a')
  })
  test('a value inside a line: its newline shown as \\n too (no line of its own); tab kept', () => {
    assert.equal(terminalBytes('a\nb', true), 'a\nb')
    assert.equal(
      terminalLine('x\nskill loader: registered\x1b[2J\r\t', true),
      'x\\nskill loader: registered\\x1b[2J\\r\t',
    )
    assert.equal(terminalLine('x\n\x1b', false), 'x\n\x1b')
    assert.equal(terminalLineText('c\n  ✓ forged\u009b', true), 'c\\n  ✓ forged\\u009b')
    assert.equal(terminalLineText('c\n', false), 'c\n')
  })
  test('a stream keeps a UTF-8 sequence cut between chunks whole', () => {
    const s = new TerminalStream(true)
    const euro = Buffer.from('€', 'utf8')
    const out = Buffer.concat([
      s.push(Buffer.concat([Buffer.from('a'), euro.subarray(0, 1)])),
      s.push(Buffer.concat([euro.subarray(1), Buffer.from('\x1b')])),
      s.push(Buffer.from([0xe2])),
      s.end(),
    ])
    assert.equal(out.toString('latin1'), Buffer.from('a€\\x1b\\xe2', 'utf8').toString('latin1'))
    const piped = new TerminalStream(false)
    assert.deepEqual(piped.push(Buffer.from([0x1b, 0xe2])), Buffer.from([0x1b, 0xe2]))
  })
})

describe('inCi: the rule ink applies', () => {
  test('CI or CONTINUOUS_INTEGRATION set, empty included, unless 0 or false', () => {
    assert.equal(inCi({}), false)
    assert.equal(inCi({ CI: 'true' }), true)
    assert.equal(inCi({ CI: '' }), true)
    assert.equal(inCi({ CI: '1' }), true)
    assert.equal(inCi({ CI: '0' }), false)
    assert.equal(inCi({ CI: 'false' }), false)
    assert.equal(inCi({ CONTINUOUS_INTEGRATION: 'yes' }), true)
    assert.equal(inCi({ CI: 'false', CONTINUOUS_INTEGRATION: '1' }), true)
  })
})

describe('liveTerminal: where an ink view is drawn', () => {
  const out = (isTTY: boolean, columns?: number) => ({ isTTY, columns }) as unknown as NodeJS.WriteStream
  test('a terminal that knows its width, outside CI', () => {
    assert.equal(liveTerminal(out(true, 80), {}), true)
    assert.equal(liveTerminal(out(false, 80), {}), false)
    assert.equal(liveTerminal(out(true, 80), { CI: 'true' }), false)
  })
  test('not a terminal 0 columns wide (a pty nobody sized), nor one that says nothing', () => {
    assert.equal(liveTerminal(out(true, 0), {}), false)
    assert.equal(liveTerminal(out(true), {}), false)
  })
})
