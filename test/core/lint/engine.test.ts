import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { fromText } from '../../../src/core/go/gostring.js'
import { ConfigError } from '../../../src/core/lint/config.js'
import { check } from '../../../src/core/lint/engine.js'
import { RULES } from '../../../src/core/lint/registry.js'
import { collectTargets, PathError } from '../../../src/core/lint/targets.js'
import { ECHO, makeTree, manifest, tempRoot } from '../../helpers/tree.js'

let R = ''
let cleanup = () => {}

const GOOD = (name: string, extra: Record<string, unknown> = {}) =>
  manifest({
    name,
    description: 'Reports the free space of a filesystem, in bytes.',
    entry: 'run.sh',
    class: 'safe',
    timeout_seconds: 10,
    schema: { type: 'object', properties: {}, additionalProperties: false },
    ...extra,
  })

const ids = async (paths: string[], extra: Partial<Omit<Parameters<typeof check>[0], 'paths'>> = {}) =>
  (await check({ paths: paths.map(fromText), rules: RULES, set: 'all', ...extra })).files.map((f) => [
    f.file.slice(R.length + 1),
    f.ignored,
    f.findings.map((x) => `${x.ruleId}:${x.severity}`),
  ])

describe('targets', () => {
  before(() => {
    ;({ root: R, cleanup } = tempRoot())
    makeTree(R, {
      'skills/a/skill.json': GOOD('a'),
      'skills/a/run.sh': ECHO,
      'skills/b/deep/skill.json': GOOD('b'),
      'skills/b/deep/run.sh': ECHO,
      'skills/n/SKILL.md': '---\nname: n\ndescription: d\n---\n',
      'skills/n/notes.md': 'not a skill',
      'empty/readme.txt': 'x',
      link: { link: 'skills' },
    })
  })
  after(() => cleanup())

  test('a pack dir, a skill.json, a SKILL.md, a walked dir; roots default to the dir holding the pack', () => {
    assert.deepEqual(collectTargets([`${R}/skills/a`].map(fromText)).files, [
      { kind: 'manifest', path: `${R}/skills/a/skill.json`, root: `${R}/skills` },
    ])
    assert.deepEqual(collectTargets([`${R}/skills/b/deep/skill.json`].map(fromText)).files, [
      { kind: 'manifest', path: `${R}/skills/b/deep/skill.json`, root: `${R}/skills/b` },
    ])
    assert.deepEqual(collectTargets([`${R}/skills/n`].map(fromText)).files, [
      { kind: 'native', path: `${R}/skills/n/SKILL.md`, root: `${R}/skills` },
    ])
    assert.deepEqual(
      collectTargets([`${R}/skills`].map(fromText)).files.map((t) => [
        t.kind,
        t.path.slice(R.length),
        t.root.slice(R.length),
      ]),
      [
        ['manifest', '/skills/a/skill.json', '/skills'],
        ['manifest', '/skills/b/deep/skill.json', '/skills'],
        ['native', '/skills/n/SKILL.md', '/skills'],
      ],
    )
    assert.equal(collectTargets([`${R}/skills/a`].map(fromText), fromText(`${R}`)).files[0].root, R)
  })
  test('the same file twice is checked once', () => {
    assert.equal(
      collectTargets([`${R}/skills/a`, `${R}/skills/a/skill.json`, `${R}/skills`].map(fromText)).files.length,
      3,
    )
  })
  test('a missing PATH, a dir with nothing to check, a symlinked root: errors, never “all good”', () => {
    assert.throws(
      () => collectTargets([`${R}/nope`].map(fromText)),
      (e: Error) => e instanceof PathError && e.message === `PATH does not exist: ${R}/nope`,
    )
    assert.throws(() => collectTargets([`${R}/empty`].map(fromText)), /no skill.json or SKILL.md under/)
    assert.throws(
      () => collectTargets([`${R}/link`].map(fromText)),
      /symlink, and the manager's walk does not descend/,
    )
    assert.throws(() => collectTargets([`${R}/skills`].map(fromText), fromText(`${R}/nope`)), /--root/)
  })
})

