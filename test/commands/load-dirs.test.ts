import assert from 'node:assert/strict'
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { after, before, describe, test } from 'node:test'
import { mkfifoSync } from '../core/lint/fifo.js'
import { runCliSync, startCli } from '../helpers/cli.js'
import { ECHO, makeTree, manifest, tempRoot } from '../helpers/tree.js'

function ongridSkill(args: string[], env: Record<string, string | undefined> = {}) {
  const r = runCliSync(args, { env, encoding: 'latin1' })
  return { code: r.code, stdout: r.stdout, stderr: r.stderr }
}

const cli = (args: string[], env: Record<string, string | undefined> = {}) =>
  ongridSkill(['load-dirs', ...args], env)

describe('ongrid-skill load-dirs', () => {
  let R = ''
  let cleanup = () => {}
  before(() => {
    ;({ root: R, cleanup } = tempRoot())
    makeTree(R, {
      'a/good/skill.json': manifest({ name: 'good' }),
      'a/good/run.sh': ECHO,
      'a/bad/skill.json': '{"name":"bad",}',
      'b/dup/skill.json': manifest({ name: 'good' }),
      'b/dup/run.sh': ECHO,
      'b/case/skill.json': '{"Name":"case_only","description":"d","entry":"run.sh"}',
      'b/case/run.sh': { file: 'echo no shebang\n', mode: 0o755 },
    })
  })
  after(() => cleanup())

  test('prints the loader lines on stdout and a summary on stderr', () => {
    const r = cli([`${R}/a`, `${R}/b`])
    assert.equal(r.code, 0)
    assert.equal(
      r.stdout,
      [
        `skill loader: parse ${R}/a/bad/skill.json: decode: invalid character '}' looking for beginning of object key string`,
        `skill loader: registered subprocess skill "good" from ${R}/a/good/skill.json`,
        `skill loader: registered subprocess skill "case_only" from ${R}/b/case/skill.json`,
        `skill loader: skill "good" already registered, skipping ${R}/b/dup/skill.json`,
        '',
      ].join('\n'),
    )
    assert.equal(r.stderr, '2 registered, 2 skipped (1 parse error, 1 duplicate name)\n')
  })

  test('takes dirs from ONGRID_SKILLS_EXTERNAL_DIRS split on , and ; only', () => {
    const r = cli([], { ONGRID_SKILLS_EXTERNAL_DIRS: ` ${R}/a ;; ${R}/none:${R}/b ,` })
    assert.equal(r.code, 0)
    assert.match(r.stdout, new RegExp(`skill loader: dir ${R}/none:${R}/b not present, skipping\n$`))
  })

  test('--log-format json prints slog records and the closing count', () => {
    const r = cli([`${R}/a`, '--log-format', 'json'])
    const lines = r.stdout.trimEnd().split('\n')
    assert.equal(lines.length, 3)
    const time = '"time":"\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d{1,9})?(Z|[+-]\\d\\d:\\d\\d)"'
    assert.match(
      lines[1],
      new RegExp(
        `^\\{${time},"level":"INFO","msg":"skill loader: registered subprocess skill \\\\"good\\\\" from ${R}/a/good/skill.json","service":"ongrid","comp":"skill-loader"\\}$`,
      ),
    )
    assert.match(
      lines[2],
      new RegExp(
        `^\\{${time},"level":"INFO","msg":"subprocess skills loaded","service":"ongrid","count":1\\}$`,
      ),
    )
  })

  test('--json gives one document with the loader lines and skills', () => {
    const r = cli([`${R}/a`, '--json'])
    assert.equal(r.code, 0)
    const doc = JSON.parse(r.stdout)
    assert.deepEqual(doc.dirs, [`${R}/a`])
    assert.equal(doc.count, 1)
    assert.deepEqual(
      doc.loader_lines.map((e: { kind: string }) => e.kind),
      ['parse-error', 'registered'],
    )
    assert.deepEqual(doc.skills[0], {
      name: 'good',
      manifest: `${R}/a/good/skill.json`,
      entry: `${R}/a/good/run.sh`,
      class: 'safe',
      category: 'external',
      timeout_ms: 30000,
      env_allow: null,
      schema_raw: null,
    })
  })

  test('--strict exits 1 when a manifest was rejected', () => {
    assert.equal(cli([`${R}/a`, '--strict']).code, 1)
    assert.equal(cli([`${R}/a/good`, '--strict']).code, 0)
  })

  test('dir names that are not UTF-8, as arguments or in the variable: the bytes given are walked', () => {
    const dir = Buffer.from(`${R}/caf\xe9`, 'latin1')
    const at = (rel: string) => Buffer.concat([dir, Buffer.from(rel)])
    mkdirSync(at('/p'), { recursive: true })
    writeFileSync(at('/p/skill.json'), manifest({ name: 'latin' }))
    writeFileSync(at('/p/run.sh'), ECHO.exec, { mode: 0o755 })
    const sh = (script: string) => runCliSync(['load-dirs'], { sh: script, encoding: 'latin1' })
    const want = `skill loader: registered subprocess skill "latin" from ${R}/caf\xe9/p/skill.json\n`
    const arg = sh(`exec "$0" "$@" "$(printf '${R}/caf\\351')"`)
    assert.deepEqual([arg.code, arg.stdout], [0, want])
    const env = sh(`ONGRID_SKILLS_EXTERNAL_DIRS="$(printf '${R}/caf\\351')" exec "$0" "$@"`)
    assert.deepEqual([env.code, env.stdout], [0, want])
    // run finds it by name there too, and says that Node cannot spawn its entry by those bytes.
    const run = runCliSync(['run', 'latin', '--no-audit'], {
      sh: `exec "$0" "$@" --dirs "$(printf '${R}/caf\\351')"`,
      encoding: 'latin1',
    })
    assert.match(run.stderr, /^warning: the entry path .* is not valid UTF-8: Node spawns by a text path/m)
    // and as a PACK path: the pack is built from those bytes.
    const pack = runCliSync(['run', '--no-audit'], {
      sh: `exec "$0" "$@" "$(printf '${R}/caf\\351/p')"`,
      encoding: 'latin1',
    })
    assert.match(pack.stderr, /^warning: the entry path .* is not valid UTF-8: Node spawns by a text path/m)
  })

  test('skill.json that never ends (/dev/zero): lines before it, no crash, the boot stops there', () => {
    makeTree(R, {
      'z/a/skill.json': manifest({ name: 'za' }),
      'z/a/run.sh': ECHO,
      'z/b/run.sh': ECHO,
      'z/c/skill.json': manifest({ name: 'zc' }),
      'z/c/run.sh': ECHO,
    })
    symlinkSync('/dev/zero', `${R}/z/b/skill.json`)
    const r = cli([`${R}/z`, '--explain'])
    assert.equal(r.code, 0)
    assert.equal(r.stdout, `skill loader: registered subprocess skill "za" from ${R}/z/a/skill.json\n`)
    assert.match(
      r.stderr,
      new RegExp(`hint: ${R}/z/b/skill.json does not end .*the manager would read it forever`),
    )
    assert.match(r.stderr, /1 registered, 0 skipped; the manager's boot never gets past .*z\/b\/skill\.json/)
    assert.equal(cli([`${R}/z`, '--strict']).code, 1)
    assert.equal(JSON.parse(cli([`${R}/z`, '--json']).stdout).stopped_at, `${R}/z/b/skill.json`)
  })

  test('a FIFO named skill.json: every line before it printed, --explain names it, then it is read as the manager reads it', async () => {
    makeTree(R, {
      'f/a/skill.json': manifest({ name: 'fa' }),
      'f/a/run.sh': ECHO,
      'f/b/run.sh': ECHO,
    })
    mkfifoSync(`${R}/f/b/skill.json`)
    const child = startCli(['load-dirs', `${R}/f`, '--explain'], { stdin: 'open' })
    let out = ''
    let err = ''
    child.stdout.on('data', (c) => {
      out += c
    })
    const blocked = new Promise<void>((resolve) =>
      child.stderr.on('data', (c) => {
        err += c
        if (err.includes('is a FIFO')) resolve()
      }),
    )
    let closed = false
    const done = new Promise<number | null>((resolve) =>
      child.on('close', (code) => {
        closed = true
        resolve(code)
      }),
    )
    // Never a hung test: the replay is killed after 20 s, which fails the checks below.
    const guard = setTimeout(() => child.kill('SIGKILL'), 20_000)
    await Promise.race([blocked, done])
    // No hint: still open the FIFO (as a writer would), so that nothing stays blocked.
    if (!err.includes('is a FIFO') && !closed) writeFileSync(`${R}/f/b/skill.json`, '{}')
    // Blocked on the FIFO: the line before it is out already.
    assert.equal(out, `skill loader: registered subprocess skill "fa" from ${R}/f/a/skill.json\n`)
    assert.match(err, new RegExp(`hint: ${R}/f/b/skill.json is a FIFO: the manager's boot blocks reading it`))
    writeFileSync(`${R}/f/b/skill.json`, manifest({ name: 'fb' }))
    assert.equal(await done, 0)
    clearTimeout(guard)
    assert.match(out, /registered subprocess skill "fb" from .*\/f\/b\/skill\.json\n$/)
  })

  test('a manifest of any size is judged as the manager judges it (20 MiB, valid: registered)', () => {
    makeTree(R, {
      'big/p/skill.json': manifest({ name: 'big', description: 'x'.repeat(20 * 1024 * 1024) }),
      'big/p/run.sh': ECHO,
    })
    const r = cli([`${R}/big`])
    assert.equal(r.stdout, `skill loader: registered subprocess skill "big" from ${R}/big/p/skill.json\n`)
  })

  test('--json failures: one document with the message and the exit code', () => {
    for (const args of [['--json'], [`${R}/a`, '--json', '--log-format', 'xml']]) {
      const r = cli(args)
      assert.equal(r.code, 2, args.join(' '))
      const doc = JSON.parse(r.stdout)
      assert.deepEqual([doc.ok, doc.exit_code], [false, 2], args.join(' '))
    }
  })

  test('--strict exits 1 when a dir is skipped or a walk fails: nothing there was judged', () => {
    makeTree(R, { 'plain.txt': 'x', 'locked/p/skill.json': manifest({ name: 'locked' }) })
    for (const skipped of ['rel/dir', `${R}/missing`, `${R}/plain.txt`]) {
      const r = cli([`${R}/a/good`, skipped, '--strict'])
      assert.equal(r.code, 1, skipped)
      assert.equal(cli([`${R}/a/good`, skipped]).code, 0, skipped)
    }
    if (process.getuid?.() !== 0) {
      chmodSync(`${R}/locked`, 0)
      try {
        assert.equal(cli([`${R}/locked`, '--strict']).code, 1)
      } finally {
        chmodSync(`${R}/locked`, 0o755)
      }
    }
  })

  test('--explain hints at causes the manager does not state', () => {
    const r = cli([`${R}/b`, `${R}/a`, 'rel/dir', '--explain'])
    assert.match(r.stderr, /key "Name" was read as "name"/)
    assert.match(r.stderr, /has no "#!" line/)
    assert.match(r.stderr, /was first registered from/)
  })

  test('--no-builtins and --builtins change the pre-seeded keys', () => {
    makeTree(R, { 'c/web/skill.json': manifest({ name: 'web_search' }), 'c/web/run.sh': ECHO })
    assert.match(cli([`${R}/c`]).stdout, /already registered/)
    assert.match(cli([`${R}/c`, '--no-builtins']).stdout, /registered subprocess skill "web_search"/)
    assert.match(cli([`${R}/c`, '--builtins', 'x,y']).stdout, /registered subprocess skill "web_search"/)
  })

  test('no dirs at all is a one-line usage error, exit 2', () => {
    const r = cli([])
    assert.equal(r.code, 2)
    assert.equal(r.stderr.split('\n').length, 2)
    assert.match(r.stderr, /^ongrid-skill: no dirs: pass DIR arguments or set ONGRID_SKILLS_EXTERNAL_DIRS/)
  })

  test('an unknown flag is a one-line usage error and a hint, exit 2', () => {
    const r = cli([`${R}/a`, '--bogus'])
    assert.equal(r.code, 2)
    assert.equal(r.stderr, 'ongrid-skill: unknown flag --bogus\nhint: see `ongrid-skill load-dirs --help`\n')
    const near = cli([`${R}/a`, '--builtin'])
    assert.equal(near.stderr, 'ongrid-skill: unknown flag --builtin\nhint: did you mean --builtins?\n')
  })

  test('--version answers without loading commands', () => {
    const r = ongridSkill(['--version'])
    assert.equal(r.code, 0)
    assert.match(r.stdout, /^ongrid-skill\/\d+\.\d+\.\d+ linux-\w+ node-v\d+/)
  })
})
