import assert from 'node:assert/strict'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { SH } from '../fixtures/run/helpers.js'
import { type CliResult, runCli, runOnTty } from '../helpers/cli.js'
import { makeTree, tempRoot } from '../helpers/tree.js'

// What reaches a terminal: values from packs, archives, case files and rows, shown escaped as %q
// would (a newline inside a line included, so no value prints a line of its own); piped output
// stays byte-exact.

let R = ''
let cleanup = () => {}
before(() => {
  ;({ root: R, cleanup } = tempRoot('ongrid-term-'))
})
after(() => cleanup())

let n = 0

/** On a pseudo-terminal: what it shows (stdout and stderr together), CRLF as LF. */
const onTty = (args: string[], env: Record<string, string> = {}) => runOnTty(args, R, env)

function piped(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return runCli(args, { env: { CI: '1', ...env }, cwd: R, timeoutMs: 20_000, encoding: 'latin1' })
}

/** Text as the latin1 decoding of its UTF-8 (how the terminal's bytes are read here). */
const bytes = (s: string) => Buffer.from(s, 'utf8').toString('latin1')

/** No line the terminal shows starts with `forged` (indented or not), and no ESC reached it. */
function noForgery(shown: string, forged: string) {
  assert.ok(!shown.includes('\x1b'), JSON.stringify(shown))
  const f = bytes(forged)
  assert.ok(!shown.split('\n').some((l) => l.trimStart().startsWith(f)), JSON.stringify(shown))
}

const FORGED_REG = 'skill loader: registered subprocess skill "trusted"'
const TITLE = '\x1b]0;pwned\x07'

