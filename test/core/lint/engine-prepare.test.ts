import assert from 'node:assert/strict'
import { join } from 'node:path'
import { after, describe, test } from 'node:test'
import { fromText, toText } from '../../../src/core/go/gostring.js'
import type { Context } from '../../../src/core/lint/context.js'
import { check } from '../../../src/core/lint/engine.js'
import { RULES } from '../../../src/core/lint/registry.js'
import type { Rule } from '../../../src/core/lint/types.js'
import { ECHO, makeTree, manifest, tempRoot } from '../../helpers/tree.js'

// The engine runs the packs in walk order; a pack whose rules' preparation waits (ShellCheck on a
// script it has not seen, a process of its own) lets the next packs start theirs meanwhile.
const { root, cleanup } = tempRoot('ongrid-engine-prepare-')
after(() => cleanup())

const N = 6
const nodes: Parameters<typeof makeTree>[1] = {}
for (let i = 0; i < N; i++) {
  nodes[`skills/p${i}/skill.json`] = manifest({ name: `p${i}`, entry: 'run.sh' })
  nodes[`skills/p${i}/run.sh`] = ECHO
}
// Two packs of one name: the second is the duplicate, whichever preparation ends first.
nodes['skills/q0/skill.json'] = manifest({ name: 'p1', entry: 'run.sh' })
nodes['skills/q0/run.sh'] = ECHO
makeTree(root, nodes)

const packOf = (ctx: Context) => /\/(\w+)\/skill\.json$/.exec(toText(ctx.path))?.[1] ?? '?'

/** A rule whose preparation waits, the packs early in the walk longest; what it saw is kept. */
function waiting() {
  const seen = { waitingNow: 0, most: 0, ended: [] as string[] }
  const rule: Rule<Context> = {
    id: 'test/waits',
    severity: 'warn',
    category: 'best-practice',
    kind: 'manifest',
    docs: 'waits in its preparation',
    examples: { bad: [], good: [] },
    async prepare(ctx) {
      seen.waitingNow++
      seen.most = Math.max(seen.most, seen.waitingNow)
      const i = Number(/\d+/.exec(packOf(ctx))?.[0] ?? 0)
      await new Promise((resolve) => setTimeout(resolve, (N - i) * 10))
      seen.ended.push(packOf(ctx))
      seen.waitingNow--
    },
    check(ctx, report) {
      report({ at: null, message: `checked ${packOf(ctx)}` })
    },
  }
  return { rule, seen }
}

const run = (rules: Rule<Context>[]) =>
  check({ paths: [fromText(join(root, 'skills'))], rules, set: 'all' }).then((r) =>
    r.files.map((f) => [f.file.slice(root.length + 1), f.findings.map((x) => `${x.ruleId} ${x.message}`)]),
  )

describe('the engine: preparations that wait', () => {
  test('the next packs start theirs meanwhile; the reports stay in walk order', async () => {
    const { rule, seen } = waiting()
    const got = await run([rule])
    assert.deepEqual(
      got.map(([file]) => file),
      [...Array.from({ length: N }, (_, i) => `skills/p${i}/skill.json`), 'skills/q0/skill.json'],
    )
    for (const [file, findings] of got)
      assert.deepEqual(findings, [`test/waits checked ${/\/(\w+)\//.exec(String(file))?.[1]}`])
    assert.ok(seen.most >= 2, `at most ${seen.most} waited at once`)
    assert.notDeepEqual(seen.ended, [...seen.ended].sort(), 'every preparation ended in walk order')
  })

  test('with every rule: what the manager’s order decides is decided in walk order', async () => {
    const { rule } = waiting()
    const all = (await run([...RULES, rule])).map(([file, findings]) => [
      file,
      (findings as string[]).filter((x) => x.startsWith('manager/')),
    ])
    const alone = (await run([...RULES])).map(([file, findings]) => [
      file,
      (findings as string[]).filter((x) => x.startsWith('manager/')),
    ])
    assert.deepEqual(all, alone)
    assert.ok(
      all.some(([file, findings]) => file === 'skills/q0/skill.json' && (findings as string[]).length > 0),
      'the second pack named p1 is reported',
    )
  })
})
