import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { fromText } from '../../../src/core/go/gostring.js'
import {
  collectTargets,
  DEFAULT_IGNORED_DIRS,
  leftOutText,
  PathError,
} from '../../../src/core/lint/targets.js'
import { ECHO, makeTree, manifest, tempRoot } from '../../helpers/tree.js'

let R = ''
let cleanup = () => {}

/** The files found, relative to R. */
const found = (paths: string[], root?: string, defaultIgnore?: boolean) =>
  collectTargets(paths.map(fromText), root === undefined ? undefined : fromText(root), {
    defaultIgnore,
  }).files.map((t) => t.path.slice(R.length + 1))

describe('the dirs left out by default', () => {
  before(() => {
    ;({ root: R, cleanup } = tempRoot())
    makeTree(R, {
      'repo/skills/mine/skill.json': manifest({ name: 'mine' }),
      'repo/skills/mine/run.sh': ECHO,
      // Packs in every dir left out, at the top and deeper down.
      'repo/node_modules/ongrid-skill/examples/skills/bad/skill.json': manifest({ name: 'Bad' }),
      'repo/skills/mine/node_modules/dep/skill.json': manifest({ name: 'dep' }),
      'repo/.git/hooks/skill.json': '{',
      'repo/.hg/skill.json': '{',
      'repo/skills/.svn/x/SKILL.md': '---\nname: x\n---\n',
      // A file named like a left-out dir is no dir: nothing to leave out.
      'repo/skills/other/.git': 'gitdir: elsewhere\n',
      'repo/skills/other/skill.json': manifest({ name: 'other' }),
      'only/node_modules/p/skill.json': manifest({ name: 'p' }),
      'only/.git/skill.json': manifest({ name: 'g' }),
      'linked/node_modules': { link: '../repo/skills' },
      'linked/p/skill.json': manifest({ name: 'p' }),
    })
  })
  after(() => cleanup())

  test('the names: installed dependencies and VCS metadata', () => {
    assert.deepEqual(DEFAULT_IGNORED_DIRS, ['node_modules', '.git', '.hg', '.svn'])
  })
  test('left out at any depth below a PATH, and counted by name in the order met', () => {
    const t = collectTargets([`${R}/repo`].map(fromText))
    assert.deepEqual(
      t.files.map((f) => f.path.slice(R.length + 1)),
      ['repo/skills/mine/skill.json', 'repo/skills/other/skill.json'],
    )
    assert.deepEqual(
      [...t.leftOut],
      [
        ['.git', 1],
        ['.hg', 1],
        ['node_modules', 2],
        ['.svn', 1],
      ],
    )
    assert.equal(leftOutText(t.leftOut), '.git (1 dir), .hg (1 dir), node_modules (2 dirs), .svn (1 dir)')
    assert.deepEqual(t.walkErrors, [])
  })
  test('--no-default-ignore walks them all, as the manager walks whatever is deployed', () => {
    const t = collectTargets([`${R}/repo`].map(fromText), undefined, { defaultIgnore: false })
    assert.deepEqual(
      t.files.map((f) => f.path.slice(R.length + 1)),
      [
        'repo/.git/hooks/skill.json',
        'repo/.hg/skill.json',
        'repo/node_modules/ongrid-skill/examples/skills/bad/skill.json',
        'repo/skills/.svn/x/SKILL.md',
        'repo/skills/mine/node_modules/dep/skill.json',
        'repo/skills/mine/skill.json',
        'repo/skills/other/skill.json',
      ],
    )
    assert.equal(t.leftOut.size, 0)
  })
  test('a PATH named explicitly is walked whatever its name or where it lies', () => {
    assert.deepEqual(found([`${R}/repo/node_modules/ongrid-skill/examples/skills`]), [
      'repo/node_modules/ongrid-skill/examples/skills/bad/skill.json',
    ])
    assert.deepEqual(found([`${R}/repo/node_modules`]), [
      'repo/node_modules/ongrid-skill/examples/skills/bad/skill.json',
    ])
    assert.deepEqual(found([`${R}/repo/.git/hooks/skill.json`]), ['repo/.git/hooks/skill.json'])
    // Its own dependencies below it are still left out.
    assert.deepEqual(found([`${R}/repo/skills/mine`]), ['repo/skills/mine/skill.json'])
  })
  test('a symlink of such a name is left out too, never reported as packs the manager misses', () => {
    const t = collectTargets([`${R}/linked`].map(fromText))
    assert.deepEqual(t.walkErrors, [])
    assert.deepEqual([...t.leftOut], [['node_modules', 1]])
    const all = collectTargets([`${R}/linked`].map(fromText), undefined, { defaultIgnore: false })
    assert.deepEqual(
      all.walkErrors.map((w) => [w.path.slice(R.length + 1), w.err]),
      [['linked/node_modules', null]],
    )
  })
  test('nothing but left-out dirs under a PATH: an error that says so, never a pass', () => {
    assert.throws(
      () => collectTargets([`${R}/only`].map(fromText)),
      (e: Error) =>
        e instanceof PathError &&
        e.message ===
          `no skill.json or SKILL.md under ${R}/only outside the dirs left out by default: .git (1 dir), node_modules (1 dir) (--no-default-ignore walks them)`,
    )
    assert.deepEqual(found([`${R}/only`], undefined, false), [
      'only/.git/skill.json',
      'only/node_modules/p/skill.json',
    ])
  })
})

