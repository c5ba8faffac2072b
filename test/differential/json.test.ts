/**
 * encoding/json against real Go: json.Unmarshal into the manager's SkillManifest
 * (error text and offset, every decoded field), json.Valid, the SyntaxError of
 * Unmarshal into interface{} (text and offset), and JSON string encoding.
 */
import { after, test } from 'node:test'
import { unmarshal } from '../../src/core/go/encoding/json/decode.js'
import { appendJSONString } from '../../src/core/go/encoding/json/encode.js'
import { checkValid, valid } from '../../src/core/go/encoding/json/scanner.js'
import { type GoString, toText } from '../../src/core/go/gostring.js'
import { MANIFEST_SPEC } from '../../src/core/loader/manifest.js'
import { randomString, utf8 } from './gen.js'
import {
  b64,
  capture,
  closeHarness,
  finish,
  GO_MISSING,
  getHarness,
  Mismatches,
  REPRODUCE,
  type Resp,
  seedFor,
  show,
  unb64,
  unb64OrNull,
} from './harness.js'
import {
  EDGE_DOCUMENTS,
  MANIFEST_FIELDS,
  manifestDocument,
  manifestObject,
  mutate,
  nest,
} from './manifests.js'
import { Rand } from './rand.js'

after(closeHarness)

// The spec the loader itself decodes with: the differential must test what ships.
const SPEC = MANIFEST_SPEC

/** How many generated (and, as many again, mutated) documents per run. */
const GENERATED = 5500

/** The corpus: hand-picked edges, deep nesting, generated, mutated, and every truncation of a few. */
function corpus(rand: Rand): { docs: GoString[]; counts: Record<string, number> } {
  const docs: GoString[] = [...EDGE_DOCUMENTS]
  const counts: Record<string, number> = { edge: docs.length }

  // Deep nesting around Go's limit of 10000 (the outer object is one level).
  const deep: GoString[] = []
  for (const d of [9998, 9999, 10000, 10001, 10002]) {
    deep.push(nest(rand, d, '1'))
    deep.push(nest(rand, d, '', false))
    deep.push(`{"schema":${nest(rand, d - 1, '"x"')}}`)
    deep.push(`{"name":${nest(rand, d - 1, 'null')},"entry":"e"}`)
    deep.push(`{"env_allow":${nest(rand, d - 1, '"a"')}}`)
    deep.push(`{"zz":${nest(rand, d - 1, '{}')},"class":"c"}`)
  }
  deep.push(`{"schema":${'['.repeat(20000)}`)
  docs.push(...deep)
  counts.deep = deep.length

  for (let i = 0; i < GENERATED; i++) docs.push(manifestDocument(rand))
  counts.generated = GENERATED
  for (let i = 0; i < GENERATED; i++) docs.push(mutate(rand, manifestDocument(rand)))
  counts.mutated = GENERATED

  // Every prefix of a few seeds: a full manifest, plus random ones.
  const seeds = [
    '{"name":"demo","description":"D\\u00e9mo \\"x\\"\\n","schema":{"type":"object","a":[1,-2.5e3,true,null]},' +
      '"entry":"run.sh","env_allow":["HOME","\\ud83d\\ude00"],"timeout_seconds":30,"class":"tool","category":"misc"}',
    ` { "NAME" : "${utf8(0xe9)}\\/" ,"env_allow": [ ] , "timeout_seconds" : -0 , "cla${utf8(0x17f)}s":null } `,
    manifestObject(rand),
    manifestObject(rand),
  ]
  let truncations = 0
  for (const s of seeds) {
    for (let n = 0; n < s.length; n++) docs.push(s.slice(0, n))
    truncations += s.length
  }
  counts.truncations = truncations
  return { docs, counts }
}

function ours(doc: GoString) {
  const r = unmarshal(doc, SPEC)
  const v = r.values
  const err = r.err as (typeof r.err & { offset?: number }) | null
  return {
    err: err ? err.error() : null,
    offset: err && typeof err.offset === 'number' ? err.offset : null,
    name: v.name,
    description: v.description,
    schema: v.schema,
    entry: v.entry,
    env_allow: v.env_allow,
    timeout_seconds: typeof v.timeout_seconds === 'bigint' ? v.timeout_seconds.toString() : v.timeout_seconds,
    class: v.class,
    category: v.category,
  }
}

function theirs(r: Resp) {
  return {
    err: unb64OrNull(r.err),
    offset: r.offset,
    name: unb64(r.name),
    description: unb64(r.description),
    schema: unb64OrNull(r.schema),
    entry: unb64(r.entry),
    env_allow: r.env_allow === null ? null : (r.env_allow as string[]).map(unb64),
    timeout_seconds: r.timeout_seconds,
    class: unb64(r.class),
    category: unb64(r.category),
  }
}

