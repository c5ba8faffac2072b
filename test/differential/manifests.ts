/**
 * A seeded generator of skill manifests as raw JSON bytes: valid ones with every
 * field, key variants (case, ſ, Kelvin sign, escapes), duplicates, nulls, wrong
 * types, numbers of every shape, string escapes, surrogates, invalid UTF-8, BOMs,
 * deep nesting; plus byte-level mutations and truncations of them.
 */
import type { GoString } from '../../src/core/go/gostring.js'
import { randomRune, utf8 } from './gen.js'
import type { Rand } from './rand.js'

export const MANIFEST_FIELDS = [
  'name',
  'description',
  'schema',
  'entry',
  'env_allow',
  'timeout_seconds',
  'class',
  'category',
] as const

type Field = (typeof MANIFEST_FIELDS)[number]

const LONG_S = utf8(0x17f) // ſ, folds to s
const KELVIN = utf8(0x212a) // K, folds to k
const DOTTED_I = utf8(0x130) // İ, does not fold to i
const DOTLESS_I = utf8(0x131) // ı, does not fold to i

const BAD_BYTES = [
  '\x80',
  '\xbf',
  '\xc0\xaf',
  '\xc2',
  '\xe2\x82',
  '\xed\xa0\x80',
  '\xf4\x90\x80\x80',
  '\xfe',
  '\xff',
]

function hex4(rand: Rand, n: number): string {
  const h = n.toString(16).padStart(4, '0')
  return rand.chance(0.3) ? h.toUpperCase() : h
}

/** One piece of a JSON string literal's body (valid unless `allowBad`). */
function stringPiece(rand: Rand, allowBad: boolean): GoString {
  switch (rand.int(allowBad ? 12 : 10)) {
    case 0:
    case 1:
      return rand.pick(['a', 'skill', 'run.sh', 'Hello, world', 'x_y-z', ' ', '0', 'NAME', '<&>', "'"])
    case 2:
      return rand.pick(['\\"', '\\\\', '\\/', '\\b', '\\f', '\\n', '\\r', '\\t'])
    case 3:
      return `\\u${hex4(rand, rand.pick([0, 0x1f, 0x41, 0x7f, 0x80, 0xe9, 0x17f, 0x2028, 0xfffd, 0xfeff, 0xffff]))}`
    case 4: {
      // Surrogates: paired, lone high, lone low, reversed, high + non-low.
      const hi = 0xd800 + rand.int(0x400)
      const lo = 0xdc00 + rand.int(0x400)
      return rand.pick([
        `\\u${hex4(rand, hi)}\\u${hex4(rand, lo)}`,
        `\\u${hex4(rand, hi)}`,
        `\\u${hex4(rand, lo)}`,
        `\\u${hex4(rand, lo)}\\u${hex4(rand, hi)}`,
        `\\u${hex4(rand, hi)}\\u0041`,
        `\\u${hex4(rand, hi)}\\u${hex4(rand, hi)}`,
        `\\u${hex4(rand, hi)}x`,
        `\\u${hex4(rand, hi)}\\n`,
      ])
    }
    case 5: {
      const r = randomRune(rand)
      // Raw control characters are invalid in JSON strings: only the valid ones here.
      return r < 0x20 || r === 0x22 || r === 0x5c ? 'q' : utf8(r)
    }
    case 6:
      return `\\u${hex4(rand, rand.int(0x10000))}`
    case 7:
      return rand.pick(BAD_BYTES)
    case 8:
      return rand.pick(['\x7f', utf8(0xe9), utf8(0x1f600), utf8(0x2028), '\xef\xbb\xbf', utf8(0xfffd)])
    case 9:
      return rand.pick(['', 'x'.repeat(rand.int(300)), utf8(0xe9).repeat(3)])
    case 10:
      return rand.pick(['\x00', '\x01', '\x1f', '\n', '\t'])
    default:
      return rand.pick(['\\x41', '\\u12', '\\u12g4', '\\U0041', '\\', "\\'", '\\a', '\\0'])
  }
}

