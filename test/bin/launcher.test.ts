import assert from 'node:assert/strict'
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, describe, test } from 'node:test'
import { Script } from 'node:vm'
import { trustedCas } from '../../src/core/audit/db.js'
import { REPO, runCliSync } from '../helpers/cli.js'
import { entrylessPacks } from '../helpers/tree.js'

// bin/run.js as users start it: as a program (through its #!/bin/sh line), and as `node bin/run.js`.
const NODE_MAJOR = Number(process.versions.node.split('.')[0])
const TMP = mkdtempSync(join(tmpdir(), 'ongrid-launcher-'))
after(() => rmSync(TMP, { recursive: true, force: true }))

function start(how: 'program' | 'node', args: string[], env: Record<string, string | undefined>) {
  const r = runCliSync(args, { program: how === 'program', env })
  return { code: r.code, stdout: r.stdout, stderr: r.stderr }
}

/** A pack whose entry prints the two CA variables it was given (env_allow passes both names). */
function caPack(): string {
  const dir = join(TMP, 'ca_env')
  mkdirSync(dir, { recursive: true })
  writeFileSync(
    join(dir, 'skill.json'),
    JSON.stringify({
      name: 'ca_env',
      description: 'prints the CA variables',
      entry: 'run.sh',
      timeout_seconds: 10,
      env_allow: ['NODE_EXTRA_CA_CERTS', 'ONGRID_SKILL_EXTRA_CA_CERTS'],
    }),
  )
  writeFileSync(
    join(dir, 'run.sh'),
    [
      '#!/bin/sh',
      'cat >/dev/null',
      // sh's ${VAR-unset}: the value, also when empty; "unset" when the variable is not set.
      `printf '{"ca":"%s","moved":"%s"}' "\${NODE_EXTRA_CA_CERTS-unset}" "\${ONGRID_SKILL_EXTRA_CA_CERTS-unset}"`,
      '',
    ].join('\n'),
  )
  chmodSync(join(dir, 'run.sh'), 0o755)
  return dir
}

const CLEAN = `✔ 1 file checked (1 manifest): no problems\nroot: ${join(REPO, 'examples/skills')} (assumed; --root to set it)\n`

const baseEnv = (): Record<string, string | undefined> => ({
  NODE_EXTRA_CA_CERTS: undefined,
  ONGRID_SKILL_EXTRA_CA_CERTS: undefined,
})

