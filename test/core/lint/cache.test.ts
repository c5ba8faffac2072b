/**
 * `lint --cache` in core: which packs are answered from the cache (hits) and which are checked
 * again (misses) after each kind of change, and that the findings are those of a run without it.
 */
import assert from 'node:assert/strict'
import {
  chmodSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { join } from 'node:path'
import { after, describe, test } from 'node:test'
import { fromText } from '../../../src/core/go/gostring.js'
import { keptRule, LintCache } from '../../../src/core/lint/cache.js'
import { type CheckOptions, check } from '../../../src/core/lint/engine.js'
import { RULES } from '../../../src/core/lint/registry.js'
import { managerRelease, SUPPORTED_MANAGER_VERSIONS } from '../../../src/core/releases/release.js'
import { REPO } from '../../helpers/cli.js'
import { makeTree, manifest, tempRoot } from '../../helpers/tree.js'

const T = tempRoot('ongrid-lint-cache-')
after(T.cleanup)
const SKILLS = join(T.root, 'skills')
const DIR = join(T.root, 'cache')
mkdirSync(DIR, { mode: 0o700 })

const pack = (name: string, description: string) => ({
  [`skills/${name}/skill.json`]: manifest({ name, description, entry: 'run.sh' }),
  [`skills/${name}/run.sh`]: { exec: '#!/bin/sh\nls $1\n' },
  [`skills/${name}/README.md`]: `# ${name}\n`,
})
makeTree(T.root, {
  ...pack('disk_free', 'Reports the free space of a filesystem, in bytes.'),
  ...pack('load_avg', 'Reports the load average of the host.'),
  ...pack('port_open', 'Says whether a TCP port is open on a host.'),
  'shared/tool.sh': { exec: '#!/bin/sh\necho hi\n' },
})

/** One run with a cache read from (and saved to) DIR: its findings as text, and its hits and misses. */
async function run(extra: Partial<CheckOptions> = {}, program = 'test 1') {
  const cache = new LintCache({ dir: DIR, scope: 'tests', program })
  const opts: CheckOptions = { paths: [fromText(SKILLS)], rules: RULES, set: 'all', cache, ...extra }
  const result = await check(opts)
  cache.save()
  const plain = await check({ ...opts, cache: undefined })
  const text = (r: typeof result) =>
    JSON.stringify(r.files.map((f) => [f.file, f.findings]).concat([r.rules.map((x) => x.id)]))
  // With or without the cache, the same findings in the same order.
  assert.equal(text(result), text(plain))
  return { hits: cache.hits, misses: cache.misses, findings: text(result) }
}

describe('lint --cache: what is answered from the cache', () => {
  test('cold: every pack checked; warm: every pack answered', async () => {
    rmSync(join(DIR), { recursive: true, force: true })
    mkdirSync(DIR, { mode: 0o700 })
    assert.deepEqual((await run()).misses, 3)
    const warm = await run()
    assert.deepEqual([warm.hits, warm.misses], [3, 0])
  })

  test('a file of one pack changed: that pack alone is checked again', async () => {
    await run()
    writeFileSync(join(SKILLS, 'load_avg', 'README.md'), '# load_avg\npassword=hunter2hunter2\n')
    const r = await run()
    assert.deepEqual([r.hits, r.misses], [2, 1])
    assert.deepEqual([(await run()).hits], [3])
  })

  test('an entry outside the pack: its bytes are keyed', async () => {
    rmSync(join(SKILLS, 'port_open', 'run.sh'))
    // The entry a symlink to a script outside the pack's dir.
    symlinkSync(join(T.root, 'shared', 'tool.sh'), join(SKILLS, 'port_open', 'run.sh'))
    await run({ root: fromText(T.root) })
    assert.equal((await run({ root: fromText(T.root) })).hits, 3)
    writeFileSync(join(T.root, 'shared', 'tool.sh'), '#!/bin/sh\necho $1\n')
    const r = await run({ root: fromText(T.root) })
    assert.deepEqual([r.hits, r.misses], [2, 1])
  })

  test('the mode of a file in the pack is keyed', async () => {
    await run()
    chmodSync(join(SKILLS, 'disk_free', 'README.md'), 0o600)
    assert.deepEqual((await run()).misses, 1)
  })

  for (const [what, change] of [
    ['the settings (--rule)', { overrides: new Map([['practice/class-unset', 'error' as const]]) }],
    [
      'the manager release',
      { release: managerRelease(SUPPORTED_MANAGER_VERSIONS.find((v) => v !== managerRelease().version)) },
    ],
  ] as const) {
    test(`${what} changed: every pack checked again`, async () => {
      await run()
      assert.equal((await run(change)).misses, 3)
      assert.equal((await run(change)).hits, 3)
    })
  }

  test('another program (version or build): every pack checked again', async () => {
    await run()
    assert.equal((await run({}, 'test 2')).misses, 3)
  })

  test('the walk changed (a pack added, renamed, removed): every pack checked again', async () => {
    await run()
    makeTree(T.root, pack('uptime', 'Reports how long the host has been up.'))
    assert.equal((await run()).misses, 4)
    renameSync(join(SKILLS, 'uptime'), join(SKILLS, 'uptime2'))
    assert.equal((await run()).misses, 4)
    rmSync(join(SKILLS, 'uptime2'), { recursive: true })
    assert.equal((await run()).misses, 3)
    assert.equal((await run()).hits, 3)
  })

  test('a pack the manager refuses: kept with the rules that could not check it, the tolerant read said again', async () => {
    const file = join(SKILLS, 'load_avg', 'skill.json')
    const good = readFileSync(file, 'utf8')
    // A trailing comma: the manager's parse error; the tolerant read finds the class unset.
    writeFileSync(file, `${good.replace(/}\s*$/, '')},}`)
    try {
      const cold = await run({ tolerant: true })
      assert.match(cold.findings, /"ruleId":"manager\/parse"/)
      assert.match(cold.findings, /"tolerant":true/)
      const warm = await run({ tolerant: true })
      assert.equal(warm.misses, 0)
      assert.equal(warm.findings, cold.findings)
    } finally {
      writeFileSync(file, good)
    }
  })

  test('rules that read past the pack run every time: a name taken by another pack is not served stale', async () => {
    const root = { root: fromText(T.root) }
    const first = (await run(root)).findings
    assert.doesNotMatch(first, /"ruleId":"manager\/duplicate-name"/)
    // Same walk, another pack's content: disk_free (first in walk order) now takes port_open's
    // name, so port_open, unchanged and answered from the cache, is the duplicate: duplicate-name,
    // a rule that reads the other packs, must say so.
    const file = join(SKILLS, 'disk_free', 'skill.json')
    writeFileSync(
      file,
      manifest({ name: 'port_open', description: 'Reports the free space.', entry: 'run.sh' }),
    )
    const r = await run(root)
    assert.match(
      r.findings,
      /port_open\/skill.json","line":1,"column":\d+,"offset":\d+,"message":"skill \\"port_open\\" already registered/,
    )
    assert.equal(r.hits, 2)
  })

  test('a rule whose module reads the other packs or the machine is never kept', async () => {
    const dir = join(REPO, 'src/core/lint/rules')
    let seen = 0
    for (const f of readdirSync(dir)) {
      const src = readFileSync(join(dir, f), 'utf8')
      if (!/ctx\.(earlier|taken|entry\(|envLookup|root\b)|lstat|statSync|process\.env/.test(src)) continue
      const mod = (await import(`../../../src/core/lint/rules/${f.replace(/\.ts$/, '.js')}`)) as {
        default: { id: string; readsBeyondPack?: string }
      }
      assert.equal(keptRule(mod.default), false, f)
      seen++
    }
    assert.ok(seen >= 5)
  })

  test('kept: only rules that read the pack alone', () => {
    for (const id of [
      'manager/duplicate-name',
      'manager/builtin-name',
      'practice/confusable-tool',
      'run/interpreter-missing',
      'entry/shellcheck',
    ])
      assert.equal(keptRule(RULES.find((r) => r.id === id)!), false, id)
    assert.equal(keptRule(RULES.find((r) => r.id === 'schema/redos-pattern')!), true)
  })
})