describe('one set, as one manager boot', () => {
  before(() => {
    ;({ root: R, cleanup } = tempRoot())
    makeTree(R, {
      'one/x/skill.json': GOOD('same'),
      'one/x/run.sh': ECHO,
      'two/x/skill.json': GOOD('same'),
      'two/x/run.sh': ECHO,
    })
  })
  after(() => cleanup())

  test('the first PATH registers the name; the later pack is the duplicate', async () => {
    assert.deepEqual(await ids([`${R}/two`, `${R}/one`]), [
      ['two/x/skill.json', false, []],
      ['one/x/skill.json', false, ['manager/duplicate-name:error']],
    ])
  })
  test('--builtins-like registries: a custom builtin list', async () => {
    assert.deepEqual(await ids([`${R}/one`], { builtins: ['same'] }), [
      ['one/x/skill.json', false, ['manager/builtin-name:error']],
    ])
  })
})

describe('.ongrid-skill.yaml', () => {
  before(() => {
    ;({ root: R, cleanup } = tempRoot())
    makeTree(R, {
      'repo/.ongrid-skill.yaml':
        'rules:\n  practice/class-unset: off\n  practice/timeout-unset: error\nignore:\n  - vendor/**\n',
      'repo/skills/a/skill.json': GOOD('a', { class: undefined, timeout_seconds: undefined }),
      'repo/skills/a/run.sh': ECHO,
      'repo/vendor/v/skill.json': GOOD('v', { name: 'Bad' }),
      'repo/vendor/v/run.sh': ECHO,
      'repo/sub/.ongrid-skill.yaml': '# nearest wins: no rules here\n',
      'repo/sub/s/skill.json': GOOD('s', {
        class: undefined,
        description: 'Lists the users logged in to the host.',
      }),
      'repo/sub/s/run.sh': ECHO,
      'bad1/.ongrid-skill.yaml': 'rules:\n  no/such-rule: warn\n',
      'bad1/p/skill.json': GOOD('p'),
      'bad2/.ongrid-skill.yaml': 'rules: [a\n',
      'bad2/p/skill.json': GOOD('p'),
      'bad3/.ongrid-skill.yaml': 'rules:\n  practice/class-unset: loud\n',
      'bad3/p/skill.json': GOOD('p'),
      'bad4/.ongrid-skill.yaml': 'ignores: [x]\n',
      'bad4/p/skill.json': GOOD('p'),
    })
  })
  after(() => cleanup())

  test('found upward from each file; nearest wins; rules and ignores apply', async () => {
    assert.deepEqual(await ids([`${R}/repo`], { useConfig: true }), [
      ['repo/skills/a/skill.json', false, ['practice/timeout-unset:error']],
      ['repo/sub/s/skill.json', false, ['practice/class-unset:warn']],
      // ignored: not checked (its bad name would be a manager/build error)
      ['repo/vendor/v/skill.json', true, []],
    ])
  })
  test('--rule overrides the config; --no-config ignores it', async () => {
    const overrides = new Map([['practice/timeout-unset', 'info' as const]])
    assert.deepEqual((await ids([`${R}/repo/skills`], { useConfig: true, overrides }))[0][2], [
      'practice/timeout-unset:info',
    ])
    assert.deepEqual((await ids([`${R}/repo/skills`], { useConfig: false }))[0][2], [
      'practice/class-unset:warn',
      'practice/timeout-unset:warn',
    ])
  })
  test('a config that cannot be used is a tool error', async () => {
    const err = async (dir: string, re: RegExp) =>
      assert.rejects(
        check({ paths: [`${R}/${dir}`].map(fromText), rules: RULES, set: 'all', useConfig: true }),
        (e: Error) => e instanceof ConfigError && re.test(e.message),
      )
    await err('bad1', /unknown rule "no\/such-rule"/)
    await err('bad2', /not valid YAML/)
    await err('bad3', /expected off, info, warn or error, not "loud"/)
    await err('bad4', /unknown key "ignores"/)
  })
})
