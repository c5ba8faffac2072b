import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, test } from 'node:test'
import { BUILTIN_TERMS } from '../../../src/core/agent/builtin-terms.js'
import {
  builtinsSharing,
  builtinTexts,
  builtinVectors,
  cosine,
  termCounts,
  terms,
  toolSimilarity,
  toolVector,
} from '../../../src/core/agent/similarity.js'
import { CONFUSABLE_FROM } from '../../../src/core/lint/rules/practice-confusable-tool.js'

type Tool = { name: string; description: string }
interface Fixture {
  builtinConfusable: [string, string][]
  pairs: { label: 'confusable' | 'distinct'; a: Tool | string; b: Tool | string }[]
}

const FIXTURE = join(import.meta.dirname, '../../../../test/fixtures/similarity/pairs.json')

/** The labelled sample: the written pairs, and every pair of builtin tools. */
function sample(): { a: Tool; b: Tool; confusable: boolean }[] {
  const fx = JSON.parse(readFileSync(FIXTURE, 'utf8')) as Fixture
  const byName = new Map(builtinTexts().map((t) => [t.name, t]))
  const side = (s: Tool | string): Tool => {
    if (typeof s !== 'string') return s
    const t = byName.get(s)
    assert.ok(t, `builtin ${s}`)
    return t
  }
  const key = (a: string, b: string) => [a, b].sort().join(' ')
  const close = new Set(fx.builtinConfusable.map(([a, b]) => key(side(a).name, side(b).name)))
  const out: { a: Tool; b: Tool; confusable: boolean }[] = []
  const all = [...byName.values()]
  for (const [i, a] of all.entries())
    for (const b of all.slice(i + 1)) out.push({ a, b, confusable: close.has(key(a.name, b.name)) })
  for (const p of fx.pairs) out.push({ a: side(p.a), b: side(p.b), confusable: p.label === 'confusable' })
  return out
}

describe('tool similarity', () => {
  test('terms: snake_case and camelCase split, lowercased, stop words and plural s off, CJK in pairs', () => {
    assert.deepEqual(terms('host_tail_file'), ['host', 'tail', 'file'])
    assert.deepEqual(terms('getHostLoad'), ['get', 'host', 'load'])
    assert.deepEqual(terms('Return the last lines of the Logs'), ['return', 'last', 'line', 'log'])
    assert.deepEqual(terms('processes, queries, status'), ['processe', 'query', 'status'])
    assert.deepEqual(terms('读取文件 (tail -n)'), ['读取', '取文', '文件', 'tail'])
  })

  test('symmetric, 1 for the same tool, 0 for no word shared', () => {
    const a = { name: 'tail_log', description: 'Return the last N lines of a log file.' }
    const b = { name: 'disk_free', description: 'Show free disk space.' }
    assert.equal(toolSimilarity(a, b), toolSimilarity(b, a))
    assert.ok(Math.abs(toolSimilarity(a, a) - 1) < 1e-12)
    assert.equal(toolSimilarity(a, b), 0)
  })

  test('the labelled sample: precision, recall and false positives at the threshold docs/decisions.md states', () => {
    let tp = 0
    let fp = 0
    let fn = 0
    const s = sample()
    for (const p of s) {
      const hit = toolSimilarity(p.a, p.b) >= CONFUSABLE_FROM
      if (hit && p.confusable) tp++
      else if (hit) fp++
      else if (p.confusable) fn++
    }
    const distinct = s.filter((p) => !p.confusable).length
    assert.equal(s.length, 489, 'the sample: 435 builtin pairs and 54 written ones')
    assert.equal(distinct, 456)
    // docs/decisions.md: precision 15/17 (0.88), recall 15/33 (0.45), 2 of 456 distinct pairs reported.
    assert.ok(fp <= 2, `false positives ${fp}`)
    assert.ok(tp / (tp + fp) >= 0.88, `precision ${tp}/${tp + fp}`)
    assert.ok(tp / (tp + fn) >= 0.45, `recall ${tp}/${tp + fn}`)
  })
})

test('the vectors are those of the term count maps (the first way of computing them), and only builtins sharing a term score above 0', () => {
  // The IDF and vectors as first written: a map of counts per builtin, the IDF map, each vector's
  // weights set and then divided by its norm.
  const docs = BUILTIN_TERMS.map(([name, encoded]) => {
    const counts = new Map<string, number>()
    if (encoded !== '')
      for (const pair of encoded.split(' ')) {
        const eq = pair.lastIndexOf('=')
        counts.set(pair.slice(0, eq), Number(pair.slice(eq + 1)))
      }
    return { name, counts }
  })
  const df = new Map<string, number>()
  for (const d of docs) for (const t of d.counts.keys()) df.set(t, (df.get(t) ?? 0) + 1)
  const w = new Map<string, number>()
  for (const [t, k] of df) w.set(t, Math.log((1 + docs.length) / (1 + k)) + 1)
  const unseen = Math.log(1 + docs.length) + 1
  const unit = (counts: Map<string, number>) => {
    const v = new Map<string, number>()
    let norm = 0
    for (const [t, c] of counts) {
      const x = c * (w.get(t) ?? unseen)
      v.set(t, x)
      norm += x * x
    }
    norm = Math.sqrt(norm)
    if (norm > 0) for (const [t, x] of v) v.set(t, x / norm)
    return v
  }
  const builtins = builtinVectors()
  assert.deepStrictEqual(
    builtins,
    docs.map((d) => ({ name: d.name, vector: unit(d.counts) })),
  )
  const fx = JSON.parse(readFileSync(FIXTURE, 'utf8')) as Fixture
  const tools = [
    ...builtinTexts(),
    ...fx.pairs.flatMap((p) => [p.a, p.b]).filter((t): t is Tool => typeof t !== 'string'),
    { name: 'check_port', description: 'Checks whether a TCP port is open on a host' },
    { name: 'x', description: '' },
    { name: '读取文件', description: '读取主机上的日志文件 tail' },
  ]
  let shared = 0
  for (const t of tools) {
    const v = toolVector(t.name, t.description)
    assert.deepStrictEqual(v, unit(termCounts(t.name, t.description)), t.name)
    const sharing = builtinsSharing(v)
    assert.deepStrictEqual(
      sharing,
      builtins.filter((b) => cosine(v, b.vector) > 0),
      t.name,
    )
    shared += sharing.length
  }
  assert.ok(shared > tools.length, 'the tools share terms with builtins')
})
