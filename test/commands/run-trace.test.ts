/**
 * `run --trace`, `run --sandbox` and `test --trace` against real strace and bubblewrap: each kind
 * of effect with a pack that has it and one that does not, the entry's view unchanged, the
 * timeout's kill of the whole group, the class held, and the sandbox keeping the host as it was.
 */
import assert from 'node:assert/strict'
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { aliveWithMarker, killAll, marker, NODE, SH, settle } from '../fixtures/run/helpers.js'
import { type CliResult, runCli } from '../helpers/cli.js'
import { sandboxMissing, straceMissing } from '../helpers/trace-tools.js'
import { makeTree, tempRoot } from '../helpers/tree.js'

interface Effect {
  kind: string
  syscall: string
  path?: string
  to?: string
  argv?: string[]
  address?: string
  port?: number
  target?: number
  error: string | null
}
interface Finding {
  severity: string
  message: string
  effect: number | null
}
interface RunDoc {
  exit_code: number
  error: { kind: string } | null
  result: unknown
  trace: { sandbox: boolean; effects: Effect[]; findings: Finding[]; truncated: boolean }
}

let R = ''
let OUT = ''
let cleanup = () => {}
let server: Server
let port = 0
let connections = 0
let target: ChildProcess

const skip = straceMissing() ?? false

function pack(
  name: string,
  cls: string,
  body: string,
  o: { node?: boolean; env?: string[]; timeout?: number } = {},
) {
  const dir = join(R, 'packs', name)
  makeTree(dir, {
    'skill.json': JSON.stringify({
      name,
      description: 'A test skill.',
      class: cls,
      entry: 'run',
      timeout_seconds: o.timeout ?? 20,
      env_allow: o.env ?? [],
    }),
    run: { exec: o.node ? `${NODE}${body}` : `${SH}${body}\necho '{}'\n` },
  })
  return dir
}

async function trace(
  dir: string,
  extra: string[] = [],
  env: Record<string, string> = {},
  cwd = R,
): Promise<RunDoc & CliResult> {
  const r = await runCli(['run', dir, '--trace', '--json', '--no-audit', ...extra], {
    cwd,
    env: { CI: '1', OUT, PORT: String(port), TARGET: String(target.pid), ...env },
    timeoutMs: 60_000,
  })
  assert.ok(r.stdout !== '', r.stderr)
  return { ...r, ...(JSON.parse(r.stdout) as RunDoc) }
}

const ofKind = (d: RunDoc, kind: string) => d.trace.effects.filter((e) => e.kind === kind)
const errors = (d: RunDoc) => d.trace.findings.filter((f) => f.severity === 'error')

