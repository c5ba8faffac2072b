/**
 * The LLM bridge's tool parameters (core/tool-def.ts toolDefinition, what `lint --show-tool` and
 * `mcp` show) against real Go, for schemas nested up to Go's decoder limit of 10000 levels: the
 * manifest decoded as the loader decodes it, then the schema through json.Unmarshal into
 * map[string]any, "type" added, json.Marshal (the harness's `toolschema` op).
 */
import { after, test } from 'node:test'
import { unmarshal } from '../../src/core/go/encoding/json/decode.js'
import { fromText, type GoString } from '../../src/core/go/gostring.js'
import type { SubprocessSkill } from '../../src/core/loader/build.js'
import { MANIFEST_SPEC } from '../../src/core/loader/manifest.js'
import { toolDefinition } from '../../src/core/tool-def.js'
import {
  b64,
  capture,
  closeHarness,
  finish,
  GO_MISSING,
  getHarness,
  Mismatches,
  REPRODUCE,
  seedFor,
  show,
  unb64,
} from './harness.js'
import { Rand } from './rand.js'

after(closeHarness)

/** One level of a kind of subschema: its text before and after the inner schema, and the JSON levels it adds. */
type Level = { open: string; close: string; levels: 1 | 2 }
const ONE: Level[] = [
  { open: '{"type":"array","items":', close: '}', levels: 1 },
  { open: '{"not":', close: '}', levels: 1 },
  { open: '{"type":"object","additionalProperties":', close: ',"minProperties":1e0}', levels: 1 },
]
const TWO: Level[] = [
  { open: '{"type":"object","properties":{"a":', close: '}}', levels: 2 },
  { open: '{"anyOf":[{"type":"null"},', close: ']}', levels: 2 },
  { open: '{"$defs":{"<&>\\u2028é":', close: '},"description":"x\\u003cy"}', levels: 2 },
  { open: '{"properties":{"b":1,"b":', close: ',"c":-0}}', levels: 2 },
]

/** A manifest whose whole text nests `depth` JSON levels, its schema built of these levels. */
function manifest(depth: number, pick: (remaining: number) => Level): GoString {
  // The manifest object and the leaf are one level each.
  let remaining = depth - 2
  let open = ''
  let close = ''
  while (remaining > 0) {
    const l = pick(remaining)
    open += l.open
    close = l.close + close
    remaining -= l.levels
  }
  return fromText(`{"name":"k","schema":${open}{"type":"string","maxLength":1.5e3}${close}}`)
}

function ours(doc: GoString): unknown {
  const r = unmarshal(doc, MANIFEST_SPEC)
  if (r.err) return { decode: r.err.error() }
  const schema = r.values.schema as GoString | null
  if (schema === null || schema === '') return { params: null }
  const skill = { key: 'k', class: 'safe', description: '', schema } as unknown as SubprocessSkill
  const d = toolDefinition(skill, schema, 0)
  return d.offered ? { params: d.parameters } : { err: d.err?.error() ?? d.reason }
}

test('the bridge’s tool parameters for schemas nested up to Go’s 10000 levels', async (t) => {
  const go = await getHarness()
  if (!go) return t.skip(GO_MISSING)
  const seed = seedFor('bridge.toolschema')
  t.diagnostic(`${REPRODUCE} (category seed ${seed})`)
  const rand = new Rand(seed)
  const docs: GoString[] = []
  // Around ajv's old stack limit (~400), json-tree's 1000, and Go's 10000 (10001 is refused).
  for (const depth of [3, 50, 399, 400, 999, 1000, 1001, 1002, 5000, 9998, 9999, 10000, 10001]) {
    for (const l of [...ONE, ...TWO]) docs.push(manifest(depth, (rem) => (rem >= l.levels ? l : ONE[0])))
    for (let i = 0; i < 3; i++) {
      docs.push(manifest(depth, (rem) => (rem >= 2 && rand.int(2) === 0 ? rand.pick(TWO) : rand.pick(ONE))))
    }
  }
  const answers = await go.call(docs.map((d) => ({ op: 'toolschema', data: b64(d) })))
  const mm = new Mismatches('bridge tool parameters')
  docs.forEach((doc, i) => {
    const a = answers[i]
    const want =
      a.decode !== null
        ? { decode: unb64(a.decode) }
        : a.err !== null
          ? { err: unb64(a.err) }
          : { params: a.params === null ? null : unb64(a.params) }
    mm.check(
      show(doc, 200),
      want,
      capture(() => ours(doc)),
    )
  })
  finish(t, [mm])
})
