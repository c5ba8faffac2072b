import assert from 'node:assert/strict'
import { getEventListeners } from 'node:events'
import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import {
  buildSubprocessEnv,
  CappedBuffer,
  COLLECT_EVERY,
  type ExecSkill,
  type ExecuteOptions,
  type ExecuteResult,
  execute,
  FLAT_AFTER,
  MAX_STDERR,
  MAX_STDERR_TAIL,
  MAX_STDOUT,
  tailString,
  WAIT_DELAY_MS,
} from '../../../src/core/executor/executor.js'
import type { GoString } from '../../../src/core/go/gostring.js'
import { MILLISECOND, SECOND } from '../../../src/core/go/time/duration.js'
import {
  aliveInGroup,
  aliveWithMarker,
  killAll,
  marker,
  NODE,
  SH,
  script,
  settle,
} from '../../fixtures/run/helpers.js'
import { tempRoot } from '../../helpers/tree.js'

// Expectations come from the manager's internal/skill/subprocess.go and Go's os/exec (Go 1.25:
// Cmd.Cancel kills the process group, Cmd.WaitDelay = 1s), checked where possible against a Go
// program running the same entries (fork/exec texts, ExitCode() on signals, tailString cuts).

let R = ''
let cleanup = () => {}
before(() => {
  ;({ root: R, cleanup } = tempRoot('ongrid-exec-'))
})
after(() => cleanup())

let n = 0
/** A fresh dir per test, so entries never collide. */
function dir(): string {
  const d = join(R, `t${++n}`)
  mkdirSync(d)
  return d
}

function skill(entry: string, over: Partial<ExecSkill> = {}): ExecSkill {
  return { key: 'k', entry, envAllow: null, timeoutNs: 5n * SECOND, ...over }
}

async function run(
  entry: string,
  params: GoString | null = '',
  over: Partial<ExecSkill> = {},
  opts: Partial<ExecuteOptions> = {},
): Promise<ExecuteResult & { pid?: number }> {
  let pid: number | undefined
  const r = await execute(skill(entry, over), params, {
    environ: {},
    ...opts,
    onStart: (p) => {
      pid = p
      opts.onStart?.(p)
    },
  })
  return { ...r, pid }
}

/** For entries that run long on a loaded machine (10,000 shell lines, 16 MiB of output): no 5 s deadline. */
const SLOW_OK: Partial<ExecSkill> = { timeoutNs: 300n * SECOND }

const bytes = (b: number[]) => Buffer.from(b)
const latin1 = (b: Buffer) => b.toString('latin1')

describe('tailString', () => {
  test('nothing, or n <= 0, is empty', () => {
    assert.equal(tailString(Buffer.alloc(0), 10), '')
    assert.equal(tailString(Buffer.from('abc'), 0), '')
    assert.equal(tailString(Buffer.from('abc'), -1), '')
  })
  test('up to n bytes: all of it, TrimSpace’d, no prefix', () => {
    assert.equal(tailString(Buffer.from('  ab \n'), 10), 'ab')
    assert.equal(tailString(Buffer.from('abc'), 3), 'abc')
    assert.equal(tailString(Buffer.from(' \t\n'), 3), '')
  })
  test('longer: ... + TrimSpace(last n bytes)', () => {
    assert.equal(tailString(Buffer.from('abcdef'), 3), '...def')
    assert.equal(tailString(Buffer.from('abc de\n'), 4), '...de')
    assert.equal(tailString(Buffer.from('x       '), 3), '...')
  })
  test('bytes are cut, not runes: a cut may split a UTF-8 sequence', () => {
    // Go: tailString([]byte("ééé"), 5) == "...\xa9éé"
    assert.equal(
      tailString(Buffer.from('ééé'), 5),
      latin1(Buffer.concat([Buffer.from('...\xa9', 'latin1'), Buffer.from('éé')])),
    )
    assert.equal(
      tailString(Buffer.from('ééé'), 3),
      latin1(Buffer.concat([Buffer.from('...\xa9', 'latin1'), Buffer.from('é')])),
    )
    // A lone continuation byte of a cut NBSP (C2 A0) is not white space: it stays.
    assert.equal(tailString(bytes([0xc2, 0xa0, 0x61, 0x62, 0x20, 0x20]), 5), '...\xa0ab')
    // Whole Unicode spaces are trimmed (NBSP, NEL).
    assert.equal(tailString(bytes([0x20, 0x20, 0xc2, 0xa0]), 3), '...')
    assert.equal(tailString(bytes([0x0a, 0x0a, 0xc2, 0x85]), 10), '')
  })
})

