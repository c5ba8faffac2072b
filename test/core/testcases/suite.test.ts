import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { fromText } from '../../../src/core/go/gostring.js'
import {
  findPacks,
  HELD_PER_JOB,
  type ItemResult,
  plan,
  runItems,
} from '../../../src/core/testcases/suite.js'
import { makeTree, tempRoot } from '../../helpers/tree.js'

let R = ''
let cleanup = () => {}
before(() => {
  ;({ root: R, cleanup } = tempRoot('ongrid-suite-'))
})
after(() => cleanup())

// Sleeps as long as args.ms says, so that later cases finish first under -j.
const SLEEPER = `#!/bin/sh
read -r line
ms=$(printf '%s' "$line" | sed 's/[^0-9]//g')
sleep "$(printf '0.%03d' "$ms")"
printf '{"ms":%s}' "$ms"
`

describe('runItems', () => {
  test('parallel runs report in plan order', async () => {
    const cases = [300, 10, 200, 5, 100, 1].map((ms, i) => ({
      name: `c${i}`,
      args: { ms },
      expect: { ok: true },
    }))
    makeTree(R, {
      'a/skill.json': JSON.stringify({ name: 'sleeper', description: 'd', entry: 'run.sh' }),
      'a/run.sh': { exec: SLEEPER },
      'a/tests/cases.json': JSON.stringify(cases),
    })
    const items = plan(findPacks([join(R, 'a')].map(fromText)), null)
    const seen: number[] = []
    const starts: number[] = []
    const finishOrder: string[] = []
    const s = await runItems(items, {
      jobs: 3,
      bail: false,
      update: false,
      onStart: (_, i) => starts.push(i),
      onResult: (r: ItemResult, i) => {
        seen.push(i)
        finishOrder.push(r.item.name)
      },
    })
    assert.deepEqual(seen, [0, 1, 2, 3, 4, 5])
    assert.deepEqual(finishOrder, ['c0', 'c1', 'c2', 'c3', 'c4', 'c5'])
    assert.equal(s.passed, 6)
    assert.equal(s.failed, 0)
  })

  test('results are reported as they come; a slow case holds at most jobs × HELD_PER_JOB (memory bounded by -j)', async () => {
    const cases = [400, ...Array.from({ length: 60 }, () => 0)].map((ms, i) => ({
      name: `c${i}`,
      args: { ms },
      expect: { ok: true },
    }))
    makeTree(R, {
      'w/skill.json': JSON.stringify({ name: 'sleeper', description: 'd', entry: 'run.sh' }),
      'w/run.sh': { exec: SLEEPER },
      'w/tests/cases.json': JSON.stringify(cases),
    })
    const jobs = 2
    let reported = 0
    let maxAhead = 0
    const log: string[] = []
    const s = await runItems(plan(findPacks([join(R, 'w')].map(fromText)), null), {
      jobs,
      bail: false,
      update: false,
      onStart: (_, i) => {
        maxAhead = Math.max(maxAhead, i - reported)
        log.push(`start ${i}`)
      },
      onResult: () => {
        reported++
        log.push(`result ${reported - 1}`)
      },
    })
    assert.equal(s.passed, 61)
    // While c0 sleeps, the other job runs ahead only as far as the window lets it.
    assert.ok(maxAhead < jobs * HELD_PER_JOB, `started ${maxAhead} past the first unreported case`)
    // Results stream: the first is out long before the last case starts.
    assert.ok(log.indexOf('result 0') < log.indexOf('start 60'), log.join(', '))
  })

  test('--bail starts nothing after a failure', async () => {
    makeTree(R, {
      'b/skill.json': JSON.stringify({ name: 'sleeper', description: 'd', entry: 'run.sh' }),
      'b/run.sh': { exec: SLEEPER },
      'b/tests/cases.json': JSON.stringify([
        { name: 'bad', args: { ms: 1 }, expect: { ok: false } },
        { name: 'x', args: { ms: 1 }, expect: { ok: true } },
        { name: 'y', args: { ms: 1 }, expect: { ok: true } },
      ]),
    })
    const names: string[] = []
    const s = await runItems(plan(findPacks([join(R, 'b')].map(fromText)), null), {
      jobs: 1,
      bail: true,
      update: false,
      onResult: (r) => names.push(r.item.name),
    })
    assert.deepEqual(names, ['bad'])
    assert.deepEqual([s.failed, s.notRun], [1, 2])
  })

  test('filter, broken case files and rejected packs', async () => {
    makeTree(R, {
      'c/skill.json': JSON.stringify({ name: 'sleeper', description: 'd', entry: 'run.sh' }),
      'c/run.sh': { exec: SLEEPER },
      'c/tests/a.json': JSON.stringify([
        { name: 'fast one', args: { ms: 1 }, expect: { ok: true } },
        { name: 'other', args: { ms: 1 }, expect: { ok: true } },
      ]),
      'c/tests/b.json': '{"name": "broken", "expect": {"okk": true}}',
      'd/skill.json': JSON.stringify({ name: 'bad name', description: 'd', entry: 'run.sh' }),
      'd/tests/a.json': JSON.stringify({ name: 'n', expect: { ok: true } }),
    })
    const items = plan(findPacks([join(R, 'c'), join(R, 'd')].map(fromText)), /fast|^n$/)
    assert.deepEqual(
      items.map((i) => [i.pack.name, i.name]),
      [
        ['sleeper', 'fast one'],
        ['sleeper', 'tests/b.json'],
        ['d', '(pack)'],
      ],
    )
    const results: ItemResult[] = []
    await runItems(items, { jobs: 2, bail: false, update: false, onResult: (r) => results.push(r) })
    assert.deepEqual(
      results.map((r) => r.passed),
      [true, false, false],
    )
    assert.equal(
      results[1].failures[0].message,
      '/expect/okk: unknown key "okk" in expect (known: ok, result, result_schema, error, timed_out, stderr_contains, max_duration_ms, effects)',
    )
    assert.match(results[2].failures[0].message, /^skill loader: build bad name \(.*\/d\/skill.json\): /)
  })

  test('--update writes snapshots into their case files', async () => {
    makeTree(R, {
      'e/skill.json': JSON.stringify({ name: 'sleeper', description: 'd', entry: 'run.sh' }),
      'e/run.sh': { exec: SLEEPER },
      'e/tests/a.json': JSON.stringify([
        { name: 'snap', args: { ms: 7 }, snapshot: true },
        { name: 'plain', args: { ms: 1 }, expect: { ok: true } },
      ]),
      'e/tests/b.json': JSON.stringify({
        name: 'single',
        args: { ms: 2 },
        snapshot: true,
        expect: { result: { ms: 0 } },
      }),
    })
    const first = await runItems(plan(findPacks([join(R, 'e')].map(fromText)), null), {
      jobs: 2,
      bail: false,
      update: false,
      onResult: () => {},
    })
    assert.equal(first.failed, 2)
    const s = await runItems(plan(findPacks([join(R, 'e')].map(fromText)), null), {
      jobs: 2,
      bail: false,
      update: true,
      onResult: () => {},
    })
    assert.deepEqual([s.passed, s.updated], [3, 2])
    assert.deepEqual(JSON.parse(readFileSync(join(R, 'e/tests/a.json'), 'utf8')), [
      { name: 'snap', args: { ms: 7 }, snapshot: true, expect: { result: { ms: 7 } } },
      { name: 'plain', args: { ms: 1 }, expect: { ok: true } },
    ])
    assert.deepEqual(JSON.parse(readFileSync(join(R, 'e/tests/b.json'), 'utf8')).expect, {
      result: { ms: 2 },
    })
    const again = await runItems(plan(findPacks([join(R, 'e')].map(fromText)), null), {
      jobs: 2,
      bail: false,
      update: false,
      onResult: () => {},
    })
    assert.deepEqual([again.passed, again.failed, again.updated], [3, 0, 0])
  })
})