export function jsonString(rand: Rand, allowBad = false): GoString {
  const n = rand.weighted([
    [3, 0],
    [10, 1],
    [6, 3],
    [2, 8],
  ] as const)
  let s = '"'
  for (let i = 0; i < n; i++) s += stringPiece(rand, allowBad && rand.chance(0.15))
  return s + '"'
}

const NUMBERS = [
  '0',
  '-0',
  '1',
  '60',
  '60.0',
  '1.5',
  '-1',
  '1e2',
  '1E2',
  '1e+2',
  '1e-2',
  '0.0',
  '-0.0',
  '0e0',
  '100e-2',
  '9223372036854775807',
  '9223372036854775808',
  '-9223372036854775808',
  '-9223372036854775809',
  '18446744073709551616',
  '99999999999999999999999',
  '1e400',
  '-1e400',
  '2147483648',
  '00',
  '01',
  '-01',
  '1.',
  '.5',
  '+1',
  '1e',
  '1e+',
  '--1',
  '-',
  '0x10',
  'Infinity',
  'NaN',
  '1_000',
]

export function jsonNumber(rand: Rand, allowBad = false): GoString {
  if (rand.chance(0.5)) {
    const n = rand.pick(NUMBERS)
    // The list's tail is invalid JSON.
    if (!allowBad && NUMBERS.indexOf(n) >= NUMBERS.indexOf('00')) return '7'
    return n
  }
  let s = rand.chance(0.3) ? '-' : ''
  s += rand.chance(0.2) ? '0' : String(1 + rand.int(9)) + digits(rand, rand.int(rand.chance(0.1) ? 25 : 6))
  if (rand.chance(0.2)) s += '.' + digits(rand, 1 + rand.int(5))
  if (rand.chance(0.15))
    s += rand.pick(['e', 'E']) + rand.pick(['', '+', '-']) + digits(rand, 1 + rand.int(3))
  return s
}

function digits(rand: Rand, n: number): string {
  let s = ''
  for (let i = 0; i < n; i++) s += String.fromCharCode(0x30 + rand.int(10))
  return s
}

/** Whitespace between tokens: usually none or a little of JSON's four kinds; rarely something invalid. */
export function ws(rand: Rand, allowBad = false): string {
  if (rand.chance(0.6)) return ''
  let s = ''
  const n = 1 + rand.int(3)
  for (let i = 0; i < n; i++) s += rand.pick([' ', ' ', '\n', '\t', '\r', '  ', '\r\n'])
  if (allowBad && rand.chance(0.02)) s += rand.pick(['\f', '\v', '\xc2\xa0', '\x00'])
  return s
}

/** Any JSON value, nested up to `depth`. */
export function jsonValue(rand: Rand, depth: number, allowBad = false): GoString {
  const kind = rand.int(depth > 0 ? 7 : 5)
  switch (kind) {
    case 0:
      return jsonString(rand, allowBad)
    case 1:
      return jsonNumber(rand, allowBad)
    case 2:
      return rand.pick(['true', 'false', 'null'])
    case 3:
      return allowBad && rand.chance(0.2)
        ? rand.pick(['tru', 'nul', 'True', 'NULL', 'fals', 'nulll', 'n'])
        : 'null'
    case 4:
      return jsonString(rand, allowBad)
    case 5: {
      const n = rand.int(4)
      const items: string[] = []
      for (let i = 0; i < n; i++) items.push(ws(rand) + jsonValue(rand, depth - 1, allowBad) + ws(rand))
      return `[${items.join(',')}${n === 0 ? ws(rand) : ''}]`
    }
    default: {
      const n = rand.int(4)
      const items: string[] = []
      for (let i = 0; i < n; i++) {
        items.push(
          `${ws(rand)}${jsonString(rand, allowBad)}${ws(rand)}:${ws(rand)}${jsonValue(rand, depth - 1, allowBad)}${ws(rand)}`,
        )
      }
      return `{${items.join(',')}${n === 0 ? ws(rand) : ''}}`
    }
  }
}

