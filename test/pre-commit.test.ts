import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdirSync, readFileSync, symlinkSync } from 'node:fs'
import { delimiter, join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { parse } from 'yaml'
import { REPO } from './helpers/cli.js'
import { goodPack, makeTree, packWith, tempRoot } from './helpers/tree.js'

/**
 * .pre-commit-hooks.yaml through pre-commit itself (Debian's package): `pre-commit try-repo`
 * installs this repository's hooks as a user's config would (language: node, npm) and runs
 * them on what a temp repository has staged. `.ci/run` installs pre-commit and sets
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
// pre-commit uses the node on PATH only outside the home dir (else nodeenv downloads one), and
// nodeenv's shim runs `nodejs` before `node`: both name this test's Node from a dir in /tmp.
const NODE_BIN = join(T.root, 'node-bin')
mkdirSync(NODE_BIN)
for (const name of ['node', 'nodejs']) symlinkSync(process.execPath, join(NODE_BIN, name))
const env: NodeJS.ProcessEnv = {
  ...process.env,
  PATH: `${NODE_BIN}${delimiter}${process.env.PATH}`,
  PRE_COMMIT_HOME: join(T.root, 'cache'),
  npm_config_prefer_offline: 'true',
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  GIT_AUTHOR_NAME: 't',
  GIT_AUTHOR_EMAIL: 't@example.com',
  GIT_COMMITTER_NAME: 't',
  GIT_COMMITTER_EMAIL: 't@example.com',
}
delete env.CI
const git = (...args: string[]) => {
  const r = spawnSync('git', args, { cwd: WORK, env, encoding: 'utf8' })
  assert.equal(r.status, 0, r.stderr)
  return r.stdout
}
/** All the hooks, their output shown whether they pass or fail (--verbose). */
const tryRepo = () =>
  spawnSync('pre-commit', ['try-repo', REPO, '--verbose'], {
    cwd: WORK,
    env,
    encoding: 'utf8',
    timeout: 20 * 60_000,
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
 * One `pre-commit try-repo` (it installs the hooks anew on each call: npm install, the build,
 * npm pack, minutes on CI) runs all three hooks on what is staged: a new pack the manager
 * refuses, and a case added to a good pack. An old bad pack, committed before, is not touched.
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
    git('init', '-q')
    git('add', '.')
    git('commit', '-q', '-m', 'before the hooks')
    makeTree(WORK, {
      ...packWith('skills/bad', { name: 'Bad-Name', description: 'A name the manager refuses.' }),
      'skills/good/tests/cases.json': JSON.stringify([
        { name: 'says ok', args: {}, expect: { result: { ok: true } } },
        { name: 'says ok again', args: { x: 1 }, expect: { result: { ok: true } } },
      ]),
    })
    git('add', '.')
    r = tryRepo()
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

  test('test runs the cases of the pack whose case file changed (the dir above tests/), and passes', () => {
    assert.match(r.stdout, /ongrid-skill test\.+Passed/)
    assert.match(r.stdout, /says ok again/)
  })
})
