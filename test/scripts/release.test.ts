/** `npm run release` (scripts/release.mjs): one version everywhere, and what a release publishes. */
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, lstatSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { REPO } from '../helpers/cli.js'
import { tempRoot } from '../helpers/tree.js'

const T = tempRoot('ongrid-release-')
after(T.cleanup)
const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as {
  version: string
  files: string[]
}

/** A copy of what the release reads and packs (dist/ as built), in `dir`. */
function copyTree(dir: string): void {
  const rels = [
    ...pkg.files,
    'README.md',
    'CHANGELOG.md',
    'package.json',
    'package-lock.json',
    'scripts/release.mjs',
    'editors/vscode/package.json',
    '.pre-commit-hooks.yaml',
    'bin/pre-commit-hook',
    'action.yml',
    'action',
  ]
  for (const rel of rels) cpSync(join(REPO, rel), join(dir, rel), { recursive: true })
}

const release = (dir: string, ...args: string[]) =>
  spawnSync(process.execPath, [join(dir, 'scripts', 'release.mjs'), ...args], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 10 * 60_000,
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@example.com',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@example.com',
    },
  })

describe('release --check', () => {
  test('this tree: package.json, the lock, --version, the CHANGELOG, the README pins and the extension agree', () => {
    const r = release(REPO, '--check')
    assert.equal(r.status, 0, r.stderr)
    assert.equal(r.stdout, `${pkg.version}: every place agrees\n`)
  })

  test('a place that disagrees is named, exit 1', () => {
    const dir = join(T.root, 'mismatch')
    mkdirSync(dir)
    for (const rel of [
      'package.json',
      'package-lock.json',
      'CHANGELOG.md',
      'README.md',
      'editors/vscode/package.json',
      'bin/run.js',
      'bin/package.json',
      'scripts/release.mjs',
    ]) {
      cpSync(join(REPO, rel), join(dir, rel))
    }
    const readme = readFileSync(join(dir, 'README.md'), 'utf8')
    writeFileSync(
      join(dir, 'README.md'),
      readme.replace(/(uses: ongridio\/ongrid-skill@)v\d+/, '$1v9').replace(/(rev: )v[\d.]+/, '$1v0.0.1'),
    )
    const r = release(dir, '--check')
    assert.equal(r.status, 1)
    const major = pkg.version.split('.')[0]
    assert.equal(
      r.stderr,
      [
        `release: README.md, the pre-commit rev says 0.0.1, not ${pkg.version}`,
        `release: README.md, the Action ref (vMAJOR) says 9, not ${major}`,
        'release: the version is not the same everywhere (2 places)',
        '',
      ].join('\n'),
    )
  })
})

describe('release (no build, no single executable) in a repository', () => {
  const dir = join(T.root, 'repo')
  const out = join(T.root, 'out')
  let r: ReturnType<typeof release>
  const git = (...args: string[]) => spawnSync('git', args, { cwd: dir, encoding: 'utf8' })
  before(() => {
    mkdirSync(dir)
    copyTree(dir)
    git('init', '-q')
    git('add', '-A', '-f', '.')
    git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', '-m', 'source')
    r = release(dir, '--no-build', '--no-sea', '--date', '2026-12-06', '--out', out)
  })

  test('dates the CHANGELOG and commits it alone', () => {
    assert.equal(r.status, 0, r.stderr)
    const changelog = readFileSync(join(dir, 'CHANGELOG.md'), 'utf8')
    assert.match(changelog, new RegExp(`^## ${pkg.version.replaceAll('.', '\\.')} \\(2026-12-06\\)$`, 'm'))
    assert.doesNotMatch(changelog, /\(unreleased\)/)
    assert.equal(
      git('show', '--name-only', '--format=%s', 'HEAD~0').stdout.trim(),
      `${pkg.version}\n\nCHANGELOG.md`,
    )
  })

  test('the npm tarball: its package.json has no scripts (no prepare) and no dev-only fields', () => {
    const tgz = join(out, `ongrid-skill-${pkg.version}.tgz`)
    const x = spawnSync('tar', ['-xzOf', tgz, 'package/package.json'], { encoding: 'utf8' })
    assert.equal(x.status, 0, x.stderr)
    const published = JSON.parse(x.stdout)
    assert.equal(published.version, pkg.version)
    for (const k of ['scripts', 'devDependencies', 'allowScripts', 'overrides']) {
      assert.equal(published[k], undefined, `${k} is published`)
    }
    assert.ok(published.dependencies['@oclif/core'])
  })

  test('SHA256SUMS checks with sha256sum -c', () => {
    const sums = readFileSync(join(out, 'SHA256SUMS'), 'utf8')
    assert.match(
      sums,
      new RegExp(`^[0-9a-f]{64}  ongrid-skill-${pkg.version.replaceAll('.', '\\.')}\\.tgz\\n$`),
    )
    const c = spawnSync('sha256sum', ['-c', 'SHA256SUMS'], { cwd: out, encoding: 'utf8' })
    assert.equal(c.status, 0, c.stdout + c.stderr)
  })

  test('the tags v<version> and v<major> name the built tree: package, runtime modules, hooks, Action', () => {
    const major = pkg.version.split('.')[0]
    const tag = git('rev-parse', `v${pkg.version}^{commit}`).stdout.trim()
    assert.match(tag, /^[0-9a-f]{40}$/)
    assert.equal(git('rev-parse', `v${major}^{commit}`).stdout.trim(), tag)
    // Its parent is the commit that dated the CHANGELOG.
    assert.equal(git('rev-parse', `${tag}^`).stdout.trim(), git('rev-parse', 'HEAD').stdout.trim())
    const files = git('ls-tree', '-r', '--name-only', tag).stdout.split('\n')
    for (const f of [
      'package.json',
      'bin/run.js',
      'bin/pre-commit-hook',
      '.pre-commit-hooks.yaml',
      'action.yml',
      'action/report.mjs',
      'dist/bundle/fast.js',
      'node_modules/@oclif/core/package.json',
    ]) {
      assert.ok(files.includes(f), `${f} is not in the tag's tree`)
    }
    assert.ok(!files.some((f) => /^(src|test|scripts)\//.test(f)))
    assert.match(git('ls-tree', tag, 'bin/pre-commit-hook').stdout, /^100755 /)
    assert.ok(existsSync(join(out, 'ref', 'bin', 'pre-commit-hook')))
    assert.ok(lstatSync(join(out, 'ref', 'bin', 'pre-commit-hook')).mode & 0o100)
  })

  test('a work tree with changes is refused', () => {
    writeFileSync(join(dir, 'README.md'), `${readFileSync(join(dir, 'README.md'), 'utf8')}x\n`)
    const again = release(dir, '--no-build', '--no-sea', '--out', join(T.root, 'out2'))
    assert.equal(again.status, 1)
    assert.match(again.stderr, /the work tree has changes/)
  })
})