// The capture's memory is the point of CappedBuffer (16 MiB of stdout held once, not twice;
// dropped output off-heap until a collection): its representation is what these tests pin.
describe('CappedBuffer: what a capture holds in memory', () => {
  const MiB = 1024 * 1024
  test('up to 1 MiB: the chunks as they came; past it, one flat buffer of the cap, the chunks let go', () => {
    assert.equal(FLAT_AFTER, MiB)
    const max = 2 * MiB + 5
    const c = new CappedBuffer(max)
    assert.deepEqual(c.stats(), { size: 0, chunks: 0, flat: null, dropped: 0 })
    c.push(Buffer.alloc(MiB / 2, 'a'))
    c.push(Buffer.alloc(MiB / 2, 'b'))
    // Exactly 1 MiB is still chunks.
    assert.deepEqual(c.stats(), { size: MiB, chunks: 2, flat: null, dropped: 0 })
    assert.equal(c.bytes().toString(), `${'a'.repeat(MiB / 2)}${'b'.repeat(MiB / 2)}`)
    // One byte more: everything moves into one buffer of the cap, in order.
    c.push(Buffer.from('c'))
    assert.deepEqual(c.stats(), { size: MiB + 1, chunks: 0, flat: max, dropped: 0 })
    c.push(Buffer.alloc(MiB, 'd'))
    // Cut at the cap: the head of the chunk is kept; its rest is not counted as dropped.
    c.push(Buffer.from('0123456789'))
    assert.deepEqual(c.stats(), { size: max, chunks: 0, flat: max, dropped: 0 })
    const b = c.bytes()
    assert.equal(b.length, max)
    assert.equal(b.toString(), `${'a'.repeat(MiB / 2)}${'b'.repeat(MiB / 2)}c${'d'.repeat(MiB)}0123`)
  })
  test('a capture capped at 1 MiB or less (stderr: 16 KiB) stays chunks', () => {
    for (const max of [MAX_STDERR, MiB]) {
      const c = new CappedBuffer(max)
      c.push(Buffer.alloc(max - 1, 'x'))
      c.push(Buffer.alloc(4096, 'y'))
      c.push(Buffer.alloc(4096, 'z'))
      assert.deepEqual(c.stats(), { size: max, chunks: 2, flat: null, dropped: 4096 })
      assert.equal(c.bytes().toString(), `${'x'.repeat(max - 1)}y`)
    }
  })
  test('a big first chunk goes flat at once', () => {
    const c = new CappedBuffer(3 * MiB)
    c.push(Buffer.alloc(MiB + 1, 'x'))
    assert.deepEqual(c.stats(), { size: MiB + 1, chunks: 0, flat: 3 * MiB, dropped: 0 })
    assert.equal(c.bytes().toString(), 'x'.repeat(MiB + 1))
  })
  test('dropped bytes: collectGarbage at exactly every 16 MiB of them, the count starting over', () => {
    assert.equal(COLLECT_EVERY, 16 * MiB)
    let calls = 0
    const c = new CappedBuffer(1, () => calls++)
    c.push(Buffer.from('{'))
    const four = Buffer.alloc(4 * MiB)
    for (let i = 0; i < 3; i++) c.push(four)
    assert.deepEqual([calls, c.stats().dropped], [0, 12 * MiB])
    c.push(Buffer.alloc(4 * MiB - 1))
    assert.deepEqual([calls, c.stats().dropped], [0, 16 * MiB - 1])
    c.push(Buffer.from('x'))
    assert.deepEqual([calls, c.stats().dropped], [1, 0])
    for (let i = 0; i < 4; i++) c.push(four)
    assert.deepEqual([calls, c.stats().dropped], [2, 0])
    c.push(four)
    assert.deepEqual([calls, c.stats().dropped], [2, 4 * MiB])
    assert.equal(c.bytes().toString(), '{')
    // No hook: the count still starts over, and nothing is called.
    const quiet = new CappedBuffer(0)
    for (let i = 0; i < 5; i++) quiet.push(four)
    assert.deepEqual(quiet.stats(), { size: 0, chunks: 0, flat: null, dropped: 4 * MiB })
  })
})

describe('buildSubprocessEnv', () => {
  const environ = { A: '1', B: 'two', EMPTY: '', PATH: '/usr/bin:/bin', OTHER: 'x' }
  test('only allowed names that exist; empty values count; names TrimSpace’d; no PATH unless listed', () => {
    const env = buildSubprocessEnv([' A ', 'B\t', 'EMPTY', 'MISSING', '', '   '], environ)
    assert.deepEqual({ ...env }, { A: '1', B: 'two', EMPTY: '' })
    assert.deepEqual({ ...buildSubprocessEnv(['PATH'], environ) }, { PATH: '/usr/bin:/bin' })
  })
  test('no names: an empty environment, never the inherited one', () => {
    assert.deepEqual({ ...buildSubprocessEnv(null, environ) }, {})
    assert.deepEqual({ ...buildSubprocessEnv([], process.env) }, {})
  })
  test('names Go never finds: with = or NUL, or inherited object properties', () => {
    // os.LookupEnv matches whole names; getenv(3) would answer "A=B" from "A=B=C" and cut at NUL.
    const env = buildSubprocessEnv(['A=B', 'A\0X', 'constructor', 'toString', '__proto__'], {
      'A=B': 'C',
      A: '1',
    })
    assert.deepEqual(Object.keys(env), [])
    const pe = buildSubprocessEnv(['HOME\0X', 'constructor', 'hasOwnProperty'], process.env)
    assert.deepEqual(Object.keys(pe), [])
  })
  test('an empty name, an inherited property and a value that is not a string are never passed', () => {
    // os.LookupEnv("") finds nothing, whatever the environment holds.
    assert.deepEqual(Object.keys(buildSubprocessEnv(['', '  '], { '': 'x' })), [])
    assert.deepEqual(Object.keys(buildSubprocessEnv(['INHERITED'], Object.create({ INHERITED: 'x' }))), [])
    assert.deepEqual(Object.keys(buildSubprocessEnv(['UNSET'], { UNSET: undefined })), [])
  })
  test('a variable really named __proto__ or constructor (from an env file) is passed', () => {
    const environ2: Record<string, string> = Object.create(null)
    for (const [k, v] of [
      ['__proto__', 'p'],
      ['constructor', 'c'],
    ])
      environ2[k] = v
    const env = buildSubprocessEnv(['__proto__', 'constructor'], environ2)
    assert.deepEqual(Object.entries(env), [
      ['__proto__', 'p'],
      ['constructor', 'c'],
    ])
  })
  test('names are bytes from the manifest (UTF-8), looked up as text', () => {
    const name = Buffer.from('CAFÉ').toString('latin1')
    assert.deepEqual({ ...buildSubprocessEnv([` ${name} `], { CAFÉ: 'x' }) }, { CAFÉ: 'x' })
  })
})

