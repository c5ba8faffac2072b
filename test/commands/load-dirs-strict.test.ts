import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { runCliSync } from '../helpers/cli.js'
import { ECHO, makeTree, manifest, tempRoot } from '../helpers/tree.js'

function loadDirs(args: string[]) {
  const r = runCliSync(['load-dirs', ...args], { encoding: 'latin1' })
  return { code: r.code, stdout: r.stdout }
}

// --strict: exit 1 when the manager would have refused a manifest, which includes a name that
// is already taken, by an earlier pack or by a builtin skill.
describe('load-dirs --strict: duplicates and builtin names are rejections', () => {
  let R = ''
  let cleanup = () => {}
  before(() => {
    ;({ root: R, cleanup } = tempRoot())
    makeTree(R, {
      'one/a/skill.json': manifest({ name: 'twice' }),
      'one/a/run.sh': ECHO,
      'two/b/skill.json': manifest({ name: 'twice' }),
      'two/b/run.sh': ECHO,
      'web/w/skill.json': manifest({ name: 'web_search' }),
      'web/w/run.sh': ECHO,
    })
  })
  after(() => cleanup())

  test('a name registered by an earlier dir: exit 1 with --strict, 0 without', () => {
    const r = loadDirs([`${R}/one`, `${R}/two`, '--strict'])
    assert.match(r.stdout, /skill "twice" already registered, skipping/)
    assert.equal(r.code, 1)
    assert.equal(loadDirs([`${R}/one`, `${R}/two`]).code, 0)
    assert.equal(loadDirs([`${R}/one`, '--strict']).code, 0)
  })

  test('a builtin skill name: exit 1 with --strict; 0 when no builtins are pre-seeded', () => {
    const r = loadDirs([`${R}/web`, '--strict'])
    assert.match(r.stdout, /skill "web_search" already registered, skipping/)
    assert.equal(r.code, 1)
    assert.equal(loadDirs([`${R}/web`, '--strict', '--no-builtins']).code, 0)
    assert.equal(loadDirs([`${R}/web`, '--strict', '--json']).code, 1)
  })
})