describe('a newline in a value never starts a line on a terminal', () => {
  test('load-dirs: a dir name holding a newline and a forged registration', async () => {
    const root = join(R, `ld${++n}`)
    makeTree(root, { [`x${TITLE}\n${FORGED_REG}/skill.json`]: '{' })
    const tty = await onTty(['load-dirs', root])
    noForgery(tty.stdout, FORGED_REG)
    assert.ok(tty.stdout.includes(`x\\x1b]0;pwned\\a\\n${FORGED_REG}/skill.json`), tty.stdout)
    const raw = await piped(['load-dirs', root])
    assert.ok(raw.stdout.includes(`x${TITLE}\n${FORGED_REG}/skill.json`), JSON.stringify(raw.stdout))
  })

  test('mcp: the loader lines on stderr', async () => {
    const root = join(R, `mcp${++n}`)
    makeTree(root, { [`x${TITLE}\n${FORGED_REG}/skill.json`]: '{' })
    const tty = await onTty(['mcp', root])
    assert.equal(tty.code, 0, tty.stdout)
    noForgery(tty.stdout, FORGED_REG)
    assert.ok(tty.stdout.includes(`x\\x1b]0;pwned\\a\\n${FORGED_REG}/skill.json`), tty.stdout)
  })

  test('test (spec and tap): a case name holding a newline and a forged ✓', async () => {
    const dir = join(R, `t${++n}`)
    makeTree(dir, {
      'skill.json': JSON.stringify({ name: `t${n}`, description: 'A test skill.', entry: 'run.sh' }),
      'run.sh': { exec: `${SH}cat >/dev/null\necho '{"ok":true}'\n` },
      'tests/cases.json': JSON.stringify([{ name: 'c\n  ✓ forged', expect: { ok: false } }]),
    })
    const spec = await onTty(['test', dir])
    assert.equal(spec.code, 1, spec.stdout)
    noForgery(spec.stdout, '✓ forged')
    assert.ok(spec.stdout.includes(bytes('c\\n  ✓ forged')), spec.stdout)
    const tap = await onTty(['test', dir, '--format', 'tap'])
    noForgery(tap.stdout, '✓ forged')
  })

  test('test: the path of a dir with no cases', async () => {
    const dir = join(R, `none${++n}${TITLE}\nforged`)
    makeTree(dir, {
      'skill.json': JSON.stringify({ name: `none${n}`, description: 'A test skill.', entry: 'run.sh' }),
      'run.sh': { exec: `${SH}cat >/dev/null\necho '{}'\n` },
    })
    const tty = await onTty(['test', dir, '--pass-with-no-tests'])
    assert.equal(tty.code, 0, tty.stdout)
    noForgery(tty.stdout, 'forged')
    assert.match(tty.stdout, /^no test cases found under .*none\d+\\x1b\]0;pwned\\a\\nforged\n$/)
  })

  test('audit tail: a skill_key holding a newline and a forged row', async () => {
    const store = join(R, `rows${++n}.db`)
    const dir = join(R, `a${n}`)
    makeTree(dir, {
      'skill.json': JSON.stringify({ name: `a${n}`, description: 'A test skill.', entry: 'run.sh' }),
      'run.sh': { exec: `${SH}cat >/dev/null\necho '{"ok":true}'\n` },
    })
    assert.equal((await piped(['run', dir, '--audit-db', store])).code, 0)
    const { Database } = await import('../../src/core/audit/sqlite.js')
    const db = new Database(store)
    db.prepare('UPDATE skill_executions SET skill_key = ?').run(`k\x1b[2J\n2026-01-01 00:00:00.000  forged`)
    db.close()
    const tty = await onTty(['audit', 'tail', '--db', `sqlite:${store}`, '-n', '1'])
    assert.equal(tty.code, 0, tty.stdout)
    noForgery(tty.stdout, '2026-01-01 00:00:00.000  forged')
    assert.ok(tty.stdout.includes('k\\x1b[2J\\n2026-01-01'), tty.stdout)
    const raw = await piped(['audit', 'tail', '--db', `sqlite:${store}`, '-n', '1'])
    assert.ok(raw.stdout.includes('k\x1b[2J\n2026-01-01 00:00:00.000  forged'), JSON.stringify(raw.stdout))
  })

  test('run: a note quoting the pack’s schema', async () => {
    const dir = join(R, `s${++n}`)
    makeTree(dir, {
      'skill.json': JSON.stringify({
        name: `s${n}`,
        description: 'A test skill.',
        entry: 'run.sh',
        schema: { type: 'object', properties: { a: { $ref: `x${TITLE}\nforged` } } },
      }),
      'run.sh': { exec: `${SH}cat >/dev/null\necho '{}'\n` },
    })
    const tty = await onTty(['run', dir, '--no-audit', '--arg', 'a=1'])
    assert.equal(tty.code, 0, tty.stdout)
    noForgery(tty.stdout, 'forged')
    assert.ok(tty.stdout.includes('reference x\\x1b]0;pwned\\a\\nforged from id'), tty.stdout)
    const raw = await piped(['run', dir, '--no-audit', '--arg', 'a=1'])
    assert.ok(raw.stderr.includes(`reference x${TITLE}\nforged from id`), JSON.stringify(raw.stderr))
  })

  test('error lines: the loader’s (run) and ours, a path holding escapes and a newline', async () => {
    const missing = join(R, `missing${TITLE}\nforged`)
    // A pack the loader rejects: its line, the path in it escaped.
    const broken = join(R, `broken${TITLE}\nforged`)
    makeTree(broken, { 'skill.json': '{' })
    const run = await onTty(['run', join(broken, 'skill.json')])
    assert.equal(run.code, 2, run.stdout)
    noForgery(run.stdout, 'forged')
    assert.match(run.stdout, /^error: skill loader: parse .*broken\\x1b\]0;pwned\\a\\nforged/)
    // A PATH that is not there: ours, one line.
    const none = await onTty(['run', join(missing, 'skill.json')])
    assert.equal(none.code, 2, none.stdout)
    noForgery(none.stdout, 'forged')
    assert.match(
      none.stdout,
      /^ongrid-skill: .*missing\\x1b\]0;pwned\\a; forged\/skill\.json: no such pack dir or skill\.json\n/,
    )
    const ours = await onTty(['marketplace', 'sign', missing, '--key', join(R, 'none.pem')])
    assert.equal(ours.code, 2, ours.stdout)
    noForgery(ours.stdout, 'forged')
    assert.match(ours.stdout, /^ongrid-skill: .*missing\\x1b\]0;pwned\\a; forged: no such directory\n$/)
  })
})