describe('bin/run.js', () => {
  test('runs the fast path from the bundle, with a code cache V8 accepts (Node 20)', {
    skip: NODE_MAJOR >= 22 && 'Node 22 and later use their compile cache',
  }, () => {
    for (const how of ['program', 'node'] as const) {
      const r = start(how, ['validate', join(REPO, 'examples/skills/disk_usage')], {
        ...baseEnv(),
        ONGRID_SKILL_DEBUG_LOAD: '1',
      })
      assert.equal(r.code, 0, r.stderr)
      assert.match(
        r.stderr,
        /^ongrid-skill: fast path from dist\/bundle\/fast-lint\.js, code cache accepted$/m,
      )
      assert.equal(
        r.stdout,
        `✔ 1 file checked (1 manifest): no problems\nroot: ${join(REPO, 'examples/skills')} (assumed; --root to set it)\n`,
      )
    }
  })

  test('runs the fast path from the bundle, kept in Node’s compile cache (Node 22 and later)', {
    skip: NODE_MAJOR < 22 && 'Node 20 has no compile cache',
  }, () => {
    const cache = join(TMP, 'compile-cache')
    for (const how of ['program', 'node'] as const) {
      const r = start(how, ['validate', join(REPO, 'examples/skills/disk_usage')], {
        ...baseEnv(),
        ONGRID_SKILL_DEBUG_LOAD: '1',
        NODE_COMPILE_CACHE: cache,
      })
      assert.equal(r.code, 0, r.stderr)
      // Until its own is made, the build's: made under the flags the launcher gives node, which
      // `node bin/run.js` does not (Node 22's V8 then rejects it).
      const built = how === 'program' ? 'accepted' : '(accepted|rejected)'
      assert.match(
        r.stderr,
        new RegExp(
          `^ongrid-skill: fast path from dist/bundle/fast-lint\\.js, own code cache (missing, the build's ${built}|accepted)$`,
          'm',
        ),
      )
      assert.equal(r.stdout, CLEAN)
    }
    // One dir per Node version, holding the bundle's compiled code (and its modules').
    const [dir] = readdirSync(cache)
    assert.match(dir ?? '', new RegExp(`^v${process.versions.node}-`))
    assert.ok(readdirSync(join(cache, dir as string)).length > 0)
    // Without NODE_COMPILE_CACHE it is the launcher that turns it on: in the user's cache dir
    // ($XDG_CACHE_HOME, else ~/.cache), never in the OS temp dir, where Node would put it.
    const tmp = join(TMP, 'tmpdir')
    mkdirSync(tmp)
    for (const [xdg, where] of [
      [undefined, join(TMP, 'home', '.cache')],
      [join(TMP, 'xdg-cache'), join(TMP, 'xdg-cache')],
    ] as const) {
      const byLauncher = start('program', ['validate', join(REPO, 'examples/skills/disk_usage')], {
        ...baseEnv(),
        NODE_COMPILE_CACHE: undefined,
        NODE_DISABLE_COMPILE_CACHE: undefined,
        TMPDIR: tmp,
        HOME: join(TMP, 'home'),
        XDG_CACHE_HOME: xdg,
      })
      assert.equal(byLauncher.code, 0, byLauncher.stderr)
      const cacheDir = join(where, 'ongrid-skill', 'compile-cache')
      assert.equal(statSync(cacheDir).mode & 0o777, 0o700)
      const [own] = readdirSync(cacheDir)
      assert.match(own ?? '', new RegExp(`^v${process.versions.node}-`))
      assert.ok(readdirSync(join(cacheDir, own as string)).length > 0)
    }
    assert.deepEqual(readdirSync(tmp), [])
    // Under umask 000 too, no dir of the cache is writable by anyone else (Node makes its own
    // per-version dir 0777 less the umask).
    const open = join(TMP, 'umask-home')
    const r = runCliSync(['validate', join(REPO, 'examples/skills/disk_usage')], {
      program: true,
      sh: 'umask 000; exec "$0" "$@"',
      env: { ...baseEnv(), NODE_COMPILE_CACHE: undefined, XDG_CACHE_HOME: undefined, HOME: open },
    })
    assert.equal(r.code, 0, r.stderr)
    const perNode = join(open, '.cache', 'ongrid-skill', 'compile-cache')
    for (const d of [perNode, ...readdirSync(perNode).map((v) => join(perNode, v))])
      assert.equal(statSync(d).mode & 0o022, 0, `${d}: mode ${(statSync(d).mode & 0o777).toString(8)}`)
    // Turned off, the bundle still runs, and the launcher keeps no cache of its own either.
    const offDir = join(TMP, 'off-tmpdir')
    mkdirSync(offDir)
    const off = start('program', ['validate', join(REPO, 'examples/skills/disk_usage')], {
      ...baseEnv(),
      ONGRID_SKILL_DEBUG_LOAD: '1',
      NODE_COMPILE_CACHE: undefined,
      NODE_DISABLE_COMPILE_CACHE: '1',
      TMPDIR: offDir,
      HOME: offDir,
    })
    assert.equal(off.code, 0, off.stderr)
    assert.match(off.stderr, /^ongrid-skill: no compile cache: NODE_DISABLE_COMPILE_CACHE is set$/m)
    assert.match(off.stderr, /code cache accepted$/m)
    assert.deepEqual(readdirSync(offDir), [])
  })

  test('a code cache of its own per command, made after the first run: read only when safe', {
    skip: NODE_MAJOR < 22 && 'Node 20 has no compile cache',
  }, () => {
    const cacheRoot = join(TMP, 'own-cache')
    const env = { ...baseEnv(), ONGRID_SKILL_DEBUG_LOAD: '1', NODE_COMPILE_CACHE: cacheRoot }
    const validate = () => {
      const r = start('program', ['validate', join(REPO, 'examples/skills/disk_usage')], env)
      assert.equal(r.code, 0, r.stderr)
      assert.equal(r.stdout, CLEAN)
      const how = /own code cache (\w+)(, the build's accepted)?$/m.exec(r.stderr)
      assert.ok(how, r.stderr)
      // Until its own is made, a command takes the build's (made by the Node that runs the tests).
      assert.equal(how[1] === 'missing', how[2] !== undefined, r.stderr)
      return how[1]
    }
    assert.equal(validate(), 'missing')
    const hash = /^\/\/ ongrid-skill bundle ([0-9a-f]{16})\n/.exec(
      readFileSync(join(REPO, 'dist/bundle/fast.js'), 'utf8'),
    )?.[1]
    assert.ok(hash, 'the bundle names its content on its first line')
    const [versionDir] = readdirSync(cacheRoot)
    const dir = join(cacheRoot, versionDir as string)
    const file = join(dir, `ongrid-skill-${hash}-validate.cache`)
    assert.equal(statSync(file).mode & 0o777, 0o600)
    assert.equal(validate(), 'accepted')

    // Another command has its own; one that oclif answers (help) keeps none.
    const run = start('program', ['run', caPack(), '--no-audit'], env)
    assert.equal(run.code, 0, run.stderr)
    // From the bundle of every command; validate and lint from theirs (scripts/bundle.mjs, BUNDLES).
    assert.match(
      run.stderr,
      /^ongrid-skill: fast path from dist\/bundle\/fast\.js, own code cache missing, the build's accepted$/m,
    )
    assert.ok(statSync(join(dir, `ongrid-skill-${hash}-run.cache`)).isFile())
    const help = start('program', ['lint', '--help'], env)
    assert.equal(help.code, 0, help.stderr)
    assert.deepEqual(
      readdirSync(dir)
        .filter((n) => n.startsWith('ongrid-skill-'))
        .sort(),
      [`ongrid-skill-${hash}-run.cache`, `ongrid-skill-${hash}-validate.cache`],
    )

    // Bytes V8 does not take: rejected, the command answers the same, the cache is made again.
    writeFileSync(file, Buffer.alloc(4096, 7), { mode: 0o600 })
    assert.equal(validate(), 'rejected')
    assert.equal(validate(), 'accepted')

    // A file others may write is never read (it could be anyone's code), and is replaced.
    chmodSync(file, 0o620)
    assert.equal(validate(), 'missing')
    assert.equal(statSync(file).mode & 0o777, 0o600)
    assert.equal(validate(), 'accepted')

    // A symlink in its place is not followed, and its target is left as it was.
    const target = join(TMP, 'not-a-cache')
    writeFileSync(target, 'keep me')
    rmSync(file)
    symlinkSync(target, file)
    assert.equal(validate(), 'missing')
    assert.equal(readFileSync(target, 'utf8'), 'keep me')
    assert.ok(lstatSync(file).isFile())

    // Caches of other bundles (other versions of the package) when a new one is written: the most
    // recently written one stays (two installs used in turn keep theirs), older ones go.
    const older = join(dir, 'ongrid-skill-0123456789abcdef-validate.cache')
    const olderRun = join(dir, 'ongrid-skill-0123456789abcdef-run.cache')
    const recent = join(dir, 'ongrid-skill-fedcba9876543210-validate.cache')
    for (const f of [older, olderRun, recent]) writeFileSync(f, 'other', { mode: 0o600 })
    const day = Date.now() / 1000 - 86400
    utimesSync(older, day, day)
    utimesSync(olderRun, day, day)
    rmSync(file)
    assert.equal(validate(), 'missing')
    assert.equal(existsSync(older), false)
    assert.equal(existsSync(olderRun), false)
    assert.equal(readFileSync(recent, 'utf8'), 'other')
    assert.equal(validate(), 'accepted')
  })

  test('the build’s code cache holds what the commands it ran compiled, not only the bundle’s top level', () => {
    // fast-lint's runs (lint and validate) compile three times its top level; fast's (load-dirs) a third.
    for (const [name, ratio] of [
      ['fast', 1.2],
      ['fast-lint', 2],
    ] as const) {
      const file = join(REPO, 'dist', 'bundle', `${name}.js`)
      const topLevel = new Script(readFileSync(file, 'latin1'), { filename: file }).createCachedData().length
      const built = statSync(join(REPO, 'dist', 'bundle', `${name}.cache`)).size
      assert.ok(built > ratio * topLevel, `${name}.cache: ${built} bytes, the top level alone ${topLevel}`)
    }
  })

  test('NODE_EXTRA_CA_CERTS: kept from Node’s startup, given back unchanged to what runs', () => {
    const pack = caPack()
    const missing = join(TMP, 'no-such-ca.pem')
    const env = { ...baseEnv(), NODE_EXTRA_CA_CERTS: missing }
    const program = start('program', ['run', pack, '--no-audit'], env)
    assert.equal(program.code, 0, program.stderr)
    assert.deepEqual(JSON.parse(program.stdout), { ca: missing, moved: 'unset' })
    // Node warns at startup when it cannot read the file; started as a program, it never sees it.
    assert.doesNotMatch(program.stderr, /extra certs/i)
    // As `node bin/run.js`, the variable passes as it is. Node 20 has read it already (and
    // warned); Node 22 and later read it only when TLS first needs it.
    const node = start('node', ['run', pack, '--no-audit'], env)
    assert.equal(node.code, 0, node.stderr)
    assert.deepEqual(JSON.parse(node.stdout), { ca: missing, moved: 'unset' })
    if (NODE_MAJOR < 22) assert.match(node.stderr, /Ignoring extra certs/)
    else assert.doesNotMatch(node.stderr, /extra certs/i)
    // Set but empty, and unset, stay so.
    const empty = start('program', ['run', pack, '--no-audit'], { ...baseEnv(), NODE_EXTRA_CA_CERTS: '' })
    assert.deepEqual(JSON.parse(empty.stdout), { ca: '', moved: 'unset' })
    const unset = start('program', ['run', pack, '--no-audit'], baseEnv())
    assert.deepEqual(JSON.parse(unset.stdout), { ca: 'unset', moved: 'unset' })
  })

  test('NODE_COMPILE_CACHE: hidden from Node’s startup, given back unchanged to what runs', () => {
    const dir = join(TMP, 'cc_env')
    mkdirSync(dir, { recursive: true })
    writeFileSync(
      join(dir, 'skill.json'),
      JSON.stringify({
        name: 'cc_env',
        description: 'prints the compile cache variables',
        entry: 'run.sh',
        timeout_seconds: 10,
        env_allow: ['NODE_COMPILE_CACHE', 'ONGRID_SKILL_COMPILE_CACHE'],
      }),
    )
    writeFileSync(
      join(dir, 'run.sh'),
      `#!/bin/sh\ncat >/dev/null\nprintf '{"cc":"%s","moved":"%s"}' "\${NODE_COMPILE_CACHE-unset}" "\${ONGRID_SKILL_COMPILE_CACHE-unset}"\n`,
    )
    chmodSync(join(dir, 'run.sh'), 0o755)
    const cache = join(TMP, 'cc-given-back')
    for (const [value, cc] of [
      [cache, cache],
      ['', ''],
      [undefined, 'unset'],
    ] as const) {
      const r = start('program', ['run', dir, '--no-audit'], { ...baseEnv(), NODE_COMPILE_CACHE: value })
      assert.equal(r.code, 0, r.stderr)
      assert.deepEqual(JSON.parse(r.stdout), { cc, moved: 'unset' })
    }
  })

  test('node:child_process is loaded only by a command that spawns (scripts/bundle.mjs, LAZY_BUILTINS)', () => {
    const probe = join(TMP, 'builtins-probe.cjs')
    writeFileSync(
      probe,
      "process.on('exit', () => require('node:fs').writeSync(2, '\\nloaded: ' + process.moduleLoadList.filter((m) => /^NativeModule child_process$/.test(m)).join(',') + '\\n'))\n",
    )
    const loaded = (args: string[], env: Record<string, string> = {}) => {
      const r = start('program', args, { ...baseEnv(), NODE_OPTIONS: `--require=${probe}`, ...env })
      return { code: r.code, stdout: r.stdout, loaded: /\nloaded: (.*)\n$/.exec(r.stderr)?.[1] }
    }
    const v = loaded(['validate', join(REPO, 'examples/skills/disk_usage')])
    assert.deepEqual(v, { code: 0, stdout: CLEAN, loaded: '' })
    const py = join(TMP, 'py', 'uptime_py')
    mkdirSync(py, { recursive: true })
    writeFileSync(
      join(py, 'skill.json'),
      JSON.stringify({
        name: 'uptime_py',
        description: 'Report how long the host has been up.',
        entry: 'run.py',
      }),
    )
    writeFileSync(join(py, 'run.py'), '#!/usr/bin/env python3\nprint("{}")\n', { mode: 0o755 })
    const l = loaded(['lint', py, '--quiet'])
    assert.equal(l.loaded, '', l.stdout)
    // A shell entry is given to ShellCheck: the module is there when it is needed (a cache of
    // its own, so that ShellCheck's result is not already kept).
    const cache = join(TMP, 'builtins-probe-cache')
    mkdirSync(cache, { recursive: true, mode: 0o700 })
    assert.equal(
      loaded(['lint', join(REPO, 'examples/skills/disk_usage')], { XDG_CACHE_HOME: cache }).loaded,
      'NativeModule child_process',
    )
  })

  test('a reader that goes away (| head) ends the output quietly, no stack trace', () => {
    const dir = entrylessPacks(join(TMP, 'many'), 400)
    const r = runCliSync(['load-dirs', dir], {
      program: true,
      sh: '"$0" "$@" --json | head -c 1',
      env: baseEnv(),
    })
    assert.equal(r.code, 0)
    assert.equal(r.stdout, '{')
    assert.doesNotMatch(r.stderr, /EPIPE|Error|\n {4}at /)
  })

  test('--version to a reader already gone: exit 0, nothing on stderr', () => {
    // The launcher writes the line straight to fd 1 (no stream): EPIPE must still end it quietly.
    const r = runCliSync(['--version'], {
      program: true,
      sh: '{ sleep 0.3; "$0" "$@"; echo "exit $?" >&2; } | :',
      env: baseEnv(),
    })
    assert.equal(r.stderr, 'exit 0\n')
  })

  test('--version, help through oclif, and bin/dev.js', () => {
    const v = start('program', ['--version'], baseEnv())
    assert.match(v.stdout, /^ongrid-skill\/\d+\.\d+\.\d+ \S+ node-v\d+\S* \(ongrid manager v0\.13\.4\)\n$/)
    // `version` says the same, without the launcher's shortcut when a flag follows.
    assert.equal(start('program', ['version'], baseEnv()).stdout, v.stdout)
    const help = start('program', ['run', '--help'], baseEnv())
    assert.equal(help.code, 0, help.stderr)
    assert.match(help.stdout, /^USAGE\n {2}\$ ongrid-skill run /m)
    const dev = runCliSync(['--version'], { program: true, bin: join(REPO, 'bin', 'dev.js'), env: baseEnv() })
    assert.equal(dev.code, 0, dev.stderr)
    // oclif's own --version (bin/dev.js): its user agent, which the launcher's line starts with.
    assert.equal(`${dev.stdout.trimEnd()} (ongrid manager v0.13.4)\n`, v.stdout)
  })
})

describe('trustedCas (MySQL over TLS)', () => {
  test('Node’s roots plus the NODE_EXTRA_CA_CERTS file; Node’s default when unset or unreadable', () => {
    const pem = join(TMP, 'extra.pem')
    writeFileSync(pem, '-----BEGIN CERTIFICATE-----\nAA==\n-----END CERTIFICATE-----\n')
    assert.deepEqual(trustedCas({ NODE_EXTRA_CA_CERTS: pem }, ['root1', 'root2']), [
      'root1',
      'root2',
      '-----BEGIN CERTIFICATE-----\nAA==\n-----END CERTIFICATE-----\n',
    ])
    assert.equal(trustedCas({}, ['root1']), undefined)
    assert.equal(trustedCas({ NODE_EXTRA_CA_CERTS: '' }, ['root1']), undefined)
    assert.equal(trustedCas({ NODE_EXTRA_CA_CERTS: join(TMP, 'absent.pem') }, ['root1']), undefined)
  })
})
