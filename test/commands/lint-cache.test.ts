/**
 * `lint --cache` as a user runs it: the same bytes out with the cache cold, warm and without it,
 * in every format; a cache that is not this user's own is never read; a broken one is rewritten;
 * ShellCheck's results kept whatever the flags, and checked again when what they depend on changes.
 */
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs'
import { join } from 'node:path'
import { after, describe, test } from 'node:test'
import { type CliOptions, runCliSync } from '../helpers/cli.js'
import { HAVE_SHELLCHECK, shellcheckSkip } from '../helpers/shellcheck.js'
import { makeTree, manifest, tempRoot } from '../helpers/tree.js'

const T = tempRoot('ongrid-lint-cache-cli-')
after(T.cleanup)
const XDG = join(T.root, 'xdg')
mkdirSync(XDG, { mode: 0o700 })
const LINT_DIR = join(XDG, 'ongrid-skill', 'lint')
const SC_DIR = join(XDG, 'ongrid-skill', 'shellcheck')

makeTree(T.root, {
  // ShellCheck's findings, a secret in a README, a pattern, a case file, a name taken twice,
  // two tools alike: findings of kept rules and of rules that run every time.
  'skills/disk_free/skill.json': manifest({
    name: 'disk_free',
    description: 'Reports the free space of a filesystem, in bytes.',
    entry: 'run.sh',
    schema: { type: 'object', properties: { path: { type: 'string', pattern: '^(/[a-z]+)+$' } } },
  }),
  'skills/disk_free/run.sh': { exec: '#!/bin/sh\ndf -P $1\ncd /tmp\n' },
  'skills/disk_free/README.md': 'token: ghp_0123456789abcdefghijklmnopqrstuvwxyzAB\n',
  'skills/disk_free/tests/cases.json': JSON.stringify({ cases: [{ name: 'x', args: { path: 3 } }] }),
  'skills/disk_usage/skill.json': manifest({
    name: 'disk_usage',
    description: 'Reports the free space of a filesystem in bytes.',
    entry: 'run.py',
  }),
  'skills/disk_usage/run.py': { exec: '#!/usr/bin/env python3\nimport os\nos.system("df " + input())\n' },
  'skills/again/skill.json': manifest({ name: 'disk_free', description: 'Same name.', entry: 'run.sh' }),
  'skills/again/run.sh': { exec: '#!/bin/sh\necho {}\n' },
})

const env = { XDG_CACHE_HOME: XDG, NO_COLOR: '1' }
const lint = (args: string[], o: CliOptions = {}) =>
  runCliSync(['lint', 'skills', ...args], { cwd: T.root, env: { ...env, ...o.env } })
const out = (r: ReturnType<typeof lint>) => [r.code, r.stdout]
const lintFile = () => join(LINT_DIR, readdirSync(LINT_DIR).filter((n) => n.startsWith('lint-'))[0])

describe('lint --cache: the same output', () => {
  for (const format of ['stylish', 'json', 'sarif', 'github', 'junit']) {
    test(`--format ${format}: without the cache, cold and warm, byte for byte`, () => {
      rmSync(LINT_DIR, { recursive: true, force: true })
      const plain = lint(['--format', format])
      assert.equal(plain.code, 1, plain.stderr)
      const cold = lint(['--format', format, '--cache'])
      const warm = lint(['--format', format, '--cache'])
      assert.deepEqual(out(cold), out(plain))
      assert.deepEqual(out(warm), out(plain))
      assert.equal(cold.stderr + warm.stderr, '')
    })
  }

  test('warm: what the cache holds is what is said (the cache is read)', () => {
    rmSync(LINT_DIR, { recursive: true, force: true })
    const plain = lint(['--cache'])
    const file = lintFile()
    assert.equal(statSync(file).mode & 0o777, 0o600)
    const text = readFileSync(file, 'utf8')
    assert.match(text, /class is not set/)
    writeFileSync(file, text.replaceAll('class is not set', 'PLANTED class'))
    const r = lint(['--cache'])
    assert.match(r.stdout, /PLANTED class/)
    assert.doesNotMatch(lint([]).stdout, /PLANTED/)
    assert.match(plain.stdout, /class is not set/)
  })

  test('a cache file others may write, or a symlink, is not read: one line says so', () => {
    const plain = lint([])
    for (const plant of ['o+w', 'symlink'] as const) {
      rmSync(LINT_DIR, { recursive: true, force: true })
      lint(['--cache'])
      const file = lintFile()
      const planted = readFileSync(file, 'utf8').replaceAll('class is not set', 'PLANTED class')
      if (plant === 'o+w') {
        writeFileSync(file, planted)
        chmodSync(file, 0o666)
      } else {
        const elsewhere = join(T.root, 'planted.json')
        writeFileSync(elsewhere, planted, { mode: 0o600 })
        rmSync(file)
        symlinkSync(elsewhere, file)
      }
      const r = lint(['--cache'])
      assert.deepEqual(out(r), out(plain), plant)
      assert.match(
        r.stderr,
        plant === 'o+w'
          ? /^warning: cache file .*: writable by others \(mode 0666\): not trusted, not read\n$/
          : /^warning: cache file .*: a symbolic link: not trusted, not read\n$/,
      )
      // Replaced by a file of this user's own, which the next run trusts.
      assert.equal(statSync(file).mode & 0o777, 0o600)
      assert.equal(lint(['--cache']).stderr, '')
    }
  })

  test('a cache dir others may write is not used: one line says so', () => {
    const plain = lint([])
    lint(['--cache'])
    chmodSync(LINT_DIR, 0o777)
    try {
      const r = lint(['--cache'])
      assert.deepEqual(out(r), out(plain))
      assert.match(r.stderr, /^warning: .*lint: writable by .*: the lint cache is not used\n/)
    } finally {
      chmodSync(LINT_DIR, 0o700)
    }
  })

  test('a broken cache file: ignored and rewritten, never a crash', () => {
    const plain = lint([])
    lint(['--cache'])
    for (const junk of [
      '{"format":2,"packs":{"x":',
      '',
      '{"format":2,"packs":{"k":{"a":[{"at":"x"}]}}}',
      'null',
    ]) {
      writeFileSync(lintFile(), junk)
      const r = lint(['--cache'])
      assert.deepEqual(out(r), out(plain), junk)
      assert.equal(r.stderr, '')
      assert.equal(JSON.parse(readFileSync(lintFile(), 'utf8')).format, 2)
    }
  })

  test('--cache-location: a dir of the user’s own, made 0700; alone, a usage error', () => {
    const at = join(T.root, 'my-cache')
    const plain = lint([])
    const r = lint(['--cache', '--cache-location', at])
    assert.deepEqual(out(r), out(plain))
    assert.equal(statSync(at).mode & 0o777, 0o700)
    assert.equal(readdirSync(at).filter((n) => n.startsWith('lint-')).length, 1)
    const alone = lint(['--cache-location', at])
    assert.equal(alone.code, 2)
    assert.match(alone.stderr, /--cache-location .*give --cache with it/)
  })

  test('--fix and --stdin check afresh: no cache is read or written', () => {
    rmSync(LINT_DIR, { recursive: true, force: true })
    lint(['--cache', '--fix-dry-run'])
    const stdin = runCliSync(['lint', '--cache', '--stdin', '--stdin-filename', 'skills/x/skill.json'], {
      cwd: T.root,
      env,
      input: manifest({ name: 'x' }),
    })
    assert.equal(stdin.code, 1, stdin.stderr)
    assert.equal(existsSync(LINT_DIR), false)
  })
})