/** A key meant for `field`: exact, or a variant that may or may not match it. */
export function keyFor(rand: Rand, field: Field): GoString {
  switch (rand.int(16)) {
    case 0: {
      // Random case flips.
      let k = ''
      for (const ch of field) k += rand.chance(0.5) ? ch.toUpperCase() : ch
      return k
    }
    case 1:
      return field.toUpperCase()
    case 2:
      return field[0].toUpperCase() + field.slice(1)
    case 3:
      // ſ folds to s (matches); only fields with an s.
      return field.replace(/s/g, () => (rand.chance(0.6) ? LONG_S : 's'))
    case 4:
      // Escaped letters: Go unquotes keys before matching.
      return field.replace(/[a-z]/g, (ch) => (rand.chance(0.3) ? `\\u${hex4(rand, ch.charCodeAt(0))}` : ch))
    case 5:
      return field.replace(/s/, () => rand.pick(['\\u017f', '\\u017F', '\\u0053']))
    case 6:
      // Does not fold to i: no match.
      return field.replace(/i/, () => rand.pick([DOTTED_I, DOTLESS_I, '\\u0130', '\\u0131']))
    case 7:
      // Near misses.
      return rand.pick([
        field + ' ',
        ' ' + field,
        field + '\\u0000',
        field.slice(0, -1),
        field + 's',
        field.replace('_', '-'),
        field.replace('_', ''),
        field + KELVIN,
        KELVIN + field,
        field + '\\u212a',
        field + '\xff',
        field.replace(/e/, '\xc3\xa9'),
      ])
    default:
      return field
  }
}

const UNKNOWN_KEYS = [
  '',
  'extra',
  'kind',
  KELVIN + 'ind',
  'version',
  'Name2',
  'env',
  'timeout',
  'schemas',
  LONG_S,
  '\\u0000',
  '\xe9',
  'a\\"b',
  'envallow',
  'ENV-ALLOW',
  'categor',
]

/** A value for `field`: usually the right type, sometimes null or another type. */
export function valueFor(rand: Rand, field: Field, allowBad = false): GoString {
  const roll = rand.u32() / 0x100000000
  if (roll < 0.1) return 'null'
  if (roll < 0.25) return jsonValue(rand, 2, allowBad) // any type at all
  switch (field) {
    case 'schema':
      return jsonValue(rand, 4, allowBad)
    case 'env_allow': {
      const n = rand.int(6)
      const items: string[] = []
      for (let i = 0; i < n; i++) {
        const r = rand.u32() / 0x100000000
        const v =
          r < 0.75
            ? jsonString(rand, allowBad)
            : r < 0.85
              ? 'null'
              : rand.pick(['1', 'true', '{}', '[]', '["x"]', '{"a":"b"}', '-0', '1e9'])
        items.push(ws(rand) + v + ws(rand))
      }
      return `[${items.join(',')}${n === 0 ? ws(rand) : ''}]`
    }
    case 'timeout_seconds':
      return jsonNumber(rand, allowBad)
    default:
      return jsonString(rand, allowBad)
  }
}

/** A manifest object: fields in random order, unknown and duplicate keys, odd whitespace. */
export function manifestObject(rand: Rand, allowBad = false): GoString {
  const members: string[] = []
  const fields = rand.shuffle(MANIFEST_FIELDS.filter(() => rand.chance(0.75)))
  const member = (key: GoString, value: GoString) =>
    `${ws(rand)}"${key}"${ws(rand)}:${ws(rand)}${value}${ws(rand)}`
  for (const f of fields) {
    if (rand.chance(0.1)) {
      const k = rand.pick(UNKNOWN_KEYS)
      members.push(member(k, jsonValue(rand, 3, allowBad)))
    }
    members.push(member(keyFor(rand, f), valueFor(rand, f, allowBad)))
    if (rand.chance(f === 'env_allow' ? 0.3 : 0.08)) {
      // A duplicate, here or later: the last one wins (and slices reuse their array).
      const dup = member(keyFor(rand, f), valueFor(rand, f, allowBad))
      members.splice(rand.int(members.length + 1), 0, dup)
    }
  }
  return `{${members.join(',')}${members.length === 0 ? ws(rand) : ''}}`
}

