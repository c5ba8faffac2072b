import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { delimiter, dirname, join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { parse } from 'yaml'
import { REPO } from './helpers/cli.js'
import { goodPack, makeTree, packWith, tempRoot } from './helpers/tree.js'

/**
 * .pre-commit-hooks.yaml through pre-commit itself (Debian's package): `pre-commit try-repo`
 * takes a release's hooks as a user's config would and runs them on what a temp repository has
 * staged. `.ci/run` installs pre-commit and sets
 * ONGRID_REQUIRE_PRECOMMIT=1, so CI cannot skip this.
 */
const HAVE = spawnSync('pre-commit', ['--version'], { encoding: 'utf8' }).status === 0
const REQUIRED = process.env.ONGRID_REQUIRE_PRECOMMIT === '1'
if (!HAVE && REQUIRED) throw new Error('pre-commit is not installed (ONGRID_REQUIRE_PRECOMMIT=1)')
const skip = HAVE ? false : 'pre-commit is not installed: apt-get install pre-commit'

const HOOKS = parse(readFileSync(join(REPO, '.pre-commit-hooks.yaml'), 'utf8')) as {
  id: string
  files: string
  entry: string
  pass_filenames: boolean
}[]

const T = tempRoot('ongrid-pre-commit-')
after(T.cleanup)
const WORK = join(T.root, 'work')
// The user's Node lives under their home, as nvm puts it (pre-commit's own `language: node` would
// pass over it and have nodeenv download another); the system's older node comes later in PATH.
const HOME = join(T.root, 'home')
const NVM_NODE = join(HOME, '.nvm', 'versions', 'node', `v${process.versions.node}`)
mkdirSync(dirname(NVM_NODE), { recursive: true })
symlinkSync(dirname(dirname(process.execPath)), NVM_NODE)
// Another node and nodejs later in PATH, as a distribution's package puts them, stop the hooks if
// they run.
const SYSTEM_BIN = join(T.root, 'system-bin')
mkdirSync(SYSTEM_BIN)
for (const name of ['node', 'nodejs']) {
  writeFileSync(join(SYSTEM_BIN, name), '#!/bin/sh\necho "the system node ran" >&2\nexit 99\n', {
    mode: 0o755,
  })
}
const PRE_COMMIT_HOME = join(T.root, 'cache')
const env: NodeJS.ProcessEnv = {
  ...process.env,
  HOME,
  PATH: [join(NVM_NODE, 'bin'), SYSTEM_BIN, '/usr/local/bin', '/usr/bin', '/bin'].join(delimiter),
  PRE_COMMIT_HOME,
  GIT_AUTHOR_NAME: 't',
  GIT_AUTHOR_EMAIL: 't@example.com',
  GIT_COMMITTER_NAME: 't',
  GIT_COMMITTER_EMAIL: 't@example.com',
}
delete env.CI
delete env.NODE_OPTIONS
const git = (cwd: string, ...args: string[]) => {
  const r = spawnSync('git', args, { cwd, env, encoding: 'utf8' })
  assert.equal(r.status, 0, r.stderr)
  return r.stdout
}

/**
 * The hooks as a release's tag holds them: `scripts/release.mjs --ref` (the package as npm
 * installs it, with the hooks' files) committed and tagged in a repository of its own.
 */
const REF = join(T.root, 'ref')
function releaseRef(): void {
  const r = spawnSync(process.execPath, [join(REPO, 'scripts', 'release.mjs'), '--ref', REF], {
    encoding: 'utf8',
    timeout: 10 * 60_000,
  })
  assert.equal(r.status, 0, r.stderr)
  git(REF, 'init', '-q')
  git(REF, 'add', '-A', '-f', '.')
  git(REF, 'commit', '-q', '-m', 'release')
  git(REF, 'tag', 'v0.0.0-test')
}

/** All the hooks of `repo`, their output shown whether they pass or fail (--verbose). */
const tryRepo = (repo: string, ...hook: string[]) =>
  spawnSync('pre-commit', ['try-repo', repo, ...hook, '--verbose'], {
    cwd: WORK,
    env,
    encoding: 'utf8',
    timeout: 10 * 60_000,
  })

describe('.pre-commit-hooks.yaml', () => {
  test('three hooks on skill.json, SKILL.md and case files, their files passed', () => {
    assert.deepEqual(
      HOOKS.map((h) => h.id),
      ['ongrid-skill-validate', 'ongrid-skill-lint', 'ongrid-skill-test'],
    )
    for (const h of HOOKS) {
      const files = new RegExp(h.files)
      for (const f of ['skill.json', 'skills/a/skill.json', 'a/SKILL.md', 'skills/a/tests/cases.json']) {
        assert.ok(files.test(f), `${h.id} misses ${f}`)
      }
      for (const f of ['skills/a/run.sh', 'README.md', 'a/tests/deep/x.json', 'package.json']) {
        assert.ok(!files.test(f), `${h.id} takes ${f}`)
      }
      assert.equal(h.pass_filenames, true)
    }
  })
})

/**
 * One `pre-commit try-repo` of a release's tree runs all three hooks on what is staged: a new
 * pack the manager refuses, and a case added to a good pack. An old bad pack, committed before,
 * is not touched. Nothing is installed: no npm, no compiler, no Node of pre-commit's own.
 */
describe('pre-commit try-repo: a bad pack staged is refused with the manager’s text', { skip }, () => {
  let r: { status: number | null; stdout: string; stderr: string }
  before(() => {
    makeTree(WORK, {
      ...goodPack(),
      'skills/good/tests/cases.json': JSON.stringify([
        { name: 'says ok', args: {}, expect: { result: { ok: true } } },
      ]),
      ...packWith('skills/old_bad', { name: 'Old-Bad', description: 'Committed before the hooks.' }),
      'README.md': 'packs\n',
    })
    git(WORK, 'init', '-q')
    git(WORK, 'add', '.')
    git(WORK, 'commit', '-q', '-m', 'before the hooks')
    makeTree(WORK, {
      ...packWith('skills/bad', { name: 'Bad-Name', description: 'A name the manager refuses.' }),
      'skills/good/tests/cases.json': JSON.stringify([
        { name: 'says ok', args: {}, expect: { result: { ok: true } } },
        { name: 'says ok again', args: { x: 1 }, expect: { result: { ok: true } } },
      ]),
    })
    git(WORK, 'add', '.')
    releaseRef()
    r = tryRepo(REF)
  })

  test('the commit is refused: validate fails with the manager’s text, for the pack touched only', () => {
    assert.equal(r.status, 1, `${r.stdout}\n${r.stderr}`)
    assert.match(r.stdout, /ongrid-skill validate\.+Failed/)
    assert.match(r.stdout, /name "Bad-Name" must be lower_snake \[a-z0-9_\]/)
    assert.match(r.stdout, /skills\/bad\/skill\.json/)
    assert.doesNotMatch(r.stdout, /Old-Bad|old_bad/)
  })

  test('lint fails on it too', () => {
    assert.match(r.stdout, /ongrid-skill lint\.+Failed/)
  })

  test('nothing was installed for them: no Node environment, no npm', () => {
    const made = readdirSync(PRE_COMMIT_HOME, { recursive: true }) as string[]
    assert.deepEqual(
      made.filter((f) => /(^|\/)node_env-[^/]*$/.test(f)),
      [],
    )
  })

  test('test runs the cases of the pack whose case file changed (the dir above tests/), and passes', () => {
    assert.match(r.stdout, /ongrid-skill test\.+Passed/)
    assert.match(r.stdout, /says ok again/)
  })
})

describe('pre-commit try-repo of a revision that is not a release', { skip }, () => {
  test('one line says to pin a release tag; no traceback, no install', () => {
    const r = tryRepo(REPO, 'ongrid-skill-validate')
    assert.equal(r.status, 1, `${r.stdout}\n${r.stderr}`)
    assert.match(
      r.stdout,
      /^ongrid-skill: this revision holds no built package: set the hook's rev to a release tag \(vX\.Y\.Z\)$/m,
    )
    assert.doesNotMatch(r.stdout + r.stderr, /Traceback|nodeenv|npm (ERR|error)/)
  })
})