describe('the allow-list root when none is given', () => {
  before(() => {
    ;({ root: R, cleanup } = tempRoot())
    makeTree(R, {
      'plain/p/skill.json': manifest({ name: 'p' }),
      'outer/skill.json': manifest({ name: 'outer' }),
      'outer/inner/skill.json': manifest({ name: 'inner' }),
      'native/SKILL.md': '---\nname: n\n---\n',
      'native/sub/SKILL.md': '---\nname: s\n---\n',
      'deps/skill.json': manifest({ name: 'deps' }),
      'deps/node_modules/x/skill.json': manifest({ name: 'x' }),
      'both/skill.json': manifest({ name: 'both' }),
      'both/SKILL.md': '---\nname: both\n---\n',
    })
  })
  after(() => cleanup())

  const roots = (paths: string[], root?: string, defaultIgnore?: boolean) => {
    const t = collectTargets(paths.map(fromText), root === undefined ? undefined : fromText(root), {
      defaultIgnore,
    })
    return {
      files: t.files.map((f) => [f.path.slice(R.length), f.root.slice(R.length)]),
      roots: t.roots.map((r) => [r.path.slice(R.length), r.assumed]),
    }
  }

  test('a pack dir alone: the dir that holds it, as /etc/ongrid/skills holds its packs', () => {
    assert.deepEqual(roots([`${R}/plain/p`]), {
      files: [['/plain/p/skill.json', '/plain']],
      roots: [['/plain', true]],
    })
    // Its own SKILL.md beside skill.json is no nested pack.
    assert.deepEqual(roots([`${R}/both`]).roots, [['', true]])
  })
  test('a pack dir with packs nested below it may be a root itself: the stricter root, the dir, is taken', () => {
    assert.deepEqual(roots([`${R}/outer`]), {
      files: [
        ['/outer/inner/skill.json', '/outer'],
        ['/outer/skill.json', '/outer'],
      ],
      roots: [['/outer', true]],
    })
    assert.deepEqual(roots([`${R}/native`]).roots, [['/native', true]])
  })
  test('packs in the dirs left out do not make it ambiguous; walked, they do', () => {
    assert.deepEqual(roots([`${R}/deps`]).roots, [['', true]])
    assert.deepEqual(roots([`${R}/deps`], undefined, false).roots, [['/deps', true]])
  })
  test('a skill.json whose dir holds nested packs: that dir, as for the pack dir', () => {
    assert.deepEqual(roots([`${R}/outer/skill.json`]).roots, [['/outer', true]])
    assert.deepEqual(roots([`${R}/outer/inner/skill.json`]).roots, [['/outer', true]])
    assert.deepEqual(roots([`${R}/deps/skill.json`]).roots, [['', true]])
    assert.deepEqual(roots([`${R}/deps/skill.json`], undefined, false).roots, [['/deps', true]])
  })
  test('a file: the dir above its dir; a plain dir: itself; each root once, in order', () => {
    assert.deepEqual(roots([`${R}/plain/p/skill.json`, `${R}/plain`, `${R}/outer`]).roots, [
      ['/plain', true],
      ['/outer', true],
    ])
  })
  test('--root is used for every target, and is not assumed', () => {
    assert.deepEqual(roots([`${R}/outer`, `${R}/plain/p`], `${R}/plain`), {
      files: [
        ['/outer/inner/skill.json', '/plain'],
        ['/outer/skill.json', '/plain'],
        ['/plain/p/skill.json', '/plain'],
      ],
      roots: [['/plain', false]],
    })
  })
})