/** A whole document: mostly an object, sometimes something else; odd prefixes and suffixes. */
export function manifestDocument(rand: Rand): GoString {
  const allowBad = rand.chance(0.15)
  let doc: string
  const r = rand.u32() / 0x100000000
  if (r < 0.9) doc = manifestObject(rand, allowBad)
  else if (r < 0.95) doc = jsonValue(rand, 3, allowBad)
  else doc = `[${manifestObject(rand)}]`
  doc = ws(rand, allowBad) + doc + ws(rand, allowBad)
  if (rand.chance(0.01)) doc = '\xef\xbb\xbf' + doc
  if (rand.chance(0.02)) doc += rand.pick(['x', '{}', ',', ']', '}', '0', '"'])
  return doc
}

const MUTATION_BYTES = '{}[]:,"\\ 0123456789.eE+-tfnulasr\x00\x1f\x7f\x80\xc2\xe2\xed\xf0\xff \t\n\r/u'

/** 1–3 byte-level mutations: flips, insertions, deletions, duplications. */
export function mutate(rand: Rand, doc: GoString): GoString {
  const n = 1 + rand.int(3)
  for (let k = 0; k < n; k++) {
    const i = rand.int(doc.length + 1)
    const byte = rand.chance(0.7) ? rand.pick([...MUTATION_BYTES]) : String.fromCharCode(rand.int(256))
    switch (rand.int(5)) {
      case 0:
        doc = doc.slice(0, i) + byte + doc.slice(i + 1)
        break
      case 1:
        doc = doc.slice(0, i) + byte + doc.slice(i)
        break
      case 2:
        doc = doc.slice(0, i) + doc.slice(i + 1 + rand.int(3))
        break
      case 3: {
        const j = Math.min(doc.length, i + 1 + rand.int(8))
        doc = doc.slice(0, j) + doc.slice(i, j) + doc.slice(j)
        break
      }
      default: {
        // Flip one bit.
        if (i < doc.length) {
          const c = doc.charCodeAt(i) ^ (1 << rand.int(8))
          doc = doc.slice(0, i) + String.fromCharCode(c) + doc.slice(i + 1)
        }
      }
    }
  }
  return doc
}

/** Nested arrays/objects `depth` levels deep around `inner`. */
export function nest(rand: Rand, depth: number, inner: GoString, close = true): GoString {
  let open = ''
  let shut = ''
  for (let i = 0; i < depth; i++) {
    if (rand.chance(0.7)) {
      open += '['
      shut = ']' + shut
    } else {
      open += '{"k":'
      shut = '}' + shut
    }
  }
  return open + inner + (close ? shut : '')
}

