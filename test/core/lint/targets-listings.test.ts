/**
 * The walk's listings answer the lookups of files it would have seen (each dir's config, each
 * pack's tests/, the Lstats of EvalSymlinks) without a stat per file: the same answers, fewer
 * system calls. Whatever was in a listing is still looked up on the disk, as before.
 */
import assert from 'node:assert/strict'
import { createRequire, syncBuiltinESMExports } from 'node:module'
import { after, before, describe, test } from 'node:test'
import { bytesOf, fromText, type GoString } from '../../../src/core/go/gostring.js'
import { ConfigFinder } from '../../../src/core/lint/config.js'
import { check } from '../../../src/core/lint/engine.js'
import { RULES } from '../../../src/core/lint/registry.js'
import { MANAGER_RULES } from '../../../src/core/lint/registry-manager.js'
import { collectTargets, notListed } from '../../../src/core/lint/targets.js'
import { ECHO, makeTree, manifest, tempRoot } from '../../helpers/tree.js'

const fs = createRequire(import.meta.url)('node:fs') as typeof import('node:fs')

let R = ''
let cleanup = () => {}

/** Descriptions apart (practice/confusable-tool compares the packs checked together). */
const SAYS: Record<string, string> = {
  p1: 'Reports the free space of a filesystem, in bytes.',
  p2: 'Lists the users logged in to the host.',
  p3: 'Returns the kernel version and OS release.',
  ig: 'Counts the open TCP connections by state.',
}

const GOOD = (name: string, entry = 'run.sh') =>
  manifest({
    name,
    description: SAYS[name] ?? 'Reports the free space of a filesystem, in bytes.',
    entry,
    class: 'safe',
    timeout_seconds: 10,
    schema: { type: 'object', properties: {}, additionalProperties: false },
  })

const CASES = JSON.stringify({ cases: [{ name: 'one', args: {}, expect: { exit_code: 0 } }] })

/** The paths stat'ed and lstat'ed (through node:fs) while `f` runs. */
async function statsDuring(f: () => Promise<unknown>): Promise<{ stat: string[]; lstat: string[] }> {
  const seen = { stat: [] as string[], lstat: [] as string[] }
  const { statSync, lstatSync } = fs
  const wrap =
    (into: string[], real: typeof fs.statSync) =>
    (...args: Parameters<typeof fs.statSync>) => {
      into.push(String(args[0]))
      return real(...args)
    }
  Object.assign(fs, { statSync: wrap(seen.stat, statSync), lstatSync: wrap(seen.lstat, lstatSync) })
  syncBuiltinESMExports()
  try {
    await f()
  } finally {
    Object.assign(fs, { statSync, lstatSync })
    syncBuiltinESMExports()
  }
  return seen
}

const rel = (paths: string[]) => paths.filter((p) => p.startsWith(`${R}/`)).map((p) => p.slice(R.length + 1))

describe('the walk lists each dir it walks into', () => {
  before(() => {
    ;({ root: R, cleanup } = tempRoot())
    makeTree(R, {
      'skills/a/skill.json': GOOD('a'),
      'skills/a/run.sh': ECHO,
      'skills/node_modules/x/skill.json': GOOD('x'),
      'skills/linked': { link: 'a' },
      'skills/broken': { link: 'nowhere' },
    })
  })
  after(() => cleanup())

  test('every name, a dir left out and a symlink among them; the type and mode of each', () => {
    const t = collectTargets([fromText(`${R}/skills`)])
    const names = (d: string) => [...(t.listings.get(fromText(`${R}/${d}`))?.names ?? [])].sort()
    assert.deepEqual(names('skills'), ['a', 'broken', 'linked', 'node_modules'])
    assert.deepEqual(names('skills/a'), ['run.sh', 'skill.json'])
    const a = t.listings.get(fromText(`${R}/skills/a`))
    assert.deepEqual(
      a?.entries.map(([n, info]) => [n, info.isDir(), info.mode.toString(8)]),
      [
        ['run.sh', false, '755'],
        ['skill.json', false, '644'],
      ],
    )
    // Not walked into: a symlinked dir; so not listed, and nothing said of it.
    assert.equal(t.listings.has(fromText(`${R}/skills/linked`)), false)
    assert.equal(notListed(t.listings, fromText(`${R}/skills/linked`), fromText('tests')), false)
    assert.equal(notListed(t.listings, fromText(`${R}/skills/a`), fromText('tests')), true)
    assert.equal(notListed(t.listings, fromText(`${R}/skills/a`), fromText('run.sh')), false)
  })

  test('a PATH that is a file lists nothing', () => {
    assert.equal(collectTargets([fromText(`${R}/skills/a/skill.json`)]).listings.size, 0)
  })
})

