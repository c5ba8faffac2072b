import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, test } from 'node:test'
import { fileURLToPath } from 'node:url'

const REPO = fileURLToPath(new URL('../../', import.meta.url))
const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8'))

describe('the npm package', () => {
  // What `npm pack` would put in the tarball (the build is not run: dist/ is the one built).
  const r = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: REPO,
    encoding: 'utf8',
  })
  const files: string[] =
    r.status === 0 ? JSON.parse(r.stdout)[0].files.map((f: { path: string }) => f.path) : []

  test('ships what README and --help point at, a LICENSE and the schemas; no dev-only files', () => {
    assert.equal(r.status, 0, r.stderr)
    for (const f of [
      'LICENSE',
      'bin/run.js',
      'bin/package.json',
      'docs/rules.md',
      'schemas/skill.schema.json',
      'schemas/ongrid-skill.schema.json',
      'examples/skills/disk_usage/skill.json',
      'templates/go/files/gitignore',
      'oclif.manifest.json',
      'dist/bundle/fast.js',
    ]) {
      assert.ok(files.includes(f), f)
    }
    assert.ok(!files.includes('bin/dev.js'))
    assert.ok(
      !files.some(
        (f) => /^(test|src|build|\.bench|\.ci|scripts|node_modules)\//.test(f) || f.endsWith('.test.js'),
      ),
      files.filter((f) => /^(test|src|build|\.bench|\.ci|scripts|node_modules)\//.test(f)).join(' '),
    )
    // Every docs/, examples/skills and schemas/ path the README names is in the package
    // (examples/args.json there is a generated pack's own file).
    const readme = readFileSync(join(REPO, 'README.md'), 'utf8')
    for (const m of readme.matchAll(
      /\b(docs\/[\w./-]*\w|examples\/skills(?:\/[\w.-]*\w)*|schemas\/[\w./-]*\w)/g,
    )) {
      const p = m[1]
      assert.ok(
        files.some((f) => f === p || f.startsWith(`${p}/`)),
        `README names ${p}, which the package lacks`,
      )
    }
  })

  test('installs quietly: every dependency with an install script is allowed or denied in allowScripts', () => {
    // npm warns "install scripts not yet covered by allowScripts" for any other.
    const lock = JSON.parse(readFileSync(join(REPO, 'package-lock.json'), 'utf8'))
    const scripted = Object.entries(lock.packages as Record<string, { hasInstallScript?: boolean }>)
      .filter(([path, p]) => path !== '' && p.hasInstallScript === true)
      .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length))
    for (const name of scripted) {
      assert.equal(typeof pkg.allowScripts?.[name], 'boolean', `${name} is not in allowScripts`)
    }
  })

  test('npm publish --dry-run is clean: no warning but that no one is logged in', () => {
    const p = spawnSync('npm', ['publish', '--dry-run', '--ignore-scripts'], { cwd: REPO, encoding: 'utf8' })
    assert.equal(p.status, 0, p.stderr)
    const warnings = p.stderr
      .split('\n')
      .filter((l) => /^npm (warn|error)/i.test(l) && !/requires you to be logged in/.test(l))
    assert.deepEqual(warnings, [])
  })

  test('says where it runs', () => {
    // node:sqlite without a flag (docs/decisions.md, "Node lines").
    assert.equal(pkg.engines.node, '>=22.13')
    assert.deepEqual(pkg.os, ['linux'])
    assert.equal(pkg.license, 'MIT')
  })

  test('says where it comes from: repository, homepage and bugs', () => {
    assert.deepEqual(pkg.repository, {
      type: 'git',
      url: 'git+https://github.com/ongridio/ongrid-skill.git',
    })
    assert.equal(pkg.homepage, 'https://github.com/ongridio/ongrid-skill#readme')
    assert.deepEqual(pkg.bugs, { url: 'https://github.com/ongridio/ongrid-skill/issues' })
  })
})
