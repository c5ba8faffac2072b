/** time.Duration.String and time.ParseDuration against real Go. */
import { after, test } from 'node:test'
import { bytesOf, type GoString } from '../../src/core/go/gostring.js'
import { durationString, parseDuration } from '../../src/core/go/time/duration.js'
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
  seedFor,
  show,
  unb64,
  unb64OrNull,
} from './harness.js'
import { Rand } from './rand.js'

after(closeHarness)

const MIN = -(1n << 63n)
const MAX = (1n << 63n) - 1n
const UNITS_NS = [1n, 1000n, 1_000_000n, 1_000_000_000n, 60_000_000_000n, 3_600_000_000_000n]

function randomInt64(rand: Rand): bigint {
  switch (rand.int(5)) {
    case 0:
      return BigInt.asIntN(64, rand.bits(64))
    case 1: {
      // Any magnitude: a random bit length.
      const v = rand.bits(1 + rand.int(63))
      return rand.chance(0.5) ? -v : v
    }
    case 2: {
      // Round numbers of a unit, plus a little.
      const v = BigInt(rand.int(100000)) * rand.pick(UNITS_NS) + BigInt(rand.pick([0, 0, 1, -1, 999, 500]))
      return BigInt.asIntN(64, rand.chance(0.3) ? -v : v)
    }
    case 3:
      return rand.pick([MIN, MAX, MIN + 1n, MAX - 1n, 0n]) + BigInt(rand.range(-3, 3))
    default: {
      const v = rand.pick(UNITS_NS) + BigInt(rand.range(-2, 2))
      return rand.chance(0.5) ? -v : v
    }
  }
}

test('time.Duration.String on random int64s', async (t) => {
  const go = await getHarness()
  if (!go) return t.skip(GO_MISSING)
  const seed = seedFor('time.durationString')
  t.diagnostic(`${REPRODUCE} (category seed ${seed})`)
  const rand = new Rand(seed)
  const inputs: bigint[] = [
    0n,
    1n,
    -1n,
    999n,
    1000n,
    1001n,
    999_999n,
    1_000_000n,
    999_999_999n,
    MIN,
    MAX,
    MIN + 1n,
  ]
  for (const u of UNITS_NS) inputs.push(u - 1n, u, u + 1n, -u)
  for (let i = 0; i < 8000; i++) inputs.push(BigInt.asIntN(64, randomInt64(rand)))
  const answers = await go.call(inputs.map((d) => ({ op: 'duration', ns: d.toString() })))
  const mm = new Mismatches('Duration.String')
  inputs.forEach((d, i) => {
    mm.check(
      `${d}ns`,
      unb64(answers[i].s),
      capture(() => durationString(d)),
    )
  })
  finish(t, [mm])
})

const UNITS = ['ns', 'us', utf8(0xb5) + 's', utf8(0x3bc) + 's', 'ms', 's', 'm', 'h']
const BAD_UNITS = [
  '',
  'x',
  'sec',
  'H',
  'S',
  'Ms',
  'mss',
  utf8(0xb5),
  '\xc2',
  '\xce',
  'u',
  'n',
  ' s',
  'd',
  '\xb5s',
  '\xbcs',
]

function durationText(rand: Rand): GoString {
  let s = rand.pick(['', '', '', '-', '+'])
  const parts = 1 + rand.int(4)
  for (let p = 0; p < parts; p++) {
    const digits = (n: number) => {
      let d = ''
      for (let i = 0; i < n; i++) d += String.fromCharCode(0x30 + rand.int(10))
      return d
    }
    const intLen = rand.weighted([
      [1, 0],
      [10, 1 + rand.int(4)],
      [2, 5 + rand.int(15)],
      [1, 18 + rand.int(4)],
    ] as const)
    s += digits(intLen)
    if (rand.chance(0.3) || intLen === 0) {
      s += '.'
      s += digits(
        rand.weighted([
          [1, 0],
          [8, 1 + rand.int(9)],
          [1, 15 + rand.int(10)],
        ] as const),
      )
    }
    s += rand.chance(0.93) ? rand.pick(UNITS) : rand.pick(BAD_UNITS)
  }
  return s
}

const DURATION_EDGES = [
  '',
  '0',
  '+0',
  '-0',
  '00',
  '0s',
  '-0s',
  '+',
  '-',
  '.',
  's',
  '.s',
  '-.s',
  '1',
  '1.',
  '1.s',
  '.5s',
  '1..2s',
  '1.2.3s',
  '1e3s',
  '1 s',
  ' 1s',
  '1s ',
  '1h2m3.5s',
  '1.5h',
  '.0000000001h',
  '0.0000000009s',
  '1.0000000000000000000001s',
  '9223372036854775807ns',
  '9223372036854775808ns',
  '-9223372036854775808ns',
  '-9223372036854775809ns',
  '9223372036854775807ns1ns',
  '-9223372036854775807ns1ns',
  '-9223372036854775808ns9223372036854775808ns',
  '2562047h47m16.854775807s',
  '2562047h47m16.854775808s',
  '-2562047h47m16.854775808s',
  '2562048h',
  '9223372036s',
  '9223372037s',
  '99999999999999999999ns',
  '0.99999999999999999999999h',
  '18446744073709551615ns',
  `1${utf8(0xb5)}s`,
  `1${utf8(0x3bc)}s`,
  `1${utf8(0xb5)}`,
  '1\xc2s',
  '1\xffs',
  '1"s',
  '1\\s',
  '1\x00s',
  '1\ts',
  `1${utf8(0x2028)}`,
]

test('time.ParseDuration on random and mutated strings', async (t) => {
  const go = await getHarness()
  if (!go) return t.skip(GO_MISSING)
  const seed = seedFor('time.parseDuration')
  t.diagnostic(`${REPRODUCE} (category seed ${seed})`)
  const rand = new Rand(seed)
  const inputs: GoString[] = [...DURATION_EDGES]
  for (let i = 0; i < 5000; i++) inputs.push(durationText(rand))
  for (let i = 0; i < 2000; i++) {
    // Byte-level mutations of a valid duration.
    let s = durationText(rand)
    const k = rand.int(s.length + 1)
    const b = rand.pick([...'0123456789.+-smhun ', '\xb5', '\xc2', '\xff', '\x00', '"'])
    s = rand.chance(0.5) ? s.slice(0, k) + b + s.slice(k) : s.slice(0, k) + s.slice(k + 1)
    inputs.push(s)
  }
  for (let i = 0; i < 1000; i++) inputs.push(randomString(rand, 8))
  const answers = await go.call(inputs.map((s) => ({ op: 'parseduration', s: b64(s) })))
  const mm = new Mismatches('ParseDuration')
  inputs.forEach((s, i) => {
    const want = { ns: answers[i].ns as string | null, err: unb64OrNull(answers[i].err) }
    const got = capture(() => {
      const r = parseDuration(bytesOf(s))
      return r.ok ? { ns: r.value.toString(), err: null } : { ns: null, err: r.err.error() }
    })
    mm.check(show(s), want, got)
  })
  finish(t, [mm])
})