describe('lookups answered by the listings', () => {
  before(() => {
    ;({ root: R, cleanup } = tempRoot())
    makeTree(R, {
      'shared.yaml': 'ignore:\n  - "**/ignored/**"\n',
      'skills/g1/.ongrid-skill.yaml': { link: '../../shared.yaml' },
      'skills/g1/p1/skill.json': GOOD('p1'),
      'skills/g1/p1/run.sh': ECHO,
      'skills/g1/ignored/skill.json': GOOD('ig'),
      'skills/g1/ignored/run.sh': ECHO,
      'skills/g2/p2/skill.json': GOOD('p2', 'bin/run.sh'),
      'skills/g2/p2/bin/run.sh': ECHO,
      'cases/one.json': CASES,
      'skills/g2/p2/tests': { link: '../../../cases' },
      'skills/g2/p3/skill.json': GOOD('p3'),
      'skills/g2/p3/run.sh': ECHO,
      'skills/g2/p3/tests/one.json': CASES,
      // A dir named like a config is no config; a broken symlink neither.
      'skills/g2/p3/.ongrid-skill.yml': { dir: true },
      'skills/g2/.ongrid-skill.yml': { link: 'nowhere.yaml' },
    })
  })
  after(() => cleanup())

  test('no stat of a config or tests/ the walk saw was not there, nor of a skill.json; no Lstat of the files of a pack', async () => {
    const seen = await statsDuring(() =>
      check({ paths: [fromText(`${R}/skills`)], rules: RULES, set: 'all', useConfig: true }),
    )
    const stat = rel(seen.stat)
    // Looked up on the disk: the names that were there (followed, as before; the walk stats each
    // symlink it meets too), and those in R, above the PATH, which the walk did not list.
    assert.deepEqual([...new Set(stat.filter((p) => /\.ongrid-skill\.ya?ml$/.test(p)))].sort(), [
      '.ongrid-skill.yaml',
      '.ongrid-skill.yml',
      'skills/g1/.ongrid-skill.yaml',
      'skills/g2/.ongrid-skill.yml',
      'skills/g2/p3/.ongrid-skill.yml',
    ])
    assert.deepEqual(
      [...new Set(stat.filter((p) => p.endsWith('/tests')))],
      ['skills/g2/p2/tests', 'skills/g2/p3/tests'],
    )
    // A skill.json listed as a regular file is read without a stat first, as the loader reads it.
    assert.deepEqual(
      stat.filter((p) => p.endsWith('/skill.json')),
      [],
    )
    // The walk takes each child's type from its dir's listing, and EvalSymlinks of each entry asks
    // the listings: no pack dir, bin/, entry or skill.json is Lstat'ed.
    assert.deepEqual(
      rel(seen.lstat).filter((p) => /^skills\/g\d\/(p\d|ignored)(\/bin)?(\/run\.sh|\/skill\.json)?$/.test(p)),
      [],
    )
  })

  test('a config symlinked from a walked dir applies; a tests/ symlinked to a dir is read', async () => {
    const files = (
      await check({ paths: [fromText(`${R}/skills`)], rules: RULES, set: 'all', useConfig: true })
    ).files
    assert.deepEqual(
      files.map((f) => [f.file.slice(R.length + 1), f.kind, f.ignored]),
      [
        ['skills/g1/ignored/skill.json', 'manifest', true],
        ['skills/g1/p1/skill.json', 'manifest', false],
        ['skills/g2/p2/skill.json', 'manifest', false],
        // Its tests/ is a symlink to a dir: its cases are read, as from any tests/.
        ['skills/g2/p2/tests/one.json', 'cases', false],
        ['skills/g2/p3/skill.json', 'manifest', false],
        ['skills/g2/p3/tests/one.json', 'cases', false],
      ],
    )
  })

  test('what the listing answers stands for the run: a config or tests/ made after the walk is not looked for', async () => {
    const t = collectTargets([fromText(`${R}/skills`)])
    const p1 = `${R}/skills/g1/p1`
    fs.writeFileSync(`${p1}/.ongrid-skill.yaml`, 'ignore: ["*"]\n')
    fs.mkdirSync(`${p1}/tests`)
    fs.writeFileSync(`${p1}/tests/x.json`, CASES)
    try {
      const listed = new ConfigFinder(null, undefined, t.listings)
      const unlisted = new ConfigFinder(null)
      const at = fromText(p1) as GoString
      assert.deepEqual((await listed.find(at))?.ignoreText, ['**/ignored/**'])
      assert.deepEqual((await unlisted.find(at))?.ignoreText, ['*'])
      const { ManifestContext } = await import('../../../src/core/lint/context.js')
      const { casesOf } = await import('../../../src/core/lint/rule-kit/tests-util.js')
      const path = fromText(`${p1}/skill.json`)
      const root = fromText(`${R}/skills`)
      assert.equal(
        casesOf(new ManifestContext(path, root, undefined, undefined, t.listings.get(at))).length,
        0,
      )
      assert.equal(casesOf(new ManifestContext(path, root)).length, 1)
    } finally {
      fs.rmSync(`${p1}/.ongrid-skill.yaml`)
      fs.rmSync(`${p1}/tests`, { recursive: true })
    }
  })

  test('validate and lint find the same with the listings as a walk of each pack alone', async () => {
    for (const [rules, set] of [
      [MANAGER_RULES, 'manager'],
      [RULES, 'all'],
    ] as const) {
      const all = await check({ paths: [fromText(`${R}/skills`)], rules, set, useConfig: true })
      const one = async (p: string) =>
        (
          await check({
            paths: [fromText(`${R}/${p}/skill.json`)],
            rules,
            set,
            useConfig: true,
            root: fromText(`${R}/skills`),
          })
        ).files
      const each = [
        ...(await one('skills/g1/ignored')),
        ...(await one('skills/g1/p1')),
        ...(await one('skills/g2/p2')),
        ...(await one('skills/g2/p3')),
      ]
      const shown = (fs: typeof all.files) =>
        fs.map((f) => [f.file, f.ignored, f.findings.map((x) => [x.ruleId, x.line, x.column, x.message])])
      assert.deepEqual(shown(all.files), shown(each), set)
    }
  })
})

