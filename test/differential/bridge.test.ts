/**
 * The params the LLM bridge sends for a tool call (core/mcp/tools.ts bridgeParams) against real
 * Go: json.Unmarshal of the args into map[string]json.RawMessage, edge_id and device_id
 * deleted, json.Marshal. The args are what an MCP client sends: JSON.stringify of a value.
 */
import { after, test } from 'node:test'
import { fromText, type GoString } from '../../src/core/go/gostring.js'
import { bridgeParams } from '../../src/core/mcp/tools.js'
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
  unb64,
} from './harness.js'
import { Rand } from './rand.js'

after(closeHarness)

/** Characters that matter to Go's encoder and sort: HTML, controls, U+2028/9, non-BMP, surrogates. */
const ALPHABET = [
  'a',
  'b',
  'Z',
  '_',
  '0',
  ' ',
  '<',
  '>',
  '&',
  '"',
  '\\',
  '/',
  '\n',
  '\t',
  '\u0000',
  '\u001f',
  '\u007f',
  'é',
  '\u2028',
  '\u2029',
  '\uFF01',
  '\u{1F600}',
  '\uFFFD',
  '\uD800',
  '\uDC00',
]

function text(rand: Rand, max: number): string {
  let s = ''
  const n = rand.int(max + 1)
  for (let i = 0; i < n; i++) s += rand.pick(ALPHABET)
  return s
}

function value(rand: Rand, depth: number): unknown {
  const k = rand.int(depth > 3 ? 5 : 7)
  switch (k) {
    case 0:
      return null
    case 1:
      return rand.int(2) === 0
    case 2:
      return rand.pick([0, -0, 1, -1, 2 ** 53, 1e21, 1e-7, 0.1, 123.456, -5e-324, 1.7976931348623157e308])
    case 3:
    case 4:
      return text(rand, 8)
    case 5:
      return Array.from({ length: rand.int(4) }, () => value(rand, depth + 1))
    default:
      return args(rand, depth + 1)
  }
}

function args(rand: Rand, depth = 0): Record<string, unknown> {
  const o: Record<string, unknown> = {}
  const n = rand.int(6)
  for (let i = 0; i < n; i++) {
    const key =
      rand.int(5) === 0
        ? rand.pick(['edge_id', 'device_id', 'Edge_ID', 'path', '1', '10', '9'])
        : text(rand, 5)
    o[key] = value(rand, depth)
  }
  return o
}

test('the bridge’s params for tool-call args', async (t) => {
  const go = await getHarness()
  if (!go) return t.skip(GO_MISSING)
  const seed = seedFor('bridge.params')
  t.diagnostic(`${REPRODUCE} (category seed ${seed})`)
  const rand = new Rand(seed)
  const inputs: Record<string, unknown>[] = [
    {},
    { edge_id: 1, device_id: 2 },
    { b: 1, a: 2 },
    { '<': '>&' },
    { s: '\u2028\u2029' },
    { [`k${'\b'}`]: 1 },
  ]
  for (let i = 0; i < 4000; i++) inputs.push(args(rand))
  const sent: GoString[] = inputs.map((a) => fromText(JSON.stringify(a)))
  const answers = await go.call(sent.map((d) => ({ op: 'bridgeparams', data: b64(d) })))
  const mm = new Mismatches('bridge params')
  const newer = go.goMinor >= 22
  inputs.forEach((a, i) => {
    const want = answers[i].err === null ? unb64(answers[i].out) : { err: unb64(answers[i].err) }
    const got = capture(() => bridgeParams(JSON.parse(JSON.stringify(a))))
    // Go before 1.22 writes \b and \f in keys as \u0008 and \u000c; the manager's Go 1.25 as \b and \f.
    if (!newer && typeof want === 'string' && typeof got === 'string' && /\\u000[8c]/.test(want)) {
      if (want.replace(/\\u0008/g, '\\b').replace(/\\u000c/g, '\\f') === got) {
        mm.tolerate(`${sent[i]}`)
        return
      }
    }
    mm.check(sent[i], want, got)
  })
  finish(t, [mm])
})