/** Hand-picked documents: each targets one rule of Go's decoder or scanner. */
export const EDGE_DOCUMENTS: GoString[] = [
  '',
  ' ',
  '{}',
  '[]',
  'null',
  ' null ',
  'true',
  '"x"',
  '1',
  '1.5',
  '-0',
  '[{"name":"x"}]',
  '{"name":"x"}',
  '{"name":"x"} ',
  '{"name":"x"} {"name":"y"}',
  '{"name":"x"}}',
  '{"name":"x"},',
  '\xef\xbb\xbf{"name":"x"}',
  '{"name":"x",}',
  '{,}',
  '{"name"}',
  '{"name":}',
  '{"name" "x"}',
  '{"name":"x" "entry":"y"}',
  '{name:"x"}',
  "{'name':'x'}",
  '{"name":"x\x01"}',
  '{"name":"x\\x"}',
  '{"name":"\\u12"}',
  '{"name":"\\u12G4"}',
  '{"name":"\\ud800"}',
  '{"name":"\\udc00"}',
  '{"name":"\\ud83d\\ude00"}',
  '{"name":"\\ud83d\\u0041"}',
  '{"name":"\\ud83d\\ud83d\\ude00"}',
  '{"name":"\\udc00\\ud800"}',
  '{"name":"a\\u0000b"}',
  '{"name":"\xff\xfe"}',
  '{"name":"\xed\xa0\x80"}',
  '{"name":"\xf0\x9f\x98"}',
  '{"name":"\xc0\xaf"}',
  '{"name":1,"entry":true}',
  '{"name":{},"entry":[]}',
  '{"name":[1,2],"entry":{"a":1}}',
  '{"name":null}',
  '{"name":"a","name":null}',
  '{"NAME":"a","name":"b"}',
  '{"name":"b","NAME":"a"}',
  '{"Name":"a","nAmE":"b"}',
  '{"cla\xc5\xbfs":"x"}',
  '{"cla\\u017fs":"x"}',
  '{"CLA\xc5\xbfS":"x"}',
  '{"\xe2\x84\xaaind":"x"}',
  '{"descr\xc4\xb0ption":"x"}',
  '{"descr\xc4\xb1ption":"x"}',
  '{"n\\u0061me":"x"}',
  '{"name\\u0000":"x"}',
  '{"ENV_ALLOW":["a"]}',
  '{"Entry":"e"}',
  '{"env_allow":null}',
  '{"env_allow":[]}',
  '{"env_allow":["a"],"env_allow":[]}',
  '{"env_allow":["a"],"env_allow":null}',
  '{"env_allow":["a","b","c"],"env_allow":["x"],"env_allow":[null,null,null,null,null]}',
  '{"env_allow":["a","b","c","d","e"],"env_allow":["x"],"env_allow":[null,null,null,null,null,null,null,null,null]}',
  '{"env_allow":["a",1,"c"]}',
  '{"env_allow":[null,"b"]}',
  '{"env_allow":"a"}',
  '{"env_allow":{"a":"b"}}',
  '{"env_allow":[["a"]]}',
  '{"env_allow":[{"a":1}],"name":5}',
  '{"schema":null}',
  '{"schema":{"a" : 1} }',
  '{"schema": [ 1 , 2 ] ,"name":"x"}',
  '{"schema":"str"}',
  '{"schema":1e999}',
  '{"schema":{},"schema":[]}',
  '{"timeout_seconds":60}',
  '{"timeout_seconds":-0}',
  '{"timeout_seconds":60.0}',
  '{"timeout_seconds":1.5}',
  '{"timeout_seconds":1e2}',
  '{"timeout_seconds":-1}',
  '{"timeout_seconds":9223372036854775807}',
  '{"timeout_seconds":9223372036854775808}',
  '{"timeout_seconds":-9223372036854775808}',
  '{"timeout_seconds":-9223372036854775809}',
  '{"timeout_seconds":"60"}',
  '{"timeout_seconds":true}',
  '{"timeout_seconds":null}',
  '{"timeout_seconds":[]}',
  '{"timeout_seconds":{}}',
  '{"timeout_seconds":5,"timeout_seconds":null}',
  '{"timeout_seconds":1.5,"name":1}',
  '{"x":{"y":[1,{"z":null}]},"name":"n"}',
  '{"x":1e999}',
  '{"":1}',
  '01',
  '-',
  '1.',
  '.1',
  '1e',
  '1e+',
  'tru',
  'nulll',
  'nul',
  '[1,]',
  '[,1]',
  '[1 2]',
  '{"a":1,"a":2',
  '{"a"',
  '{"a":',
  '"',
  '"\\',
  '"\\u',
  '[',
  '{',
  '\x00',
  '\t\n\r {}',
  '\f{}',
  '{}\x00',
  '{"name":"x"}\n\n',
  '{"name":"' + 'x'.repeat(70000) + '"}',
]