describe('a generated tree: the walk with its listings finds what each file checked alone finds', () => {
  before(() => {
    ;({ root: R, cleanup } = tempRoot())
    const nodes: Record<string, Parameters<typeof makeTree>[1][string]> = {
      'shared/ignore-some.yaml': 'ignore:\n  - "p1*/**"\n',
      'shared/cases/one.json': CASES,
      'skills/g2/.ongrid-skill.yaml': 'ignore:\n  - "p2[05]/**"\n',
      'skills/g4/.ongrid-skill.yaml': { link: '../../shared/ignore-some.yaml' },
      'skills/g5/.ongrid-skill.yml': { dir: true },
      'skills/node_modules/dep/skill.json': GOOD('dep'),
    }
    for (let i = 0; i < 60; i++) {
      const d = `skills/g${i % 6}/p${i}`
      // Planted: duplicates of earlier names, a builtin name, broken JSON, an entry in bin/.
      const name = i % 7 === 6 ? `p${i - 6}` : i === 3 ? 'web_search' : `p${i}`
      nodes[`${d}/skill.json`] =
        i % 11 === 10 ? '{"name": ' : GOOD(name, i % 4 === 1 ? 'bin/run.sh' : 'run.sh')
      nodes[i % 4 === 1 ? `${d}/bin/run.sh` : `${d}/run.sh`] = ECHO
      if (i % 13 === 4) nodes[`${d}/tests`] = { link: '../../../shared/cases' }
      else if (i % 5 === 2) nodes[`${d}/tests/one.json`] = i % 10 === 2 ? CASES : '{"cases": 1}'
    }
    makeTree(R, nodes)
  })
  after(() => cleanup())

  test('every file, name, ignore and finding, for validate and lint', async () => {
    const root = fromText(`${R}/skills`)
    const walked = collectTargets([root]).files.map((t) => bytesOf(t.path))
    assert.equal(walked.length, 60)
    const shown = (r: Awaited<ReturnType<typeof check>>) =>
      r.files.map((f) => [
        f.kind,
        f.file.slice(R.length + 1),
        f.name,
        f.ignored,
        f.findings.map((x) => `${x.line}:${x.column} ${x.ruleId} ${x.severity} ${x.message}`),
      ])
    for (const [rules, set] of [
      [MANAGER_RULES, 'manager'],
      [RULES, 'all'],
    ] as const) {
      const all = await check({ paths: [root], rules, set, useConfig: true, root })
      // Each skill.json as a PATH of its own, in walk order: no dir is listed, every lookup stats.
      const alone = await check({ paths: walked, rules, set, useConfig: true, root })
      assert.deepEqual(shown(all), shown(alone), set)
      const ids = new Set(all.files.flatMap((f) => f.findings.map((x) => x.ruleId)))
      for (const planted of ['manager/duplicate-name', 'manager/builtin-name', 'manager/parse'])
        assert.ok(ids.has(planted), `${set}: ${planted}`)
      assert.ok(all.files.some((f) => f.kind === 'cases'))
      assert.ok(all.files.some((f) => f.ignored))
    }
  })
})