describe('marketplace on a terminal: names from the pack escaped', () => {
  const key = () => join(R, 'k.pem')
  before(async () => {
    assert.equal((await piped(['marketplace', 'keygen', '--out', key()])).code, 0)
  })
  const pack = (extra: Record<string, string>) => {
    const dir = join(R, `mp${++n}`)
    makeTree(dir, {
      '.claude-plugin/plugin.json': '{"id":"demo","version":"1.0.0"}',
      'skills/hello/SKILL.md': '---\nname: hello\ndescription: Says hello.\n---\nHi\n',
      ...extra,
    })
    return dir
  }

  test('check: stylish (summary and findings) and github', async () => {
    const dir = pack({ [`skills/h${TITLE}\nforged/SKILL.md`]: '---\nname: [\n---\n' })
    const stylish = await onTty(['marketplace', 'check', dir])
    noForgery(stylish.stdout, 'forged')
    assert.ok(stylish.stdout.includes('h\\x1b]0;pwned\\a\\nforged'), stylish.stdout)
    const github = await onTty(['marketplace', 'check', dir, '--format', 'github'])
    noForgery(github.stdout, 'forged')
    assert.ok(github.stdout.includes('h\\x1b]0;pwned\\a%0Aforged'), github.stdout)
    const raw = await piped(['marketplace', 'check', dir, '--format', 'github'])
    assert.ok(raw.stdout.includes(`h${TITLE}%0Aforged`), JSON.stringify(raw.stdout))
  })

  test('sign: the files not covered', async () => {
    const dir = pack({ [`skills/hello/x${TITLE}\nforged.sh`]: 'echo\n' })
    const tty = await onTty(['marketplace', 'sign', dir, '--key', key()])
    assert.equal(tty.code, 0, tty.stdout)
    noForgery(tty.stdout, 'forged')
    assert.ok(tty.stdout.includes('x\\x1b]0;pwned\\a\\nforged.sh'), tty.stdout)
  })

  test('pack: the files left out', async () => {
    const dir = pack({ [`skills/d${TITLE}\nforged/.DS_Store`]: 'junk' })
    const tty = await onTty(['marketplace', 'pack', dir, '-o', join(R, `o${n}.tgz`)])
    assert.equal(tty.code, 0, tty.stdout)
    noForgery(tty.stdout, 'forged')
    assert.ok(tty.stdout.includes('left out: skills/d\\x1b]0;pwned\\a\\nforged/.DS_Store'), tty.stdout)
  })
})

describe('lint --fix-dry-run on a terminal: the file bytes in the diff escaped', () => {
  test('OSC 52, OSC 0 and ESC[2J in a skill.json are shown, not obeyed; piped, the diff is exact', async () => {
    const root = join(R, `fixdiff${++n}`)
    const osc52 = '\x1b]52;c;cHduZWQ=\x07'
    const clear = '\x1b[2J'
    const text = `\ufeff{"name":"p",\n"description":"d${osc52}${TITLE}${clear}",\n"entry":"run.sh"}\n`
    makeTree(root, { 'p/skill.json': text, 'p/run.sh': { exec: '#!/bin/sh\n' } })
    const tty = await onTty(['lint', join(root, 'p'), '--fix-dry-run'])
    assert.equal(tty.code, 1, tty.stdout)
    assert.ok(!tty.stdout.includes('\x1b'), JSON.stringify(tty.stdout))
    assert.ok(
      tty.stdout.includes(' "description":"d\\x1b]52;c;cHduZWQ=\\a\\x1b]0;pwned\\a\\x1b[2J",'),
      tty.stdout,
    )
    const raw = await piped(['lint', join(root, 'p'), '--fix-dry-run'])
    assert.ok(
      raw.stdout.includes(` "description":"d${osc52}${TITLE}${clear}",\n`),
      JSON.stringify(raw.stdout),
    )
  })
})
