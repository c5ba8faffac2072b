/** The differential harnesses' local Go modules: a machine without them skips, saying what to install. */
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { GO_MISSING, missingGoModules, REPO_ROOT } from './harness.js'

test('a replaced module whose directory is missing: one line naming the apt package', () => {
  const goMod =
    'module x\n\ngo 1.19\n\nrequire gopkg.in/yaml.v3 v3.0.1\n\nreplace gopkg.in/yaml.v3 => /nonexistent/gocode/yaml.v3\n'
  assert.equal(
    missingGoModules(goMod),
    'gopkg.in/yaml.v3 not found at /nonexistent/gocode/yaml.v3: apt-get install golang-gopkg-yaml.v3-dev to run these differential tests',
  )
  assert.equal(
    missingGoModules('replace example.com/m => /nonexistent/m\n'),
    'example.com/m not found at /nonexistent/m: install it to run these differential tests',
  )
})

test('no replace, or one to a module that is there: nothing missing', () => {
  assert.equal(missingGoModules('module x\n\ngo 1.19\n'), null)
  // The repository's own harness module stands in for a module that is there.
  const here = path.join(REPO_ROOT, 'test', 'differential', 'go')
  assert.equal(missingGoModules(`replace example.com/m => ${here}\n`), null)
})

test('the marketplace harness’s go.mod names Debian’s yaml.v3 the way missingGoModules reads it', () => {
  const goMod = readFileSync(path.join(REPO_ROOT, 'test', 'differential', 'go-marketplace', 'go.mod'), 'utf8')
  const moved = goMod.replace(/=> \/usr\/share\/gocode\//, '=> /nonexistent/gocode/')
  assert.notEqual(moved, goMod)
  assert.match(
    missingGoModules(moved) ?? '',
    /^gopkg\.in\/yaml\.v3 not found at .*: apt-get install golang-gopkg-yaml\.v3-dev/,
  )
})

test('go without yaml.v3: the marketplace suite skips with one line; ONGRID_REQUIRE_GO=1 makes it a failure', (t) => {
  if (spawnSync('go', ['version']).status !== 0) return t.skip(GO_MISSING)
  // A repository as the compiled suite finds its root, its harness's go.mod naming yaml.v3 where
  // it is not: a machine that followed README with golang-go but not golang-gopkg-yaml.v3-dev.
  const T = mkdtempSync(path.join(tmpdir(), 'ongrid-fresh-'))
  t.after(() => rmSync(T, { recursive: true, force: true }))
  const compiled = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')
  writeFileSync(path.join(T, 'package.json'), '{}\n')
  mkdirSync(path.join(T, 'test', 'differential', 'go'), { recursive: true })
  const mp = path.join(T, 'test', 'differential', 'go-marketplace')
  cpSync(path.join(REPO_ROOT, 'test', 'differential', 'go-marketplace'), mp, { recursive: true })
  const goMod = readFileSync(path.join(mp, 'go.mod'), 'utf8')
  writeFileSync(path.join(mp, 'go.mod'), goMod.replace(/=> \/usr\/share\/gocode\//, `=> ${T}/gocode/`))
  for (const d of ['src', 'test'])
    cpSync(path.join(compiled, d), path.join(T, 'build', d), { recursive: true })
  symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(T, 'node_modules'))
  const suite = path.join(T, 'build', 'test', 'differential', 'marketplace.test.js')
  const run = (require: boolean) => {
    const env = { ...process.env }
    delete env.ONGRID_REQUIRE_GO
    // Run as a suite of its own, not as a file of the run this test is in.
    delete env.NODE_TEST_CONTEXT
    if (require) env.ONGRID_REQUIRE_GO = '1'
    const r = spawnSync(process.execPath, ['--test', '--test-reporter=spec', suite], {
      cwd: T,
      env,
      encoding: 'utf8',
    })
    return { code: r.status, out: `${r.stdout}${r.stderr}` }
  }
  const line = `marketplace differential tests skipped: gopkg.in/yaml.v3 not found at ${T}/gocode/src/gopkg.in/yaml.v3: apt-get install golang-gopkg-yaml.v3-dev to run these differential tests\n`
  const skipped = run(false)
  assert.equal(skipped.code, 0, skipped.out)
  assert.equal(skipped.out.split(line).length - 1, 1, skipped.out)
  assert.match(skipped.out, /ℹ pass 0\n/)
  assert.doesNotMatch(skipped.out, /ℹ skipped 0\n/)
  const required = run(true)
  assert.notEqual(required.code, 0, required.out)
  assert.match(
    required.out,
    /apt-get install golang-gopkg-yaml\.v3-dev to run these differential tests \(ONGRID_REQUIRE_GO=1\)/,
  )
})
