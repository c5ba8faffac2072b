import assert from 'node:assert/strict'
import { type ChildProcess, spawnSync } from 'node:child_process'
import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { Database } from '../../src/core/audit/sqlite.js'
import { aliveWithMarker, killAll, marker, NODE, SH, settle } from '../fixtures/run/helpers.js'
import { type CliResult, runCli, runCliSync } from '../helpers/cli.js'
import { makeTree, type Node, tempRoot } from '../helpers/tree.js'

interface CliOptions {
  env?: Record<string, string | undefined>
  input?: string | Buffer
  cwd?: string
  /** Called with the child and each stderr chunk (to signal it mid-run). */
  onStderr?: (child: ChildProcess, text: string) => void
  /** Through `/bin/sh -c SH` (a pipeline, a redirection). */
  sh?: string
}

/** Runs `ongrid-skill run …`; stdout and stderr as byte strings (latin1). */
function cli(args: string[], o: CliOptions = {}): Promise<CliResult> {
  return runCli(['run', ...args], {
    env: { CI: '1', ...o.env },
    cwd: o.cwd ?? R,
    input: o.input,
    onStderr: o.onStderr,
    sh: o.sh,
    encoding: 'latin1',
  })
}

const pack = (fields: Record<string, unknown>, entry: Node, name = 'run.sh'): Record<string, Node> => ({
  'skill.json': JSON.stringify({ description: 'A test skill.', entry: name, ...fields }),
  [name]: entry,
})

function tree(prefix: string, packs: Record<string, Record<string, Node>>): void {
  const nodes: Record<string, Node> = {}
  for (const [dir, files] of Object.entries(packs)) {
    for (const [f, node] of Object.entries(files)) nodes[`${prefix}/${dir}/${f}`] = node
  }
  makeTree(R, nodes)
}

const ENV_DUMP = {
  exec: `${NODE}process.stdout.write(JSON.stringify(process.env))\n`,
}

let R = ''
let P = ''
let cleanup = () => {}
let dbn = 0
/** A fresh audit store path. */
const db = () => join(R, 'audit', `${++dbn}.db`)

function rows(path: string): Record<string, unknown>[] {
  const d = new Database(path, { readonly: true })
  try {
    return d.prepare('SELECT * FROM skill_executions ORDER BY id').all() as Record<string, unknown>[]
  } finally {
    d.close()
  }
}

before(() => {
  ;({ root: R, cleanup } = tempRoot('ongrid-run-'))
  P = join(R, 'packs')
  tree('packs', {
    ok: pack({ name: 'ok' }, { exec: `${SH}echo hello >&2\necho '{"ok":true}'\necho\n` }),
    cat: pack(
      {
        name: 'cat',
        schema: {
          type: 'object',
          required: ['path'],
          properties: {
            path: { type: 'string' },
            n: { type: 'integer', minimum: 1 },
            f: { type: 'number' },
            b: { type: 'boolean' },
            tags: { type: 'array', items: { type: 'string' } },
            mode: { enum: ['a', 'b'] },
            o: { type: 'object' },
          },
          additionalProperties: false,
        },
      },
      { exec: `${SH}exec /bin/cat\n` },
    ),
    free: pack({ name: 'free' }, { exec: `${SH}exec /bin/cat\n` }),
    // Parsed, so that `__proto__` is a property (in an object literal it would set the prototype).
    proto: pack(
      {
        name: 'proto',
        schema: JSON.parse(
          '{"type":"object","properties":{"__proto__":{"type":"integer"}},"required":["__proto__"],"additionalProperties":false}',
        ),
      },
      { exec: `${SH}exec /bin/cat\n` },
    ),
    fail: pack({ name: 'fail' }, { exec: `${SH}echo '{"partial":1}'\necho '  boom ' >&2\nexit 7\n` }),
    slow: pack({ name: 'slow', timeout_seconds: 1 }, { exec: `${SH}echo up >&2\n/bin/sleep 30\n` }),
    arr: pack({ name: 'arr' }, { exec: `${SH}printf '[1,2]'\n` }),
    str: pack({ name: 'str' }, { exec: `${SH}printf '"x"\\n'\n` }),
    nul: pack({ name: 'nul' }, { exec: `${SH}printf null\n` }),
    notjson: pack({ name: 'notjson' }, { exec: `${SH}echo 'not json'\n` }),
    noexec: pack({ name: 'noexec' }, { file: `${SH}echo '{}'\n`, mode: 0o644 }),
    nobang: pack({ name: 'nobang' }, { file: `echo '{}'\n`, mode: 0o755 }),
    bad: pack({ name: 'Bad' }, { exec: `${SH}echo '{}'\n` }),
    broken: { 'skill.json': '{"name":"broken",}' },
    safe: pack({ name: 'safe_one', class: 'safe' }, { exec: `${SH}echo '{}'\n` }),
    mutating: pack({ name: 'mutating_one', class: 'mutating' }, { exec: `${SH}echo '{}'\n` }),
    dangerous: pack({ name: 'dangerous_one', class: 'dangerous' }, { exec: `${SH}echo '{}'\n` }),
    env: pack(
      { name: 'env', env_allow: ['A', ' B ', 'EMPTY', 'MISSING', 'constructor'] },
      ENV_DUMP,
      'env.js',
    ),
    envpath: pack({ name: 'envpath', env_allow: ['PATH'] }, ENV_DUMP, 'env.js'),
    deaf: pack({ name: 'deaf' }, { exec: `${SH}echo '{"read":false}'\n` }),
    cututf8: pack({ name: 'cututf8' }, { exec: `${SH}printf 'a\\342\\202b' >&2\nprintf '"x\\342\\202"'\n` }),
  })
  tree('d1', {
    same: pack({ name: 'same' }, { exec: `${SH}echo 1\n` }),
    web: pack({ name: 'web_search' }, { exec: `${SH}echo '"mine"'\n` }),
  })
  tree('d2', {
    same: pack({ name: 'same' }, { exec: `${SH}echo 2\n` }),
    only: pack({ name: 'only2' }, { exec: `${SH}echo '"only2"'\n` }),
  })
  makeTree(R, { 'audit/.keep': '', afile: 'not a dir' })
})
after(() => cleanup())