// Everything that spawns runs at once (the slow cases are waits, not work).
describe('execute', { concurrency: true }, () => {
  describe('execute: entry checks and params, before anything runs', { concurrency: true }, () => {
    test('entry required, and absolute', async () => {
      const none = await run('')
      assert.equal(none.error, 'subprocess skill: entry path required')
      assert.deepEqual([none.ok, none.exitCode, none.timedOut], [false, null, false])
      const rel = await run('rel/run.sh')
      assert.equal(rel.error, 'subprocess skill: entry "rel/run.sh" must be absolute')
      assert.equal(rel.ok, false)
    })
    test('stat failure wraps the os error (%w of *PathError)', async () => {
      const p = join(dir(), 'gone.sh')
      const r = await run(p)
      assert.equal(r.error, `subprocess skill: stat ${p}: stat ${p}: no such file or directory`)
      assert.equal(r.exitCode, null)
      assert.equal(r.timedOut, false)
      const through = join(script(dir(), 'file', 'x', 0o644), 'sub')
      assert.equal(
        (await run(through)).error,
        `subprocess skill: stat ${through}: stat ${through}: not a directory`,
      )
    })
    test('a directory', async () => {
      const d = dir()
      assert.equal((await run(d)).error, `subprocess skill: entry ${d} is a directory`)
    })
    test('the duration of a failure before anything runs is of the call itself', async () => {
      const t0 = process.hrtime.bigint()
      const r = await run(dir())
      const took = Number(process.hrtime.bigint() - t0) / 1e6
      assert.equal(r.ok, false)
      assert.ok(r.durationMs >= 0 && r.durationMs <= took, `${r.durationMs} of ${took}`)
    })
    test('no execute bit (root included: the check is on the mode bits)', async () => {
      const p = script(dir(), 'run.sh', `${SH}echo '{}'\n`, 0o644)
      assert.equal((await run(p)).error, `subprocess skill: entry ${p} not executable`)
      const q = script(dir(), 'run.sh', `${SH}echo '{}'\n`, 0o600)
      assert.equal((await run(q)).error, `subprocess skill: entry ${q} not executable`)
    })
    test('any one execute bit passes the check', async () => {
      const p = script(dir(), 'run.sh', `${SH}echo '[]'\n`, process.getuid?.() === 0 ? 0o010 : 0o700)
      const r = await run(p)
      assert.equal(r.error, null)
      assert.equal(r.stdout.toString(), '[]\n')
    })
    test('entry checks come before params: a directory with invalid params', async () => {
      const d = dir()
      assert.equal((await run(d, '{')).error, `subprocess skill: entry ${d} is a directory`)
    })
    test('invalid params: the manager’s text, and the entry never runs', async () => {
      const d = dir()
      const ran = join(d, 'ran')
      const p = script(d, 'run.sh', `${SH}: > ${ran}\necho '{}'\n`)
      for (const params of ['{', '{"a":1,}', '{} {}', 'nul', "{'a':1}", '\x00']) {
        const r = await run(p, params)
        assert.equal(r.error, 'subprocess skill: invalid params JSON', JSON.stringify(params))
        assert.equal(r.exitCode, null)
      }
      assert.equal(existsSync(ran), false)
    })
  })

  describe('execute: stdin and stdout', { concurrency: true }, () => {
    let cat = ''
    before(() => {
      cat = script(dir(), 'cat.sh', `${SH}exec /bin/cat\n`)
    })
    test('empty or white-space params send {} (bytes.TrimSpace, Unicode spaces too)', async () => {
      for (const params of [null, '', ' \n\t\r\v\f', '\xc2\xa0\xc2\x85 ']) {
        const r = await run(cat, params)
        assert.equal(r.error, null)
        assert.equal(r.stdout.toString(), '{}')
        assert.equal(r.params, '{}')
      }
    })
    test('valid params are sent verbatim, white space and all', async () => {
      for (const params of [
        '{ "a" : [1, 2] }\n',
        '  {"x":"y"}  ',
        '[1,2]',
        '"x"',
        'null',
        '42',
        '{"s":"\xff\xfe"}',
      ]) {
        const r = await run(cat, params)
        assert.equal(r.error, null, JSON.stringify(params))
        assert.equal(latin1(r.stdout), params)
      }
    })
    test('the entry runs with no arguments', async () => {
      const p = script(dir(), 'run.sh', `${SH}printf '{"argc":%s}' "$#"\n`)
      const r = await run(p)
      assert.equal(r.stdout.toString(), '{"argc":0}')
      assert.equal(r.ok, true)
    })
    test('stdout on success is returned verbatim: any JSON value, trailing newlines kept', async () => {
      const d = dir()
      const cases: [string, string][] = [
        ['{"a":1}\n\n', '{"a":1}\\n\\n'],
        ['[1,2]', '[1,2]'],
        ['"x"', '"x"'],
        ['null', 'null'],
        ['  42  \n', '  42  \\n'],
        ['{"é":"\\u00e9"}\r\n', '{"é":"\\\\u00e9"}\\r\\n'],
      ]
      for (const [i, [want, printf]] of cases.entries()) {
        const p = script(d, `out${i}.sh`, `${SH}printf '%b' '${printf}'\n`)
        const r = await run(p)
        assert.equal(r.error, null, want)
        assert.equal(r.ok, true)
        assert.equal(r.stdout.toString(), want)
        assert.equal(r.exitCode, 0)
      }
    })
    test('empty stdout is not valid JSON', async () => {
      const p = script(dir(), 'run.sh', `${SH}exit 0\n`)
      const r = await run(p)
      assert.equal(r.error, 'subprocess skill k: stdout is not valid JSON (first 200B: )')
      assert.deepEqual([r.ok, r.exitCode], [false, 0])
    })
    test('non-JSON stdout: TrimSpace’d, and over 200 bytes the LAST 200 with ...', async () => {
      const d = dir()
      const short = script(d, 'short.sh', `${SH}echo '  hello world  '\n`)
      assert.equal(
        (await run(short)).error,
        'subprocess skill k: stdout is not valid JSON (first 200B: hello world)',
      )
      // 301 bytes: "0123456789" × 30, then "\n"; the last 200 are bytes 101..300, trimmed of the newline.
      const long = script(
        d,
        'long.sh',
        `${SH}i=0; while [ $i -lt 30 ]; do printf 0123456789; i=$((i+1)); done; echo\n`,
      )
      const r = await run(long)
      assert.equal(
        r.error,
        `subprocess skill k: stdout is not valid JSON (first 200B: ...123456789${'0123456789'.repeat(19)})`,
      )
      assert.equal(r.stdout.length, 301)
      // A JSON object followed by a second value is not valid either.
      const two = script(d, 'two.sh', `${SH}echo '{}'; echo '{}'\n`)
      assert.equal(
        (await run(two)).error,
        'subprocess skill k: stdout is not valid JSON (first 200B: {}\n{})',
      )
    })
    test('stdout is kept up to 16 MiB, the rest dropped silently', async () => {
      // 17 MiB: "[" then ",1,1,…" ("1," repeated over a buffer, its first byte replaced): invalid
      // JSON whichever way it is cut; the tail quoted is the end of the first 16 MiB.
      const p = script(
        dir(),
        'big.js',
        `${NODE}const b = Buffer.alloc(17 * 1024 * 1024, '1,'); b[0] = 0x5b; process.stdout.write(b)\n`,
      )
      const r = await run(p)
      assert.equal(MAX_STDOUT, 16 * 1024 * 1024)
      assert.equal(r.stdout.length, MAX_STDOUT)
      const whole = Buffer.alloc(17 * 1024 * 1024, '1,')
      whole[0] = 0x5b
      const lastKept = whole.subarray(MAX_STDOUT - 200, MAX_STDOUT).toString('latin1')
      assert.equal(lastKept, '1,'.repeat(100))
      assert.equal(r.error, `subprocess skill k: stdout is not valid JSON (first 200B: ...${lastKept})`)
    })
    test('output dropped past the cap: collectGarbage after every 16 MiB of it, and nothing else process-wide', async () => {
      // 16 MiB kept, then 33 MiB dropped: two calls.
      const p = script(
        dir(),
        'flood.js',
        `${NODE}process.stdout.write(Buffer.alloc(49 * 1024 * 1024, 'x'))\n`,
      )
      let calls = 0
      const r = await run(p, '', SLOW_OK, { collectGarbage: () => calls++ })
      assert.equal(r.stdout.length, MAX_STDOUT)
      assert.equal(calls, 2)
      // Without the hook the executor forces nothing (the CLI passes cli/gc.ts's).
      const again = await run(p, '', SLOW_OK)
      assert.equal(again.stdout.length, MAX_STDOUT)
      assert.equal((globalThis as { gc?: unknown }).gc, undefined)
    })
    test('exactly 16 MiB of JSON passes; one byte more is cut (here: the newline, so it still parses)', async () => {
      const d = dir()
      const body = `const b = Buffer.alloc(16 * 1024 * 1024, 'a'); b[0] = 0x22; b[b.length - 1] = 0x22; process.stdout.write(b)`
      const exact = script(d, 'exact.js', `${NODE}${body}\n`)
      const plus = script(d, 'plus.js', `${NODE}${body}; process.stdout.write('\\n')\n`)
      // Writing 16 MiB through a pipe takes a while on a loaded machine: the timeout is not the point.
      const [a, b] = await Promise.all([run(exact, '', SLOW_OK), run(plus, '', SLOW_OK)])
      assert.equal(a.error, null)
      assert.equal(a.stdout.length, MAX_STDOUT)
      assert.equal(b.error, null)
      assert.equal(b.stdout.length, MAX_STDOUT)
      assert.equal(b.stdout[b.stdout.length - 1], 0x22)
    })
  })

  describe('execute: exits, stderr, signals, start failures', { concurrency: true }, () => {
    test('non-zero exit: the TrimSpace’d stderr', async () => {
      const p = script(dir(), 'run.sh', `${SH}echo '{"partial":1}'; printf '  boom \\n\\n' >&2; exit 7\n`)
      const r = await run(p)
      assert.equal(r.error, 'subprocess skill k: exit 7 (stderr: boom)')
      assert.equal(r.exitCode, 7)
      assert.equal(r.ok, false)
      assert.equal(r.stdout.toString(), '{"partial":1}\n')
    })
    test('exit with stderr over 4 KiB: ... + the last 4096 bytes', async () => {
      // 500 lines "line 0000\n" .. "line 0499\n" = 5000 bytes; the last 4096 start at byte 904,
      // the space in "line 0090".
      const p = script(
        dir(),
        'run.sh',
        `${SH}i=0; while [ $i -lt 500 ]; do printf 'line %04d\\n' $i >&2; i=$((i+1)); done; exit 3\n`,
      )
      const r = await run(p)
      const lines = Array.from({ length: 410 }, (_, i) => `line ${String(i + 90).padStart(4, '0')}`)
      const want = `0090\n${lines.slice(1).join('\n')}`
      assert.equal(MAX_STDERR_TAIL, 4096)
      assert.equal(r.error, `subprocess skill k: exit 3 (stderr: ...${want})`)
      assert.equal(r.stderr.length, 5000)
    })
    test('stderr is kept up to 16 KiB while more is written; the tail quoted is of what was kept', async () => {
      // 10000 lines of 11 bytes = 110000 bytes. Kept: the first 16384, which end inside line 1489
      // ("line "); the last 4096 kept bytes start at 12288, inside line 1117 ("ine 01117").
      let seen = 0
      const p = script(
        dir(),
        'run.sh',
        `${SH}i=0; while [ $i -lt 10000 ]; do printf 'line %05d\\n' $i >&2; i=$((i+1)); done; exit 1\n`,
      )
      const r = await run(p, '', SLOW_OK, { onStderr: (c) => (seen += c.length) })
      assert.equal(MAX_STDERR, 16 * 1024)
      assert.equal(r.stderr.length, MAX_STDERR)
      assert.equal(seen, 110000)
      const lines = Array.from(
        { length: 1488 - 1118 + 1 },
        (_, i) => `line ${String(i + 1118).padStart(5, '0')}`,
      )
      assert.equal(r.error, `subprocess skill k: exit 1 (stderr: ...ine 01117\n${lines.join('\n')}\nline)`)
    })
    test('stderr on success is kept but not part of the result', async () => {
      const p = script(dir(), 'run.sh', `${SH}echo warn >&2; echo '{}'\n`)
      const r = await run(p)
      assert.equal(r.error, null)
      assert.equal(r.stderr.toString(), 'warn\n')
    })
    test('a process that closes its pipes and runs on is waited for: its exit counts', async () => {
      // Go's Wait waits for the process, not only for its output.
      const p = script(dir(), 'run.sh', `${SH}echo '{"a":1}'\nexec >&- 2>&- <&-\n/bin/sleep 0.5\nexit 3\n`)
      const r = await run(p)
      assert.equal(r.error, 'subprocess skill k: exit 3 (stderr: )')
      assert.equal(r.exitCode, 3)
      assert.equal(r.stdout.toString(), '{"a":1}\n')
      const ok = script(dir(), 'ok.sh', `${SH}echo '{"a":1}'\nexec >&- 2>&- <&-\n/bin/sleep 0.5\n`)
      const o = await run(ok)
      assert.deepEqual([o.ok, o.error, o.exitCode], [true, null, 0])
    })
    test('death by a signal is exit -1 (ExitError.ExitCode())', async () => {
      const d = dir()
      for (const sig of ['KILL', 'TERM', 'USR1']) {
        const p = script(d, `${sig}.sh`, `${SH}echo dying >&2; kill -${sig} $$\nsleep 5\n`)
        const r = await run(p)
        assert.equal(r.error, 'subprocess skill k: exit -1 (stderr: dying)', sig)
        assert.equal(r.exitCode, -1)
        assert.equal(r.timedOut, false)
      }
    })
    test('no #! line: exec format error, not a /bin/sh fallback', async () => {
      const d = dir()
      const ran = join(d, 'ran')
      for (const [name, content] of [
        ['plain', `: > ${ran}\necho '{}'\n`],
        ['empty', ''],
        ['bang-only', `#!\n: > ${ran}\n`],
        ['bang-blanks', '#!  \t \n'],
        ['truncated', `#!/bin/${'s'.repeat(300)}`],
        ['bad-elf', '\x7fELF'],
      ]) {
        const p = script(d, name, content)
        const r = await run(p)
        assert.equal(r.error, `subprocess skill k: start: fork/exec ${p}: exec format error (stderr: )`, name)
        assert.equal(r.exitCode, null)
        assert.equal(r.pid, undefined)
      }
      assert.equal(existsSync(ran), false)
    })
    test('a missing interpreter: no such file or directory, and never started', async () => {
      const d = dir()
      for (const interp of ['/nonexistent/sh', '/bin/shh', `${d}/nope`]) {
        const p = script(d, `e${interp.length}`, `#!${interp}\necho '{}'\n`)
        const t0 = process.hrtime.bigint()
        const r = await run(p)
        const took = Number(process.hrtime.bigint() - t0) / 1e6
        assert.equal(
          r.error,
          `subprocess skill k: start: fork/exec ${p}: no such file or directory (stderr: )`,
        )
        assert.deepEqual([r.ok, r.exitCode, r.timedOut, r.pid], [false, null, false, undefined])
        assert.ok(r.durationMs >= 0 && r.durationMs <= took, `${r.durationMs} of ${took}`)
      }
    })
    test('an environment too large for execve: argument list too long (Node throws it)', async () => {
      // One string over the kernel's MAX_ARG_STRLEN (128 KiB).
      const d = dir()
      const ran = join(d, 'ran')
      const p = script(d, 'run.sh', `${SH}: > ${ran}\necho '{}'\n`)
      const r = await run(p, '', { envAllow: ['BIG'] }, { environ: { BIG: 'x'.repeat(256 * 1024) } })
      assert.equal(r.error, `subprocess skill k: start: fork/exec ${p}: argument list too long (stderr: )`)
      assert.deepEqual([r.ok, r.exitCode, r.pid], [false, null, undefined])
      assert.equal(existsSync(ran), false)
    })
    test('an interpreter that cannot run: permission denied or exec format error, as execve says', async () => {
      const d = dir()
      const plain = script(d, 'plain', 'echo x\n', 0o644)
      const noBang = script(d, 'nobang', 'echo x\n')
      const cases: [string, string][] = [
        [d, 'permission denied'], // a directory
        [plain, 'permission denied'], // not executable
        [noBang, 'exec format error'], // executable but no #!
      ]
      for (const [i, [interp, text]] of cases.entries()) {
        const p = script(d, `via${i}`, `#!${interp}\n`)
        assert.equal(
          (await run(p)).error,
          `subprocess skill k: start: fork/exec ${p}: ${text} (stderr: )`,
          interp,
        )
      }
    })
    test('#! chains: five scripts deep still run, six are ELOOP (the kernel’s limit)', async () => {
      const d = dir()
      let prev = script(d, 'l1', `${SH}echo '"deep"'\n`)
      const levels = [prev]
      for (let i = 2; i <= 6; i++) {
        prev = script(d, `l${i}`, `#!${prev}\n`)
        levels.push(prev)
      }
      const five = await run(levels[4])
      assert.equal(five.error, null)
      assert.equal(five.stdout.toString(), '"deep"\n')
      assert.equal(
        (await run(levels[5])).error,
        `subprocess skill k: start: fork/exec ${levels[5]}: too many levels of symbolic links (stderr: )`,
      )
    })
    test('#! with blanks and an argument still runs', async () => {
      const d = dir()
      const a = script(d, 'a', '#! /bin/sh -e\necho \'"a"\'\n')
      const b = script(d, 'b', `#!/bin/sh${' '.repeat(300)}\necho '"b"'\n`)
      assert.equal((await run(a)).stdout.toString(), '"a"\n')
      assert.equal((await run(b)).stdout.toString(), '"b"\n')
    })
    test('4 MiB of params to a child that never reads them: EPIPE is ignored', async () => {
      const d = dir()
      const params = `[${'1,'.repeat(2 * 1024 * 1024)}1]`
      const ok = script(d, 'ok.sh', `${SH}echo '{"ignored":true}'\n`)
      const slow = script(d, 'slow.sh', `${SH}/bin/sleep 0.2; echo '{}'\n`)
      const fails = script(d, 'fails.sh', `${SH}echo nope >&2; exit 5\n`)
      const closes = script(d, 'closes.sh', `${SH}exec 0<&-; /bin/sleep 0.1; echo '[]'\n`)
      const [a, b, c, e] = await Promise.all([
        run(ok, params),
        run(slow, params),
        run(fails, params),
        run(closes, params),
      ])
      assert.equal(a.error, null)
      assert.equal(a.stdout.toString(), '{"ignored":true}\n')
      assert.equal(b.error, null)
      assert.equal(c.error, 'subprocess skill k: exit 5 (stderr: nope)')
      assert.equal(e.error, null)
      assert.equal(a.params.length, params.length)
    })
    test('a child that reads all of 4 MiB of params gets them whole', async () => {
      const params = `[${'1,'.repeat(2 * 1024 * 1024)}1]`
      const p = script(dir(), 'wc.sh', `${SH}printf '%s' "$(/usr/bin/wc -c)"\n`)
      const r = await run(p, params)
      assert.equal(r.error, null)
      assert.equal(r.stdout.toString(), String(params.length))
    })
  })

  describe('execute: the environment', { concurrency: true }, () => {
    test('signals start at their defaults: nothing ignored or blocked (Node itself ignores SIGPIPE)', async () => {
      const p = script(dir(), 'sigs.sh', `${SH}/bin/grep -E '^Sig(Ign|Blk)' /proc/self/status >&2; exit 1\n`)
      assert.equal(
        (await run(p)).error,
        'subprocess skill k: exit 1 (stderr: SigBlk:\t0000000000000000\nSigIgn:\t0000000000000000)',
      )
    })
    let dump = ''
    before(() => {
      dump = script(
        dir(),
        'env.js',
        `${NODE}process.stdout.write(JSON.stringify({ env: process.env, cwd: process.cwd() }))\n`,
      )
    })
    const environ = {
      A: '1',
      B: 'two words',
      EMPTY: '',
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      SECRET: 's',
    }
    test('only allowed names present in the environment, empty values included; no PATH', async () => {
      const r = await run(dump, '', { envAllow: [' A', 'B ', 'EMPTY', 'MISSING', ''] }, { environ })
      assert.equal(r.error, null)
      const out = JSON.parse(r.stdout.toString())
      assert.deepEqual(out.env, { A: '1', B: 'two words', EMPTY: '' })
      assert.equal(out.cwd, process.cwd())
    })
    test('PATH only when listed', async () => {
      const r = await run(dump, '', { envAllow: ['PATH'] }, { environ })
      assert.deepEqual(JSON.parse(r.stdout.toString()).env, { PATH: environ.PATH })
    })
    test('no env_allow: an empty environment', async () => {
      const r = await run(dump, '', { envAllow: null }, { environ: process.env })
      assert.deepEqual(JSON.parse(r.stdout.toString()).env, {})
    })
  })

  describe('execute: timeouts and the process group', { concurrency: true }, () => {
    test('sleeping past the timeout: timed out after 1s, exit -1, killed at once', async () => {
      const p = script(dir(), 'run.sh', `${SH}echo started >&2; /bin/sleep 30\n`)
      const r = await run(p, '', { timeoutNs: SECOND })
      assert.equal(r.error, 'subprocess skill k: timed out after 1s')
      assert.equal(r.ok, false)
      assert.equal(r.timedOut, true)
      assert.equal(r.exitCode, -1)
      assert.equal(r.stderr.toString(), 'started\n')
      assert.ok(r.durationMs >= 990 && r.durationMs < 2900, `${r.durationMs}`)
    })
    test('durations print as Go’s time.Duration: 1.5s, 500ms', async () => {
      const p = script(dir(), 'run.sh', `${SH}/bin/sleep 30\n`)
      const [a, b] = await Promise.all([
        run(p, '', { timeoutNs: 1500n * MILLISECOND }),
        run(p, '', { timeoutNs: 500n * MILLISECOND }),
      ])
      assert.equal(a.error, 'subprocess skill k: timed out after 1.5s')
      assert.equal(b.error, 'subprocess skill k: timed out after 500ms')
    })
    test('the timeout wins over a non-zero exit and over invalid stdout', async () => {
      const p = script(dir(), 'run.sh', `${SH}trap 'exit 9' TERM; echo not-json; /bin/sleep 30\n`)
      const r = await run(p, '', { timeoutNs: 300n * MILLISECOND })
      assert.equal(r.error, 'subprocess skill k: timed out after 300ms')
    })
    test('grandchildren and TERM traps: the whole group gets SIGKILL, nothing is left', async () => {
      const m = marker('tree')
      const d = dir()
      // The entry and two grandchildren, all ignoring TERM; one grandchild has children of its own.
      const p = script(
        d,
        'run.sh',
        `${SH}trap '' TERM HUP INT
/bin/sh -c 'trap "" TERM HUP INT; /bin/sleep 30 & /bin/sleep 31; :' ${m}-a &
/bin/sh -c 'trap "" TERM; while :; do /bin/sleep 1; done' ${m}-b &
echo up >&2
/bin/sleep 32
`,
      )
      let up = false
      const r = await run(p, '', { timeoutNs: SECOND }, { onStderr: () => (up = true) })
      assert.ok(up)
      assert.ok(r.pid !== undefined)
      try {
        assert.equal(r.error, 'subprocess skill k: timed out after 1s')
        assert.ok(r.durationMs < 2900, `${r.durationMs}`)
        assert.deepEqual(await settle(() => aliveInGroup(r.pid as number)), [], 'left in the process group')
        assert.deepEqual(await settle(() => aliveWithMarker(m)), [], 'left by argv marker')
      } finally {
        killAll(aliveWithMarker(m), r.pid)
      }
    })
    test('a grandchild that left the group and holds stdout: the wait after the kill is 1 s', async () => {
      const m = marker('escaped')
      // node spawns a detached (setsid) sleeper that inherits stdout and stderr, then the entry sleeps.
      const p = script(
        dir(),
        'run.sh',
        `${SH}${process.execPath} -e "require('child_process').spawn('/bin/sleep', ['5'], { detached: true, stdio: 'inherit', argv0: '${m}' }).unref()"
/bin/sh -c '/bin/sleep 30; :' ${m}-same-group
`,
      )
      const r = await run(p, '', { timeoutNs: SECOND })
      try {
        assert.equal(r.error, 'subprocess skill k: timed out after 1s')
        assert.ok(
          r.durationMs >= 1000 + WAIT_DELAY_MS - 20 && r.durationMs < 1000 + WAIT_DELAY_MS + 1900,
          `${r.durationMs}`,
        )
        assert.deepEqual(await settle(() => aliveInGroup(r.pid as number)), [])
      } finally {
        killAll(aliveWithMarker(m), r.pid)
      }
    })
    test('abort (a cancelled request) kills the group: exit -1', async () => {
      const m = marker('abort')
      const p = script(
        dir(),
        'run.sh',
        `${SH}/bin/sh -c '/bin/sleep 30; :' ${m} &\necho up >&2\n/bin/sleep 30\n`,
      )
      const ac = new AbortController()
      const r = await run(p, '', {}, { signal: ac.signal, onStderr: () => ac.abort() })
      try {
        assert.equal(r.error, 'subprocess skill k: exit -1 (stderr: up)')
        assert.equal(r.timedOut, false)
        assert.deepEqual(await settle(() => aliveWithMarker(m)), [])
      } finally {
        killAll(aliveWithMarker(m), r.pid)
      }
    })
    test('a signal shared by many runs keeps no listener once each is over', async () => {
      // A long-lived signal (a server's, for every request) would otherwise collect one per run.
      const ok = script(dir(), 'ok.sh', `${SH}echo '{}'\n`)
      const ac = new AbortController()
      for (let i = 0; i < 3; i++) {
        const r = await run(ok, '', {}, { signal: ac.signal })
        assert.equal(r.ok, true)
        assert.equal(getEventListeners(ac.signal, 'abort').length, 0)
      }
    })
  })

  describe('execute: pipes held by a background child (WaitDelay)', { concurrency: true }, () => {
    test('exit 0 while a background child holds stdout > 1 s: WaitDelay expired, with the stderr tail', async () => {
      const m = marker('wd')
      const p = script(
        dir(),
        'run.sh',
        `${SH}/bin/sh -c '/bin/sleep 5; :' ${m} &\necho ' note ' >&2\necho '{}'\n`,
      )
      const r = await run(p)
      try {
        assert.equal(
          r.error,
          'subprocess skill k: exec: WaitDelay expired before I/O complete (stderr: note)',
        )
        assert.equal(r.exitCode, 0)
        assert.equal(r.timedOut, false)
        assert.equal(r.stdout.toString(), '{}\n')
        assert.ok(
          r.durationMs >= WAIT_DELAY_MS - 20 && r.durationMs < WAIT_DELAY_MS + 1900,
          `${r.durationMs}`,
        )
        // Go closes its ends of the pipes and leaves the background child alone.
        assert.equal(aliveWithMarker(m).length, 1)
      } finally {
        killAll(aliveWithMarker(m), r.pid)
      }
    })
    test('exit 0 while a background child holds stdin unread, params over the pipe buffer: the copy is waited for, then WaitDelay expired', async () => {
      const m = marker('wdin')
      // The background child takes stdin (explicitly: sh gives background jobs /dev/null) but not
      // stdout or stderr, and never reads: 1 MiB of params cannot all be written.
      const p = script(
        dir(),
        'run.sh',
        `${SH}exec 3<&0\n/bin/sh -c '/bin/sleep 5; :' ${m} <&3 >/dev/null 2>&1 &\necho held >&2\necho '{}'\n`,
      )
      const r = await run(p, `[${'1,'.repeat(512 * 1024)}1]`)
      try {
        assert.equal(
          r.error,
          'subprocess skill k: exec: WaitDelay expired before I/O complete (stderr: held)',
        )
        assert.equal(r.exitCode, 0)
        assert.ok(r.durationMs >= WAIT_DELAY_MS - 20, `${r.durationMs}`)
        assert.equal(aliveWithMarker(m).length, 1)
      } finally {
        killAll(aliveWithMarker(m), r.pid)
      }
    })
    test('small params fit the pipe: the copy ends at once, whoever holds stdin', async () => {
      const m = marker('wdsmall')
      const p = script(
        dir(),
        'run.sh',
        `${SH}exec 3<&0\n/bin/sh -c '/bin/sleep 5; :' ${m} <&3 >/dev/null 2>&1 &\necho '{}'\n`,
      )
      const r = await run(p, '{"a":1}')
      try {
        // Not the WaitDelay's error: the copy was done before the entry exited.
        assert.equal(r.error, null)
      } finally {
        killAll(aliveWithMarker(m), r.pid)
      }
    })
    test('a non-zero exit wins over the WaitDelay (after the same 1 s wait)', async () => {
      const m = marker('wdexit')
      const p = script(dir(), 'run.sh', `${SH}/bin/sh -c '/bin/sleep 5; :' ${m} &\necho bad >&2\nexit 4\n`)
      const r = await run(p)
      try {
        assert.equal(r.error, 'subprocess skill k: exit 4 (stderr: bad)')
        assert.ok(r.durationMs >= WAIT_DELAY_MS - 20, `${r.durationMs}`)
      } finally {
        killAll(aliveWithMarker(m), r.pid)
      }
    })
    test('a background child that finishes within 1 s: its output counts', async () => {
      const p = script(dir(), 'run.sh', `${SH}(/bin/sleep 0.3; echo '"late"') &\nexit 0\n`)
      const r = await run(p)
      assert.equal(r.error, null)
      assert.equal(r.stdout.toString(), '"late"\n')
      assert.ok(r.durationMs >= 280, `${r.durationMs}`)
    })
    test('the deadline passing during the wait: timed out, but nothing is killed after the exit', async () => {
      // Go: once Wait has reaped the process, watchCtx is gone; the WaitDelay runs from the exit
      // (0.3 s) to 1.3 s, and Execute then sees the expired 1 s context.
      const m = marker('late-deadline')
      const p = script(
        dir(),
        'run.sh',
        `${SH}/bin/sh -c '/bin/sleep 5; :' ${m} &\n/bin/sleep 0.3\necho '{}'\n`,
      )
      const r = await run(p, '', { timeoutNs: SECOND })
      try {
        assert.equal(r.error, 'subprocess skill k: timed out after 1s')
        assert.equal(r.exitCode, 0)
        assert.ok(r.durationMs >= 300 + WAIT_DELAY_MS - 20, `${r.durationMs}`)
        assert.equal(aliveWithMarker(m).length, 1)
      } finally {
        killAll(aliveWithMarker(m), r.pid)
      }
    })
  })
})

// Alone: it mocks setTimeout for the whole process.
describe('execute: a long timeout prints as 1m30s', () => {
  test('timed out after 1m30s (mocked clock)', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] })
    const p = script(dir(), 'run.sh', `${SH}/bin/sleep 30\n`)
    let started: () => void = () => {}
    const running = new Promise<void>((r) => {
      started = r
    })
    const pending = run(p, '', { timeoutNs: 90n * SECOND }, { onStart: () => started() })
    await running
    t.mock.timers.tick(90_000)
    const r = await pending
    assert.equal(r.error, 'subprocess skill k: timed out after 1m30s')
    assert.equal(r.exitCode, -1)
  })
})
