/** The differential harnesses' local Go modules: a machine without them skips, saying what to install. */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { missingGoModules, REPO_ROOT } from './harness.js'

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