describe('ongrid-skill run', { concurrency: 8 }, () => {
  // ── outcomes and exit codes ──────────────────────────────────────────────
  test('success: stdout verbatim (trailing newlines kept), the entry’s stderr passed through, exit 0', async () => {
    const r = await cli([`${P}/ok`, '--no-audit'])
    assert.equal(r.code, 0)
    assert.equal(r.stdout, '{"ok":true}\n\n')
    assert.equal(r.stderr, 'hello\n')
  })
  test('--json renders invalid UTF-8 as Go’s encoder does: one U+FFFD per invalid byte', async () => {
    const r = await cli([`${P}/cututf8`, '--no-audit', '--json'])
    assert.equal(r.code, 0)
    const doc = JSON.parse(Buffer.from(r.stdout, 'latin1').toString('utf8'))
    assert.equal(doc.entry.stdout, '"x\ufffd\ufffd"')
    assert.equal(doc.result, 'x\ufffd\ufffd')
    assert.equal(doc.entry.stderr, 'a\ufffd\ufffdb')
  })
  test('args and results nested 10000 deep (Go’s limit): no crash, --json and --arg included', async () => {
    const deep = (d: number) => `${'['.repeat(d)}${']'.repeat(d)}`
    const depth = (v: unknown) => {
      let d = 0
      while (Array.isArray(v)) [v, d] = [v[0], d + 1]
      return d
    }
    const [plain, json, merged, over] = await Promise.all([
      cli([`${P}/free`, '--no-audit', '--args', deep(10000)]),
      cli([`${P}/free`, '--no-audit', '--json', '--args', deep(10000)]),
      cli([`${P}/free`, '--no-audit', '--json', '--args', `{"a":${deep(9999)}}`, '--arg', 'b=1']),
      cli([`${P}/free`, '--no-audit', '--json', '--args', deep(10001)]),
    ])
    assert.deepEqual([plain.code, plain.stdout], [0, deep(10000)])
    assert.equal(json.code, 0, json.stderr)
    const doc = JSON.parse(json.stdout)
    assert.deepEqual([depth(doc.args), depth(doc.result), doc.entry.stdout], [10000, 10000, deep(10000)])
    assert.equal(merged.code, 0, merged.stderr)
    assert.equal(JSON.parse(merged.stdout).entry.stdout, `{"a":${deep(9999)},"b":"1"}`)
    assert.equal(over.code, 2)
    assert.match(
      JSON.parse(over.stdout).error.message,
      /^--args: not valid JSON: invalid character '\[' exceeded max depth at byte 10001/,
    )
  })
  test('--quiet hides the entry’s stderr', async () => {
    const r = await cli([`${P}/ok`, '--no-audit', '-q'])
    assert.equal(r.code, 0)
    assert.equal(r.stderr, '')
  })
  test('any JSON value is a result: [1,2], "x", null', async () => {
    const [a, s, n] = await Promise.all(['arr', 'str', 'nul'].map((k) => cli([`${P}/${k}`, '--no-audit'])))
    assert.deepEqual([a.code, a.stdout], [0, '[1,2]'])
    assert.deepEqual([s.code, s.stdout], [0, '"x"\n'])
    assert.deepEqual([n.code, n.stdout], [0, 'null'])
  })
  test('the skill fails: error: <the manager’s text> on stderr, nothing on stdout, exit 1', async () => {
    const r = await cli([`${P}/fail`, '--no-audit', '-q'])
    assert.equal(r.code, 1)
    assert.equal(r.stdout, '')
    assert.equal(r.stderr, 'error: subprocess skill fail: exit 7 (stderr: boom)\n')
    const j = await cli([`${P}/notjson`, '--no-audit', '-q'])
    assert.equal(j.code, 1)
    assert.equal(
      j.stderr,
      'error: subprocess skill notjson: stdout is not valid JSON (first 200B: not json)\n',
    )
  })
  test('entry checks and start failures are failures too (exit 1)', async () => {
    const [a, b] = await Promise.all([cli([`${P}/noexec`, '--no-audit']), cli([`${P}/nobang`, '--no-audit'])])
    assert.equal(a.code, 1)
    assert.equal(a.stderr, `error: subprocess skill: entry ${P}/noexec/run.sh not executable\n`)
    assert.equal(b.code, 1)
    assert.equal(
      b.stderr,
      `error: subprocess skill nobang: start: fork/exec ${P}/nobang/run.sh: exec format error (stderr: )\n`,
    )
  })
  test('timed out (timeout_seconds: 1): exit 3', async () => {
    const r = await cli([`${P}/slow`, '--no-audit', '-q'])
    assert.equal(r.code, 3)
    assert.equal(r.stderr, 'error: subprocess skill slow: timed out after 1s\n')
  })
  test('--timeout takes a Go duration: 500ms, 1.5s', async () => {
    const [a, b] = await Promise.all([
      cli([`${P}/slow`, '--no-audit', '-q', '--timeout', '500ms']),
      cli([`${P}/slow`, '--no-audit', '-q', '--timeout', '1.5s']),
    ])
    assert.equal(a.code, 3)
    assert.equal(a.stderr, 'error: subprocess skill slow: timed out after 500ms\n')
    assert.equal(b.code, 3)
    assert.equal(b.stderr, 'error: subprocess skill slow: timed out after 1.5s\n')
  })
  test('--timeout 1m30s is the timeout shown in --json; a bad duration is a usage error', async () => {
    const r = await cli([`${P}/ok`, '--no-audit', '--json', '--timeout', '1m30s'])
    assert.equal(r.code, 0)
    assert.equal(JSON.parse(r.stdout).skill.timeout_ms, 90_000)
    // A bare number is seconds, as in init.
    const secs = await cli([`${P}/ok`, '--no-audit', '--json', '--timeout', '2.5'])
    assert.equal(JSON.parse(secs.stdout).skill.timeout_ms, 2500)
    const bad = await cli([`${P}/ok`, '--no-audit', '--timeout', 'soon'])
    assert.equal(bad.code, 2)
    assert.equal(bad.stderr, 'ongrid-skill: --timeout: time: invalid duration "soon"\n')
  })

  // ── the --json document ─────────────────────────────────────────────────
  test('--json on success: every key, in order', async () => {
    const r = await cli([`${P}/ok`, '--no-audit', '--json', '--args', ' {"a" : 1} '])
    assert.equal(r.code, 0)
    const doc = JSON.parse(r.stdout)
    assert.deepEqual(Object.keys(doc), [
      'ok',
      'exit_code',
      'command',
      'schema_version',
      'error',
      'manager_version',
      'result',
      'entry',
      'skill',
      'args',
      'env_altered',
      'entry_altered',
      'audit',
    ])
    assert.equal(typeof doc.entry.duration_ms, 'number')
    assert.deepEqual(
      { ...doc, entry: { ...doc.entry, duration_ms: 0 } },
      {
        ok: true,
        exit_code: 0,
        command: 'run',
        schema_version: 1,
        error: null,
        manager_version: 'v0.13.4',
        result: { ok: true },
        entry: {
          exit_status: 0,
          timed_out: false,
          error: null,
          duration_ms: 0,
          stdout: '{"ok":true}\n\n',
          stderr: 'hello\n',
        },
        skill: { name: 'ok', entry: `${P}/ok/run.sh`, class: 'safe', timeout_ms: 30_000 },
        args: { a: 1 },
        env_altered: [],
        entry_altered: false,
        audit: { recorded: false, reason: 'disabled by --no-audit' },
      },
    )
  })
  test('--json result of a null stdout: ok, result null', async () => {
    const r = await cli([`${P}/nul`, '--no-audit', '--json'])
    const d = JSON.parse(r.stdout)
    assert.deepEqual([r.code, d.ok, d.result, d.entry.stdout, d.error], [0, true, null, 'null', null])
  })
  test('--json on failure, timeout and start failure: the CLI’s exit code, the entry’s own status, and what was captured', async () => {
    const [f, t, s] = await Promise.all([
      cli([`${P}/fail`, '--no-audit', '--json']),
      cli([`${P}/slow`, '--no-audit', '--json', '--timeout', '300ms']),
      cli([`${P}/nobang`, '--no-audit', '--json']),
    ])
    assert.equal(f.code, 1)
    assert.equal(f.stderr, '')
    const fd = JSON.parse(f.stdout)
    const E = 'subprocess skill fail: exit 7 (stderr: boom)'
    assert.deepEqual(
      [fd.ok, fd.exit_code, fd.error, fd.result, fd.args],
      [false, 1, { message: E, kind: 'failed' }, null, {}],
    )
    assert.deepEqual(
      [fd.entry.exit_status, fd.entry.timed_out, fd.entry.error, fd.entry.stdout, fd.entry.stderr],
      [7, false, E, '{"partial":1}\n', '  boom \n'],
    )
    assert.equal(t.code, 3)
    const td = JSON.parse(t.stdout)
    const T = 'subprocess skill slow: timed out after 300ms'
    assert.deepEqual([td.ok, td.exit_code, td.error], [false, 3, { message: T, kind: 'timeout' }])
    assert.deepEqual(
      [td.entry.error, td.entry.exit_status, td.entry.timed_out, td.entry.stderr],
      [T, -1, true, 'up\n'],
    )
    assert.equal(s.code, 1)
    const sd = JSON.parse(s.stdout)
    assert.deepEqual(
      [sd.exit_code, sd.entry.exit_status, sd.entry.timed_out, sd.entry.stdout],
      [1, null, false, ''],
    )
  })
  test('--json with args that are not JSON (the manager’s invalid params): args is the raw string', async () => {
    const r = await cli([`${P}/free`, '--no-audit', '--no-validate', '--json', '--args', '{nope'])
    assert.equal(r.code, 1)
    const d = JSON.parse(r.stdout)
    assert.equal(d.entry.error, 'subprocess skill: invalid params JSON')
    assert.equal(d.args, '{nope')
  })

  // ── the loader, and NAME lookup ─────────────────────────────────────────
  test('a pack the loader rejects: the loader’s line, exit 2', async () => {
    const [bad, broken, escaping] = await Promise.all([
      cli([`${P}/bad`, '--no-audit']),
      cli([`${P}/broken/skill.json`, '--no-audit']),
      cli([`${P}/ok`, '--no-audit', '--root', `${R}/d1`]),
    ])
    assert.equal(bad.code, 2)
    assert.equal(
      bad.stderr,
      `error: skill loader: build Bad (${P}/bad/skill.json): name "Bad" must be lower_snake [a-z0-9_]\n`,
    )
    assert.equal(broken.code, 2)
    assert.equal(
      broken.stderr,
      `error: skill loader: parse ${P}/broken/skill.json: decode: invalid character '}' looking for beginning of object key string\n`,
    )
    assert.equal(escaping.code, 2)
    assert.equal(
      escaping.stderr,
      `error: skill loader: build ok (${P}/ok/skill.json): entry ${P}/ok/run.sh escapes allowlist root ${R}/d1\n`,
    )
  })
  test('NAME through --dirs: split on , and ;, the first dir wins', async () => {
    const [a, b, c] = await Promise.all([
      cli(['same', '--no-audit', '--dirs', `${R}/d1,${R}/d2`]),
      cli(['same', '--no-audit', '--dirs', ` ${R}/d2 ; ${R}/d1`]),
      cli(['only2', '--no-audit', '--dirs', `${R}/d1;${R}/d2`]),
    ])
    assert.deepEqual([a.code, a.stdout], [0, '1\n'])
    assert.deepEqual([b.code, b.stdout], [0, '2\n'])
    assert.deepEqual([c.code, c.stdout], [0, '"only2"\n'])
  })
  test('NAME through ONGRID_SKILLS_EXTERNAL_DIRS; --dirs overrides it', async () => {
    const env = { ONGRID_SKILLS_EXTERNAL_DIRS: `${R}/d2,${R}/d1` }
    const [a, b] = await Promise.all([
      cli(['same', '--no-audit'], { env }),
      cli(['same', '--no-audit', '--dirs', `${R}/d1`], { env }),
    ])
    assert.deepEqual([a.code, a.stdout], [0, '2\n'])
    assert.deepEqual([b.code, b.stdout], [0, '1\n'])
  })
  test('NAME not registered, or a builtin of the manager: exit 2', async () => {
    const [none, builtin] = await Promise.all([
      cli(['nope', '--no-audit', '--dirs', `${R}/d1`]),
      cli(['web_search', '--no-audit', '--dirs', `${R}/d1`]),
    ])
    assert.equal(none.code, 2)
    assert.equal(none.stderr, `ongrid-skill: no skill nope is registered from ${R}/d1\n`)
    assert.equal(builtin.code, 2)
    assert.equal(
      builtin.stderr,
      'ongrid-skill: web_search is a builtin skill of the manager, not a subprocess pack: nothing to run locally\n',
    )
  })
  test('NAME not found: dirs the manager skips are named as skipped, with why', async () => {
    const r = await cli(['d1skill', '--no-audit', '--dirs', `rel/skills, ${R}/nope;${R}/d1`])
    assert.equal(r.code, 2)
    assert.equal(
      r.stderr,
      `ongrid-skill: no skill d1skill is registered from ${R}/d1; skipped: rel/skills (relative dirs are skipped, as the manager skips them), ${R}/nope (not present)\n`,
    )
  })

  // ── args ───────────────────────────────────────────────────────────────
  test('--arg is typed by the schema and sent as one object', async () => {
    const r = await cli([
      `${P}/cat`,
      '--no-audit',
      '--arg',
      'path=/tmp',
      '--arg',
      'n=3',
      '--arg',
      'f=1.5',
      '--arg',
      'b=true',
      '--arg',
      'tags=["a","b"]',
      '--arg',
      'o={"k":null}',
    ])
    assert.equal(r.code, 0, r.stderr)
    assert.equal(r.stdout, '{"path":"/tmp","n":3,"f":1.5,"b":true,"tags":["a","b"],"o":{"k":null}}')
  })
  test('--arg merges into --args; a value that does not fit its type is a usage error', async () => {
    const [m, bad] = await Promise.all([
      cli([`${P}/cat`, '--no-audit', '--args', '{"path":"/a","n":1}', '--arg', 'n=2']),
      cli([`${P}/cat`, '--no-audit', '--args', '{"path":"/a"}', '--arg', 'n=x']),
    ])
    assert.equal(m.stdout, '{"path":"/a","n":2}')
    assert.equal(bad.code, 2)
    assert.equal(bad.stderr, 'ongrid-skill: --arg n: "x" is not a valid integer\n')
  })
  test('--arg __proto__, constructor, prototype: keys like any other, to the entry’s stdin', async () => {
    const [own, merged, typed] = await Promise.all([
      cli([
        `${P}/free`,
        '--no-audit',
        '--arg',
        '__proto__=x',
        '--arg',
        'constructor=1',
        '--arg',
        'prototype={}',
      ]),
      cli([`${P}/free`, '--no-audit', '--args', '{"__proto__":{"a":1},"b":0}', '--arg', '__proto__=y']),
      cli([`${P}/proto`, '--no-audit', '--arg', '__proto__=7']),
    ])
    assert.equal(own.code, 0, own.stderr)
    assert.equal(own.stdout, '{"__proto__":"x","constructor":"1","prototype":"{}"}')
    assert.equal(merged.stdout, '{"__proto__":"y","b":0}')
    // Typed by the schema's property `__proto__`; ajv cannot check a schema naming it: said, and run.
    assert.equal(typed.code, 0, typed.stderr)
    assert.equal(typed.stdout, '{"__proto__":7}')
    assert.match(typed.stderr, /warning: the schema names a property "__proto__", which ajv cannot check/)
  })
  test('args that break the schema: exit 4 with JSON pointers, nothing runs', async () => {
    const path = db()
    const r = await cli([`${P}/cat`, '--audit-db', path, '--args', '{"n":0,"mode":"c","x":1,"tags":[1]}'])
    assert.equal(r.code, 4)
    assert.equal(r.stdout, '')
    const lines = r.stderr.trimEnd().split('\n')
    assert.deepEqual(lines.slice(0, -1).sort(), [
      'error: args/mode: must be equal to one of the allowed values: ["a","b"]',
      'error: args/n: must be >= 1',
      "error: args/path: must have required property 'path'",
      'error: args/tags/0: must be string',
      'error: args/x: is not allowed (additionalProperties: false)',
    ])
    assert.equal(lines.at(-1), '(the manager does not check args; --no-validate sends them as they are)')
    assert.equal(existsSync(path), false)
  })
  test('args piped without --args: read as the args, as the manager hands them over; --args wins, and says so', async () => {
    const file = join(R, 'piped-args.json')
    writeFileSync(file, '{"path":"/tmp"}\n')
    const HINT = 'hint: stdin was not read: --args and --args-file win over a piped stdin'
    const [piped, redirected, empty, devnull, asked, both] = await Promise.all([
      cli([`${P}/cat`, '--no-audit'], { sh: `printf '{"path":"/tmp"}' | "$0" "$@"` }),
      cli([`${P}/cat`, '--no-audit'], { sh: `"$0" "$@" < ${file}` }),
      cli([`${P}/cat`, '--no-audit'], { sh: `: | "$0" "$@"` }),
      cli([`${P}/cat`, '--no-audit'], { sh: `"$0" "$@" < /dev/null` }),
      cli([`${P}/cat`, '--no-audit', '--args-file', '-'], { sh: `printf '{"path":"/tmp"}' | "$0" "$@"` }),
      cli([`${P}/cat`, '--no-audit', '--args', '{}'], { sh: `printf '{"path":"/tmp"}' | "$0" "$@"` }),
    ])
    for (const r of [piped, redirected, asked]) assert.equal(r.code, 0, r.stderr)
    for (const r of [empty, devnull]) {
      assert.equal(r.code, 4, r.stderr)
      assert.doesNotMatch(r.stderr, /hint:/)
    }
    assert.equal(both.code, 4, both.stderr)
    assert.match(both.stderr, /^note: --args given: stdin is not read$/m)
    assert.deepEqual(both.stderr.trimEnd().split('\n').slice(-2), [
      '(the manager does not check args; --no-validate sends them as they are)',
      HINT,
    ])
  })
  test('--json: every failure is one document with the exit code, stderr keeps its line', async () => {
    const cases: [string[], number, RegExp][] = [
      [['nope', '--dirs', `${R}/d1`], 2, /^no skill nope is registered/],
      [[`${P}/cat`, '--args', '[1]'], 4, /^args: must be object$/],
      [[`${P}/cat`, '--arg', 'n=x'], 2, /^--arg n: "x" is not a valid integer$/],
      [[`${P}/bad`], 2, /^skill loader: build /],
      [[`${P}/free`, '--timeout', 'soon'], 2, /^--timeout: time: invalid duration/],
      [[`${P}/free`, '--role', 'Admin'], 2, /Admin/],
      [[`${P}/free`, '--no-such-flag'], 2, /no-such-flag/],
    ]
    const outs = await Promise.all(cases.map(([a]) => cli([...a, '--no-audit', '--json'])))
    cases.forEach(([a, code, message], k) => {
      const r = outs[k]
      assert.equal(r.code, code, a.join(' '))
      const doc = JSON.parse(r.stdout)
      assert.equal(doc.ok, false, a.join(' '))
      assert.equal(doc.exit_code, code, a.join(' '))
      assert.match(doc.error.message, message, a.join(' '))
      assert.ok(r.stderr.length > 0, a.join(' '))
    })
  })
  test('a top-level type error points at args itself', async () => {
    const r = await cli([`${P}/cat`, '--no-audit', '--args', '[1]'])
    assert.equal(r.code, 4)
    assert.match(r.stderr, /^error: args: must be object\n/)
  })
  test('--no-validate sends them as they are, as the manager does', async () => {
    const args = '{ "n" : 0, "x": 1 }'
    const r = await cli([`${P}/cat`, '--no-audit', '--no-validate', '--args', args])
    assert.equal(r.code, 0)
    assert.equal(r.stdout, args)
  })
  test('empty and invalid args: {} on stdin, or the manager’s invalid params text', async () => {
    const [empty, blank, unicode, bom, invalid] = await Promise.all([
      cli([`${P}/free`, '--no-audit']),
      cli([`${P}/free`, '--no-audit', '--args', ' \n ']),
      // Go's bytes.TrimSpace: U+00A0 and U+3000 are white space (the manager sends {}), U+FEFF is not.
      cli([`${P}/free`, '--no-audit', '--args', '\u00a0\u3000 ']),
      cli([`${P}/free`, '--no-audit', '--args', '\ufeff']),
      cli([`${P}/free`, '--no-audit', '--no-validate', '--args', '{"a":']),
    ])
    assert.deepEqual([empty.code, empty.stdout], [0, '{}'])
    assert.deepEqual([blank.code, blank.stdout], [0, '{}'])
    assert.deepEqual([unicode.code, unicode.stdout, unicode.stderr], [0, '{}', ''])
    assert.equal(bom.code, 2)
    assert.match(bom.stderr, /^ongrid-skill: --args: not valid JSON: invalid character/)
    assert.equal(invalid.code, 1)
    assert.equal(invalid.stderr, 'error: subprocess skill: invalid params JSON\n')
  })
  test('args that are not JSON are a usage error with the position (the skill never starts)', async () => {
    const [inline, json] = await Promise.all([
      cli([`${P}/free`, '--no-audit', '--args', '{"a":1,\n "b" 2}']),
      cli([`${P}/free`, '--no-audit', '--json', '--args', '{"a":']),
    ])
    assert.equal(inline.code, 2)
    assert.equal(inline.stdout, '')
    assert.equal(
      inline.stderr,
      "ongrid-skill: --args: not valid JSON: invalid character '2' after object key at byte 14 (line 2, column 6); --no-validate sends it as it is\n",
    )
    assert.equal(json.code, 2)
    assert.deepEqual(JSON.parse(json.stdout), {
      ok: false,
      exit_code: 2,
      command: 'run',
      schema_version: 1,
      error: {
        message:
          '--args: not valid JSON: unexpected end of JSON input at byte 5 (line 1, column 5); --no-validate sends it as it is',
        kind: 'usage',
      },
      manager_version: 'v0.13.4',
    })
  })
  test('--args-file (and - for stdin): bytes verbatim; 4 MiB to a child that never reads them', async () => {
    const big = `[${'1,'.repeat(2 * 1024 * 1024)}1]`
    const file = join(R, 'big.json')
    writeFileSync(file, big)
    const [deaf, piped, missing] = await Promise.all([
      cli([`${P}/deaf`, '--no-audit', '--args-file', file]),
      cli([`${P}/free`, '--no-audit', '--args-file', '-'], { input: '{"from":"stdin"}\n' }),
      cli([`${P}/free`, '--no-audit', '--args-file', join(R, 'none.json')]),
    ])
    assert.deepEqual([deaf.code, deaf.stdout], [0, '{"read":false}\n'])
    assert.deepEqual([piped.code, piped.stdout], [0, '{"from":"stdin"}\n'])
    assert.equal(missing.code, 2)
    assert.equal(
      missing.stderr,
      `ongrid-skill: --args-file ${join(R, 'none.json')}: no such file or directory\n`,
    )
  })

  // ── the REST class gate (--role) ───────────────────────────────────────
  const VIEWER = 'forbidden: viewer role cannot run mutating skills'
  const ROLE = 'forbidden: mutating skills require admin or user role'
  const SOP = 'forbidden: dangerous skills require SOP signature (not implemented)'
  const gate: [string, string, string | null][] = [
    // Allowed: every role on safe (the system role, the LLM's, stands for them), admin and user on mutating.
    ['safe', 'system', null],
    ['mutating', 'admin', null],
    ['mutating', 'user', null],
    ['mutating', 'viewer', VIEWER],
    ['mutating', 'system', ROLE],
    ['dangerous', 'admin', SOP],
    ['dangerous', 'user', SOP],
    ['dangerous', 'viewer', SOP],
    ['dangerous', 'system', SOP],
  ]
  for (const [cls, role, refusal] of gate) {
    test(`--role ${role} on a ${cls} skill: ${refusal ?? 'runs'}`, async () => {
      const path = db()
      const r = await cli([`${P}/${cls}`, '--role', role, '--audit-db', path, '-q'])
      if (refusal === null) {
        assert.deepEqual([r.code, r.stdout, r.stderr], [0, '{}\n', ''])
        assert.equal(rows(path).length, 1)
      } else {
        assert.equal(r.code, 5)
        assert.equal(r.stdout, '')
        assert.equal(r.stderr, `error: ${refusal}\n`)
        assert.equal(existsSync(path), false, 'no audit row for a refusal')
      }
    })
  }
  test('--role refusal with --json: the 403 as a document', async () => {
    const r = await cli([`${P}/mutating`, '--role', 'viewer', '--json', '--no-audit'])
    assert.equal(r.code, 5)
    assert.deepEqual(JSON.parse(r.stdout), {
      ok: false,
      exit_code: 5,
      command: 'run',
      schema_version: 1,
      error: { message: VIEWER, kind: 'forbidden', status: 403 },
      manager_version: 'v0.13.4',
    })
  })
  test('--role only takes the manager’s roles', async () => {
    const r = await cli([`${P}/safe`, '--role', 'Admin', '--no-audit'])
    assert.equal(r.code, 2)
    assert.equal(
      r.stderr,
      'ongrid-skill: --role: "Admin" is not one of admin, user, viewer, system\nhint: did you mean "admin"?\n',
    )
  })
  test('without --role, a mutating or dangerous skill runs, with a notice', async () => {
    const [m, d] = await Promise.all([
      cli([`${P}/mutating`, '--no-audit']),
      cli([`${P}/dangerous`, '--no-audit']),
    ])
    assert.equal(m.code, 0)
    assert.equal(
      m.stderr,
      'notice: mutating skills are never offered to the LLM; through the REST API only admin and user roles may run it (replay with --role).\n',
    )
    assert.equal(d.code, 0)
    assert.equal(
      d.stderr,
      'notice: dangerous skills are never offered to the LLM; through the REST API every role is refused (replay with --role).\n',
    )
  })

  // ── the environment ─────────────────────────────────────────────────────
  test('env_allow names from this environment only; empty values count; no PATH unless listed', async () => {
    const env = { A: '1', B: 'two words', EMPTY: '', SECRET: 'no' }
    const [r, p] = await Promise.all([
      cli([`${P}/env`, '--no-audit'], { env }),
      cli([`${P}/envpath`, '--no-audit'], { env }),
    ])
    assert.equal(r.code, 0)
    assert.deepEqual(JSON.parse(r.stdout), { A: '1', B: 'two words', EMPTY: '' })
    assert.deepEqual(JSON.parse(p.stdout), { PATH: process.env.PATH })
  })
  test('env_allow names absent from the environment: an empty environment', async () => {
    const r = await cli([`${P}/env`, '--no-audit'], { env: { A: undefined, B: undefined, EMPTY: undefined } })
    assert.deepEqual(JSON.parse(r.stdout), {})
  })
  test('--env-from (dotenv) replaces this environment', async () => {
    const file = join(R, 'manager.env')
    writeFileSync(
      file,
      '# the manager\nexport A=from-file\nB="quoted value"\nEMPTY=\nconstructor=c\nSECRET=s\n',
    )
    const r = await cli([`${P}/env`, '--no-audit', '--env-from', file], {
      env: { A: 'from-env', MISSING: 'x' },
    })
    assert.equal(r.code, 0)
    assert.deepEqual(JSON.parse(r.stdout), { A: 'from-file', B: 'quoted value', EMPTY: '', constructor: 'c' })
  })
  test('--env-from NUL-separated, like /proc/PID/environ (first of a repeated name wins)', async () => {
    const file = join(R, 'environ')
    writeFileSync(file, 'A=1\0B=x=y\0A=2\0PATH=/x\0')
    const r = await cli([`${P}/env`, '--no-audit', '--env-from', file])
    assert.deepEqual(JSON.parse(r.stdout), { A: '1', B: 'x=y' })
  })
  test('env values that are not UTF-8: a warning and env_altered, never a silent change', async () => {
    // Node cannot set such a value for its child: the shell does.
    const sh = (env: string, args: string[]) =>
      runCliSync(['run', ...args], { sh: `${env} exec "$0" "$@"`, cwd: R, encoding: 'latin1' })
    const bad = sh(`A="$(printf 'x\\377')" B=ok`, [`${P}/env`, '--no-audit'])
    assert.equal(bad.code, 0)
    assert.equal(JSON.parse(Buffer.from(bad.stdout, 'latin1').toString('utf8')).A, 'x\ufffd')
    assert.match(bad.stderr, /^warning: env A is not valid UTF-8: Node passes environment values as text/m)
    assert.doesNotMatch(bad.stderr, /env B/)
    const json = sh(`A="$(printf 'x\\377')"`, [`${P}/env`, '--no-audit', '--json'])
    assert.deepEqual(JSON.parse(json.stdout).env_altered, ['A'])
    const file = join(R, 'environ-bytes')
    writeFileSync(file, Buffer.from('A=\xff\0B=b\0', 'latin1'))
    const fromFile = sh('', [`${P}/env`, '--no-audit', '--json', '--env-from', file])
    assert.deepEqual(JSON.parse(fromFile.stdout).env_altered, ['A'])
    const dotenv = join(R, 'bytes.env')
    writeFileSync(dotenv, Buffer.from('A="\xe9t\xe9"\nB=caf\xc3\xa9\n', 'latin1'))
    const fromDotenv = sh('', [`${P}/env`, '--no-audit', '--json', '--env-from', dotenv])
    assert.deepEqual(JSON.parse(fromDotenv.stdout).env_altered, ['A'])
    const clean = await cli([`${P}/env`, '--no-audit', '--json'], { env: { A: 'é' } })
    assert.deepEqual(JSON.parse(clean.stdout).env_altered, [])
  })
  test('--env-from that cannot be read: a usage error', async () => {
    const missing = await cli([`${P}/env`, '--no-audit', '--env-from', join(R, 'nope.env')])
    assert.equal(
      missing.stderr,
      `ongrid-skill: --env-from ${join(R, 'nope.env')}: no such file or directory\n`,
    )
    assert.equal(missing.code, 2)
  })

  // ── the local audit store ───────────────────────────────────────────────
  test('a row per run: the manager’s columns, caller_role local, raw params, WAL', async () => {
    const path = db()
    const [ok, none, fail] = await Promise.all([
      cli([`${P}/ok`, '--audit-db', path, '--args', ' {"a" : 1}\n'], { env: { TZ: 'Asia/Kolkata' } }),
      cli([`${P}/free`, '--audit-db', path]),
      cli([`${P}/fail`, '--audit-db', path, '-q']),
    ])
    assert.deepEqual([ok.code, none.code, fail.code], [0, 0, 1])
    const all = rows(path)
    assert.equal(all.length, 3)
    const byKey = Object.fromEntries(all.map((r) => [r.skill_key, r]))
    const utc = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d{1,9})?\+00:00$/
    for (const r of all) {
      assert.deepEqual([r.edge_id, r.caller_id, r.caller_role, r.class], [0, 0, 'local', 'safe'])
      assert.match(String(r.started_at), utc)
      assert.match(String(r.finished_at), utc)
      assert.ok(String(r.started_at) <= String(r.finished_at))
    }
    assert.deepEqual(
      [byKey.ok.params_json, byKey.ok.result_json, byKey.ok.error],
      [' {"a" : 1}\n', '{"ok":true}\n\n', ''],
    )
    assert.match(String(byKey.ok.created_at), /\+05:30$/)
    // No args: the manager stores the params as given, '' (the child still got {}).
    assert.deepEqual([byKey.free.params_json, byKey.free.result_json], ['', '{}'])
    assert.deepEqual(
      [byKey.fail.result_json, byKey.fail.error],
      ['', 'subprocess skill fail: exit 7 (stderr: boom)'],
    )
    const d = new Database(path, { readonly: true })
    try {
      assert.equal(d.pragma('journal_mode'), 'wal')
    } finally {
      d.close()
    }
  })
  test('the default store is $XDG_STATE_HOME/ongrid-skill/audit.db; --no-audit writes nothing', async () => {
    const state = join(R, 'state')
    const quiet = join(R, 'state-quiet')
    await Promise.all([
      cli([`${P}/ok`], { env: { XDG_STATE_HOME: state } }),
      cli([`${P}/ok`, '--no-audit'], { env: { XDG_STATE_HOME: quiet } }),
    ])
    assert.equal(rows(join(state, 'ongrid-skill/audit.db')).length, 1)
    assert.equal(existsSync(quiet), false)
  })
  test('a store that cannot be opened is a warning, not a failure', async () => {
    const path = join(R, 'afile', 'audit.db')
    const [ok, fail] = await Promise.all([
      cli([`${P}/ok`, '--audit-db', path, '-q']),
      cli([`${P}/fail`, '--audit-db', path, '-q']),
    ])
    assert.equal(ok.code, 0)
    assert.equal(ok.stdout, '{"ok":true}\n\n')
    assert.match(ok.stderr, new RegExp(`^warning: audit store ${path}: .+ \\(run not recorded\\)\\n$`))
    assert.equal(fail.code, 1)
    assert.match(
      fail.stderr,
      /^warning: audit store .+ \(run not recorded\)\nerror: subprocess skill fail: exit 7/,
    )
  })
  test('8 runs at once lose no rows', async () => {
    const path = db()
    const runs = await Promise.all(
      Array.from({ length: 8 }, (_, i) => cli([`${P}/free`, '--audit-db', path, '--arg', `i=${i}`])),
    )
    assert.deepEqual(
      runs.map((r) => r.code),
      Array(8).fill(0),
    )
    assert.deepEqual(
      rows(path)
        .map((r) => r.params_json)
        .sort(),
      Array.from({ length: 8 }, (_, i) => `{"i":"${i}"}`).sort(),
    )
  })

  // ── interruption ────────────────────────────────────────────────────────
  test('SIGINT: the entry’s group is killed, exit 130', async () => {
    const m = marker('sigint')
    makeTree(R, {
      [`packs-int/${m}/skill.json`]: JSON.stringify({ name: 'int', description: 'd', entry: 'run.sh' }),
      [`packs-int/${m}/run.sh`]: {
        exec: `${SH}/bin/sh -c 'trap "" INT TERM; /bin/sleep 30; :' ${m} &\necho up >&2\n/bin/sleep 30\n`,
      },
    })
    let sent = false
    const r = await cli([join(R, 'packs-int', m), '--no-audit'], {
      onStderr: (child, text) => {
        if (!sent && text.includes('up\n')) {
          sent = true
          child.kill('SIGINT')
        }
      },
    })
    try {
      assert.equal(r.code, 130)
      assert.match(r.stderr, /error: subprocess skill int: exit -1 \(stderr: up\)\n$/)
      assert.deepEqual(await settle(() => aliveWithMarker(m)), [])
    } finally {
      killAll(aliveWithMarker(m))
    }
  })
})

describe('run on a terminal', () => {
  test('the live view where the terminal knows its width; plain stderr on one 0 columns wide', (t) => {
    if (spawnSync('script', ['--version']).status !== 0) {
      t.skip('script(1) not installed')
      return
    }
    const root = join(R, 'tty')
    tree('tty', {
      p: pack({ name: 'tty_pack' }, { exec: '#!/bin/sh\ncat >/dev/null\necho working >&2\necho "{}"\n' }),
    })
    const screen = (columns?: number) => {
      const r = runCliSync(['run', join(root, 'p'), '--no-audit'], {
        tty: true,
        columns,
        env: { TERM: 'xterm', NO_COLOR: '1' },
        timeoutMs: 60_000,
      })
      assert.equal(r.code, 0, r.stdout)
      return r.stdout.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '')
    }
    assert.match(screen(100), /⠿ tty_pack/)
    const plain = screen()
    assert.doesNotMatch(plain, /⠿/)
    assert.match(plain, /working\r?\n/)
  })
})