test('json.Unmarshal into SkillManifest, json.Valid and syntax errors', async (t) => {
  const go = await getHarness()
  if (!go) return t.skip(GO_MISSING)
  const seed = seedFor('json.manifest')
  t.diagnostic(`${go.goVersion}; ${REPRODUCE} (category seed ${seed})`)
  const { docs, counts } = corpus(new Rand(seed))
  t.diagnostic(`${docs.length} documents: ${JSON.stringify(counts)}`)

  const reqs = []
  for (const doc of docs) {
    const data = b64(doc)
    reqs.push({ op: 'unmarshal', data }, { op: 'valid', data }, { op: 'syntax', data })
  }
  const answers = await go.call(reqs)

  const um = new Mismatches('json.Unmarshal(SkillManifest)')
  const vm = new Mismatches('json.Valid')
  const sm = new Mismatches('json SyntaxError')
  docs.forEach((doc, i) => {
    const [u, v, s] = answers.slice(3 * i, 3 * i + 3)
    const input = show(doc)
    um.check(
      input,
      theirs(u),
      capture(() => ours(doc)),
    )
    vm.check(
      input,
      v.valid,
      capture(() => valid(doc)),
    )
    const want = s.syntax ? { err: unb64(s.err), offset: s.offset } : null
    sm.check(
      input,
      want,
      capture(() => {
        const e = checkValid(doc)
        return e === null ? null : { err: e.error(), offset: e.offset }
      }),
    )
  })
  finish(t, [um, vm, sm])
})

/**
 * Go 1.22+'s encoding/json writes \b and \f as `\b` and `\f`; our encoder keeps the
 * `\u0008`/`\u000c` of slog and older encoding/json. Map a newer Go's output to that form.
 */
function slogForm(goOut: GoString): GoString {
  return goOut.replace(/\\(u[0-9a-f]{4}|.)/g, (m, e: string) =>
    e === 'b' ? '\\u0008' : e === 'f' ? '\\u000c' : m,
  )
}

test('JSON string encoding (Encoder with and without SetEscapeHTML)', async (t) => {
  const go = await getHarness()
  if (!go) return t.skip(GO_MISSING)
  const seed = seedFor('json.encstring')
  t.diagnostic(`${REPRODUCE} (category seed ${seed})`)
  const rand = new Rand(seed)
  const inputs: GoString[] = [
    '',
    '<a href="x">&amp;</a>',
    '\b\f\n\r\t\v\x00\x1f\x7f',
    utf8(0x2028) + utf8(0x2029),
  ]
  for (let b = 0; b < 256; b++) inputs.push(String.fromCharCode(b))
  for (let i = 0; i < 6000; i++) inputs.push(randomString(rand, rand.pick([4, 16, 64])))
  const reqs = []
  for (const s of inputs)
    reqs.push({ op: 'encstring', s: b64(s), html: false }, { op: 'encstring', s: b64(s), html: true })
  const answers = await go.call(reqs)
  const mm = new Mismatches('JSON string encoding')
  const newer = go.goMinor >= 22
  inputs.forEach((s, i) => {
    for (const [k, html] of [
      [0, false],
      [1, true],
    ] as const) {
      let want = unb64(answers[2 * i + k].out)
      if (newer) want = slogForm(want)
      mm.check(
        `${show(s)} escapeHTML=${html}`,
        want,
        capture(() => appendJSONString(s, html)),
      )
    }
  })
  finish(t, [mm])
})

test('byte strings rendered as JSON text: one U+FFFD per invalid byte, as Go’s encoder writes them', async (t) => {
  const go = await getHarness()
  if (!go) return t.skip(GO_MISSING)
  const seed = seedFor('json.totext')
  t.diagnostic(`${REPRODUCE} (category seed ${seed})`)
  const rand = new Rand(seed)
  // Truncated sequences are where a TextDecoder (one U+FFFD per maximal subpart) and Go differ.
  const inputs: GoString[] = [
    '\xe2\x82',
    '\xf0\x9f\x98',
    'a\xe2\x82b',
    '\xed\xa0\x80',
    '\xc0\x80',
    '\xf4\x90\x80\x80',
  ]
  for (let i = 0; i < 6000; i++) inputs.push(randomString(rand, rand.pick([4, 16, 64])))
  const answers = await go.call(inputs.map((s) => ({ op: 'encstring', s: b64(s), html: false })))
  const mm = new Mismatches('toText as JSON')
  inputs.forEach((s, i) => {
    // Go's output is valid UTF-8 always: decoded as such, then parsed.
    const out = Buffer.from(unb64(answers[i].out), 'latin1').toString('utf8')
    mm.check(
      show(s),
      JSON.parse(out),
      capture(() => toText(s)),
    )
  })
  finish(t, [mm])
})

// Keep the field list in sync with the Go side's struct.
if (SPEC.fields.map((f) => f.tag).join() !== MANIFEST_FIELDS.join())
  throw new Error('SPEC and MANIFEST_FIELDS differ')