before(async () => {
  ;({ root: R, cleanup } = tempRoot('ongrid-skill-trace-'))
  OUT = join(R, 'out')
  mkdirSync(OUT)
  server = createServer((s) => {
    connections++
    s.end()
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  port = (server.address() as { port: number }).port
  // A process the runs did not start, for the signal cases.
  target = spawn('sleep', ['600'], { stdio: 'ignore' })
})
after(() => {
  target.kill('SIGKILL')
  server.close()
  cleanup()
})

/** Each kind: [kind, the doer's body, the other's body, the doer's effect must say this, held against safe]. */
const KINDS: [string, string, string, (e: Effect) => boolean, boolean][] = [
  [
    'create',
    'mkdir "$OUT/made"',
    'd=$(mktemp -d) && echo x > "$d/f" && rm -rf "$d"',
    (e) => e.path === join(OUT, 'made'),
    true,
  ],
  [
    'write',
    'echo x >> "$OUT/log"',
    'read -r x < /etc/hostname || true',
    (e) => e.path === join(OUT, 'log'),
    true,
  ],
  ['truncate', 'echo x > "$OUT/t"', 'echo x > /dev/null', (e) => e.path === join(OUT, 't'), true],
  [
    'delete',
    ': > "$OUT/v.$$" && rm -f "$OUT/v.$$"',
    'f=$(mktemp) && rm -f "$f"',
    (e) => e.path?.startsWith(join(OUT, 'v.')) === true,
    true,
  ],
  [
    'rename',
    ': > "$OUT/a.$$" && mv "$OUT/a.$$" "$OUT/b.$$"',
    'ls "$OUT" > /dev/null',
    (e) => e.to?.startsWith(join(OUT, 'b.')) === true,
    true,
  ],
  [
    'chmod',
    ': > "$OUT/m.$$" && chmod 600 "$OUT/m.$$"',
    'test -r /etc/hostname',
    (e) => e.path?.startsWith(join(OUT, 'm.')) === true,
    true,
  ],
  [
    'chown',
    ': > "$OUT/o.$$" && chown "$(id -u)" "$OUT/o.$$"',
    'id -u > /dev/null',
    (e) => e.path?.startsWith(join(OUT, 'o.')) === true,
    true,
  ],
  ['exec', '/bin/true', ':', (e) => e.argv?.[0] === '/bin/true', false],
  [
    'signal',
    'kill -s CONT "$TARGET"',
    'sleep 5 & kill $!',
    (e) => e.target !== undefined && e.target > 0,
    true,
  ],
]

describe('run --trace: each kind of effect, with a pack that has it and one that does not', {
  skip,
  concurrency: 2,
}, () => {
  for (const [kind, doer, other, says, held] of KINDS) {
    test(kind, async () => {
      const env = kind === 'signal' ? ['TARGET'] : ['OUT']
      const yes = await trace(pack(`${kind}_yes`, 'safe', doer, { env }))
      const found = ofKind(yes, kind).filter(says)
      assert.equal(found.length, 1, JSON.stringify(yes.trace.effects))
      assert.equal(found[0].error, null)
      if (held) {
        assert.equal(yes.exit_code, 7, yes.stderr)
        assert.equal(yes.error?.kind, 'class_violated')
        const i = yes.trace.effects.indexOf(found[0])
        assert.ok(errors(yes).some((f) => f.effect === i && f.message.includes(`(${found[0].syscall}`)))
      } else assert.equal(yes.exit_code, 0, yes.stderr)
      const no = await trace(pack(`${kind}_no`, 'safe', other, { env }))
      assert.equal(no.exit_code, 0, `${no.stderr}${JSON.stringify(no.trace)}`)
      assert.deepEqual(
        ofKind(no, kind).filter((e) => kind !== 'exec' || e.argv?.[0] === '/bin/true'),
        [],
      )
      assert.deepEqual(errors(no), [])
    })
  }

  test('connect: the address and port, not held against safe', async () => {
    const body = `require('net').connect(Number(process.env.PORT), '127.0.0.1').on('close', () => console.log('{}')).on('error', () => console.log('{}'))\n`
    const before = connections
    const yes = await trace(pack('connect_yes', 'safe', body, { node: true, env: ['PORT'] }))
    assert.equal(yes.exit_code, 0, yes.stderr)
    assert.deepEqual(
      ofKind(yes, 'connect').map((e) => [e.address, e.port]),
      [['127.0.0.1', port]],
    )
    assert.equal(connections, before + 1)
    const no = await trace(pack('connect_no', 'safe', "console.log('{}')\n", { node: true }))
    assert.deepEqual(ofKind(no, 'connect'), [])
  })

  test('privilege: setgid is one, held against safe', async () => {
    const yes = await trace(
      pack('priv_yes', 'safe', "process.setgid(process.getgid()); console.log('{}')\n", { node: true }),
    )
    // glibc makes every thread of the process call it (Node has several): one effect each.
    const calls = new Set(ofKind(yes, 'privilege').map((e) => e.syscall))
    assert.deepEqual([...calls], ['setgid'])
    assert.equal(yes.exit_code, 7)
    const no = await trace(
      pack('priv_no', 'safe', 'console.log(JSON.stringify({ gid: process.getgid() }))\n', { node: true }),
    )
    assert.deepEqual(ofKind(no, 'privilege'), [])
    assert.equal(no.exit_code, 0)
  })

  test('a command known to change state is held by its name; the same tool reading is not', async () => {
    const tool = join(R, 'bin')
    makeTree(tool, { systemctl: { exec: `${SH}exit 0\n` } })
    const yes = await trace(pack('cmd_yes', 'safe', `${tool}/systemctl restart nginx`))
    assert.equal(yes.exit_code, 7)
    assert.match(errors(yes)[0].message, /asks systemd .*exec .*systemctl restart nginx \(execve/)
    const no = await trace(pack('cmd_no', 'safe', `${tool}/systemctl status nginx`))
    assert.equal(no.exit_code, 0)
    assert.deepEqual(errors(no), [])
  })

  test('mutating: an info finding when the run changed nothing, none when it did', async () => {
    const idle = await trace(pack('mut_idle', 'mutating', ':'))
    assert.equal(idle.exit_code, 0)
    assert.deepEqual(
      idle.trace.findings.map((f) => f.severity),
      ['info'],
    )
    const busy = await trace(pack('mut_busy', 'mutating', 'echo x > "$OUT/mut"', { env: ['OUT'] }))
    assert.equal(busy.exit_code, 0)
    assert.deepEqual(busy.trace.findings, [])
  })
})

describe('run --trace: the entry sees what it sees without it', { skip }, () => {
  test('the same environment, working dir, descriptors and stdin', async () => {
    const dir = pack(
      'view',
      'safe',
      `${SH}a=$(cat)\nfds=$(ls /proc/$$/fd | tr '\\n' ' ')\nprintf '{"args":%s,"cwd":"%s","fds":"%s","env":"%s"}' "$a" "$PWD" "$fds" "$(env | sort | tr '\\n' ' ')"\n`.replace(
        SH,
        '',
      ),
      { env: ['OUT', 'PATH'] },
    )
    // The body prints its own JSON: replace the trailing `echo '{}'`.
    writeFileSync(join(dir, 'run'), readFileSync(join(dir, 'run'), 'utf8').replace(/echo '\{\}'\n$/, ''))
    const args = ['--args', '{"n":1}']
    const plain = JSON.parse(
      (await runCli(['run', dir, '--json', '--no-audit', ...args], { cwd: R, env: { CI: '1', OUT } })).stdout,
    ) as RunDoc
    const traced = await trace(dir, args)
    assert.deepEqual(traced.result, plain.result)
    assert.deepEqual((plain.result as { args: unknown }).args, { n: 1 })
  })

  test("an entry that cannot start (a missing interpreter) fails with the executor's own text", async () => {
    const dir = pack('noint', 'safe', '')
    writeFileSync(join(dir, 'run'), '#!/nonexistent/interpreter\n')
    const plain = JSON.parse(
      (await runCli(['run', dir, '--json', '--no-audit'], { cwd: R, env: { CI: '1' } })).stdout,
    ) as RunDoc & { entry: { error: string; exit_status: number | null } }
    const traced = (await trace(dir)) as RunDoc &
      CliResult & { entry: { error: string; exit_status: number | null } }
    assert.match(plain.entry.error, /start: fork\/exec .*: no such file or directory \(stderr: \)$/)
    assert.equal(traced.entry.error, plain.entry.error)
    assert.equal(traced.entry.exit_status, null)
    assert.equal(traced.exit_code, 1)
    assert.deepEqual(traced.trace.effects, [])
  })

  test('a timeout kills the whole group, tracer and all, and keeps what was seen', async () => {
    const m = marker('trace-timeout')
    const dir = pack('slow', 'safe', `sleep 30 ${m} &\nexec sleep 31 ${m}`, { timeout: 1 })
    // sleep takes one operand: the marker goes through sh -c's $0 instead.
    writeFileSync(join(dir, 'run'), `${SH}sh -c 'sleep 30' ${m} &\nexec sh -c 'sleep 31' ${m}\n`)
    try {
      const r = await trace(dir)
      assert.equal(r.exit_code, 3)
      assert.equal(r.error?.kind, 'timeout')
      assert.ok(
        ofKind(r, 'exec').some((e) => e.argv?.includes(m)),
        JSON.stringify(r.trace.effects),
      )
      assert.deepEqual(await settle(() => aliveWithMarker(m)), [])
    } finally {
      killAll(aliveWithMarker(m))
    }
  })
})

describe('run --trace without strace', () => {
  test('one line saying what to install, exit 6, nothing run', async () => {
    const dir = pack('nostrace', 'safe', 'echo x > "$OUT/never"', { env: ['OUT'] })
    const r = await runCli(['run', dir, '--trace'], { cwd: R, env: { CI: '1', OUT, PATH: '/nonexistent' } })
    assert.equal(r.code, 6)
    assert.equal(
      r.stderr,
      'ongrid-skill: --trace needs strace, which is not installed: apt-get install strace\n',
    )
    assert.ok(!existsSync(join(OUT, 'never')))
    const j = await runCli(['run', dir, '--sandbox', '--json'], {
      cwd: R,
      env: { CI: '1', PATH: '/nonexistent' },
    })
    assert.equal(j.code, 6)
    assert.equal(JSON.parse(j.stdout).error.kind, 'untraceable')
  })

  test('test: --trace, or a case that pins its effects, without strace: one line, exit 6', async () => {
    const dir = pack('nostrace_cases', 'safe', ':')
    makeTree(dir, { 'tests/cases.json': JSON.stringify({ name: 'runs', expect: { ok: true } }) })
    const env = { CI: '1', PATH: '/nonexistent' }
    assert.equal((await runCli(['test', dir], { cwd: R, env })).code, 0)
    const r = await runCli(['test', dir, '--trace', '--json'], { cwd: R, env })
    assert.equal(r.code, 6)
    assert.equal(JSON.parse(r.stdout).error.kind, 'untraceable')
    makeTree(dir, {
      'tests/cases.json': JSON.stringify({ name: 'runs', expect: { ok: true, effects: [] } }),
    })
    const pinned = await runCli(['test', dir], { cwd: R, env })
    assert.equal(pinned.code, 6)
    assert.equal(
      pinned.stderr,
      "ongrid-skill: a case's expect.effects needs strace, which is not installed: apt-get install strace\n",
    )
  })

  test('--allow-net without --sandbox is a usage error', async () => {
    const r = await runCli(['run', pack('allow_net', 'safe', ':'), '--allow-net'], {
      cwd: R,
      env: { CI: '1' },
    })
    assert.equal(r.code, 2)
    assert.match(r.stderr, /--allow-net: only with --sandbox/)
  })
})

describe('run --sandbox', { skip: sandboxMissing() ?? false }, () => {
  test('writes are reported, never applied; the host stays as it was', async () => {
    writeFileSync(join(OUT, 'keep'), 'original\n')
    const dir = pack(
      'sandboxed',
      'safe',
      'echo changed > "$OUT/keep" || true\nrm -f "$OUT/keep" || true\necho x > /tmp/scratch-$$ && rm /tmp/scratch-$$',
      { env: ['OUT'] },
    )
    const r = await trace(dir, ['--sandbox'])
    assert.equal(r.trace.sandbox, true)
    assert.equal(readFileSync(join(OUT, 'keep'), 'utf8'), 'original\n')
    const tried = r.trace.effects.filter((e) => e.path === join(OUT, 'keep'))
    assert.deepEqual(
      tried.map((e) => [e.kind, e.error]),
      [
        ['truncate', 'EROFS'],
        ['delete', 'EROFS'],
      ],
    )
    assert.equal(r.exit_code, 7)
    assert.equal(statSync(join(OUT, 'keep')).size, 9)
  })

  test('the whole pack is there, read-only, whichever dir its entry is in', async () => {
    const dir = join(R, 'packs', 'nested')
    makeTree(dir, {
      'skill.json': JSON.stringify({
        name: 'nested',
        description: 'A test skill.',
        class: 'safe',
        entry: 'bin/run',
      }),
      'bin/run': { exec: `${SH}cat "$(dirname "$0")/../data.json"\n` },
      'data.json': '{"here":true}',
    })
    // From / (not the test's dir, which would be bound as the working dir).
    const r = await trace(dir, ['--sandbox'], {}, '/')
    assert.equal(r.exit_code, 0, r.stderr)
    assert.deepEqual(r.result, { here: true })
  })

  test('no network unless --allow-net', async () => {
    const body = `require('net').connect(Number(process.env.PORT), '127.0.0.1').on('connect', () => console.log('{"reached":true}')).on('error', (e) => console.log(JSON.stringify({ reached: false, code: e.code })))\n`
    const dir = pack('net', 'safe', body, { node: true, env: ['PORT'] })
    const before = connections
    const off = await trace(dir, ['--sandbox'])
    assert.deepEqual((off.result as { reached: boolean }).reached, false)
    assert.equal(connections, before)
    assert.equal(ofKind(off, 'connect')[0]?.address, '127.0.0.1')
    const on = await trace(dir, ['--sandbox', '--allow-net'])
    assert.deepEqual(on.result, { reached: true })
    assert.equal(connections, before + 1)
  })
})

describe('test --trace and expect.effects', { skip }, () => {
  interface TestDoc {
    exit_code: number
    packs: {
      cases: {
        name: string
        passed: boolean
        failures: { kind: string; message: string; diff?: string[] }[]
        trace?: RunDoc['trace']
      }[]
    }[]
  }
  const testCli = (args: string[]) =>
    runCli(['test', ...args], { cwd: R, env: { CI: '1', OUT }, timeoutMs: 60_000 })

  test('a case that pins its effects is traced without --trace, and fails when they change', async () => {
    const dir = pack('pinned', 'mutating', 'echo x > "$OUT/pinned"', { env: ['OUT'] })
    makeTree(dir, {
      'tests/cases.json': JSON.stringify({
        name: 'writes its file',
        expect: { ok: true, effects: [{ kind: 'truncate', path: join(OUT, 'pinned') }] },
      }),
    })
    const ok = await testCli([dir, '--json'])
    assert.equal(ok.code, 0, ok.stdout)
    const doc = JSON.parse(ok.stdout) as TestDoc
    assert.equal(doc.packs[0].cases[0].trace?.effects.length, 1)
    writeFileSync(join(dir, 'run'), `${SH}echo x > "$OUT/pinned"\nmkdir -p "$OUT/extra"\necho '{}'\n`)
    const changed = await testCli([dir, '--json'])
    assert.equal(changed.code, 1)
    const f = (JSON.parse(changed.stdout) as TestDoc).packs[0].cases[0].failures
    assert.deepEqual(
      f.map((x) => [x.kind, x.message]),
      [['effects', 'effects differ from expect.effects']],
    )
    assert.deepEqual(
      f[0].diff?.map((l) => l.replace(/ \(.*/, '').replace(OUT, '$OUT')),
      ['+ exec mkdir -p $OUT/extra', '+ create $OUT/extra'],
    )
  })

  test('--trace: a safe skill that changes the host fails its case; junit shows the effects', async () => {
    const dir = pack('safe_writer', 'safe', 'echo x > "$OUT/sw"', { env: ['OUT'] })
    makeTree(dir, { 'tests/cases.json': JSON.stringify({ name: 'runs', expect: { ok: true } }) })
    const plain = await testCli([dir])
    assert.equal(plain.code, 0, plain.stdout)
    const traced = await testCli([dir, '--trace', '--json'])
    assert.equal(traced.code, 1)
    const c = (JSON.parse(traced.stdout) as TestDoc).packs[0].cases[0]
    assert.equal(c.failures[0].kind, 'effects')
    assert.match(c.failures[0].message, /a safe skill changed the host: truncate .*\/out\/sw \(openat/)
    const junit = await testCli([dir, '--trace', '--format', 'junit'])
    assert.match(
      junit.stdout,
      /<system-out>trace: \d+ effects?\n {2}truncate [^<]*\/out\/sw \(openat, pid \d+\)/,
    )
    const spec = await testCli([dir, '--trace'])
    assert.match(spec.stdout, /truncate .*\/out\/sw \(openat/)
  })
})