describe("ShellCheck's results, kept in this user's cache", () => {
  // A shellcheck that counts its runs, in front of the real one.
  const bin = join(T.root, 'bin')
  const count = join(T.root, 'runs')
  const scPath = () => `${bin}:${process.env.PATH}`
  const runs = () => (existsSync(count) ? readFileSync(count, 'utf8').length : 0)
  const lintSc = () => {
    const before = runs()
    const r = runCliSync(['lint', 'skills/disk_free', '--json'], {
      cwd: T.root,
      env: { ...env, PATH: scPath() },
    })
    return {
      runs: runs() - before,
      findings: JSON.parse(r.stdout)
        .files.flatMap((f: { findings: { rule_id: string }[] }) => f.findings.map((x) => x.rule_id))
        .filter((id: string) => id.startsWith('entry/SC')),
    }
  }

  test('a script seen before is not checked again; its bytes, its rc file, the program: checked again', {
    skip: shellcheckSkip(),
  }, () => {
    if (!HAVE_SHELLCHECK) return
    mkdirSync(bin, { recursive: true })
    const real = spawnSync('sh', ['-c', 'command -v shellcheck'], { encoding: 'utf8' }).stdout.trim()
    writeFileSync(join(bin, 'shellcheck'), `#!/bin/sh\nprintf x >> '${count}'\nexec '${real}' "$@"\n`, {
      mode: 0o755,
    })
    rmSync(SC_DIR, { recursive: true, force: true })
    const first = lintSc()
    assert.equal(first.runs, 1)
    assert.deepEqual(first.findings, ['entry/SC2086', 'entry/SC2164'])
    assert.deepEqual(lintSc(), { runs: 0, findings: first.findings })
    // The script changed.
    writeFileSync(join(T.root, 'skills/disk_free/run.sh'), '#!/bin/sh\ndf -P "$1"\ncd /tmp\n')
    assert.deepEqual(lintSc(), { runs: 1, findings: ['entry/SC2164'] })
    // An rc file ShellCheck reads (in the pack's dir).
    writeFileSync(join(T.root, 'skills/disk_free/.shellcheckrc'), 'disable=SC2164\n')
    assert.deepEqual(lintSc(), { runs: 1, findings: [] })
    assert.deepEqual(lintSc(), { runs: 0, findings: [] })
    rmSync(join(T.root, 'skills/disk_free/.shellcheckrc'))
    // Another shellcheck (its time changed).
    utimesSync(join(bin, 'shellcheck'), new Date(), new Date(Date.now() - 3600_000))
    assert.deepEqual(lintSc(), { runs: 1, findings: ['entry/SC2164'] })
    // A result others may write is not read.
    for (const f of readdirSync(SC_DIR)) chmodSync(join(SC_DIR, f), 0o666)
    const r = runCliSync(['lint', 'skills/disk_free'], { cwd: T.root, env: { ...env, PATH: scPath() } })
    assert.match(
      r.stderr,
      /^warning: cache file .*shellcheck\/.*: writable by others \(mode 0666\): not trusted, not read\n$/,
    )
    writeFileSync(join(T.root, 'skills/disk_free/run.sh'), '#!/bin/sh\ndf -P $1\ncd /tmp\n')
  })
})
