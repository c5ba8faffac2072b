import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { excludeTest, globToRegExp, matchesAny } from '../../src/core/glob.js'

describe('excludeTest: --exclude globs as .gitignore reads them', () => {
  const m = (glob: string, rel: string, dir = false) => excludeTest(glob)(rel, dir)
  test('without `/`, a name at any depth; with `/`, the path from the pack root', () => {
    assert.ok(m('*~', 'a/b/notes.md~'))
    assert.ok(m('.DS_Store', 'skills/x/.DS_Store'))
    assert.ok(m('docs/*.md', 'docs/a.md'))
    assert.ok(!m('docs/*.md', 'x/docs/a.md'))
    assert.ok(m('/top.md', 'top.md'))
    assert.ok(!m('/top.md', 'a/top.md'))
    assert.ok(m('./top.md', 'top.md'))
  })
  test('a trailing `/` matches dirs only', () => {
    assert.ok(m('testdata/', 'testdata', true))
    assert.ok(m('testdata/', 'a/testdata', true))
    assert.ok(!m('testdata/', 'testdata', false))
  })
  test('`**` as a whole segment spans names; inside a name it is `*`', () => {
    assert.ok(m('**/fixtures', 'a/b/fixtures'))
    assert.ok(m('a/**/x.md', 'a/x.md'))
    assert.ok(m('a/**/x.md', 'a/b/c/x.md'))
    assert.ok(m('a/**', 'a/b/c'))
    assert.ok(m('a/**.md', 'a/x.md'))
    assert.ok(!m('a/**.md', 'a/b/x.md'))
  })
  test('the same segments as the config’s ignore: globs', () => {
    for (const [glob, rel] of [
      ['a/?/x.json', 'a/b/x.json'],
      ['a/**/x.json', 'a/x/y/x.json'],
      ['a+b(1)/[x].json', 'a+b(1)/[x].json'],
      ['a.b', 'aXb'],
    ])
      assert.equal(m(glob, rel), globToRegExp(glob).test(rel), `${glob} ${rel}`)
  })
})

describe('glob', () => {
  const m = (pattern: string, path: string) => matchesAny(path, [globToRegExp(pattern)])
  test('* and ? stay within a segment', () => {
    assert.ok(m('*.json', 'skill.json'))
    assert.ok(!m('*.json', 'a/skill.json'))
    assert.ok(m('a/?/skill.json', 'a/b/skill.json'))
    assert.ok(!m('a/?/skill.json', 'a/bc/skill.json'))
  })
  test('** spans any number of segments, none included', () => {
    assert.ok(m('**/skill.json', 'skill.json'))
    assert.ok(m('**/skill.json', 'a/b/c/skill.json'))
    assert.ok(m('a/**/skill.json', 'a/skill.json'))
    assert.ok(m('a/**/skill.json', 'a/x/y/skill.json'))
    assert.ok(!m('a/**/skill.json', 'b/a/skill.json'))
  })
  test('a dir pattern covers everything below it; ./ and / prefixes are dropped', () => {
    assert.ok(m('vendor', 'vendor/x/skill.json'))
    assert.ok(m('vendor/', 'vendor/x/skill.json'))
    assert.ok(m('./vendor/**', 'vendor/x/skill.json'))
    assert.ok(m('/vendor', 'vendor/skill.json'))
    assert.ok(!m('vendor', 'myvendor/skill.json'))
    assert.ok(!m('vendor', 'a/vendor/skill.json'))
  })
  test('regex characters are literal', () => {
    assert.ok(m('a+b(1)/[x].json', 'a+b(1)/[x].json'))
    assert.ok(!m('a.b', 'aXb'))
  })
})
