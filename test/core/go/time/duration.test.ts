import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { bytesOf, fromText } from '../../../../src/core/go/gostring.js'
import {
  durationString,
  fromSeconds,
  MILLISECOND,
  parseDuration,
  quote,
  SECOND,
} from '../../../../src/core/go/time/duration.js'

describe('time.Duration.String', () => {
  // From Go 1.19 (same algorithm in Go 1.25). µ is the byte string "\xc2\xb5".
  const cases: [bigint, string][] = [
    [0n, '0s'],
    [1n, '1ns'],
    [999n, '999ns'],
    [1000n, '1\xc2\xb5s'],
    [1001n, '1.001\xc2\xb5s'],
    [1500n, '1.5\xc2\xb5s'],
    [999999n, '999.999\xc2\xb5s'],
    [1000000n, '1ms'],
    [1500000n, '1.5ms'],
    [500000000n, '500ms'],
    [999999999n, '999.999999ms'],
    [1000000000n, '1s'],
    [1500000000n, '1.5s'],
    [30000000000n, '30s'],
    [60000000000n, '1m0s'],
    [90000000000n, '1m30s'],
    [7200000000000n, '2h0m0s'],
    [3599999999999n, '59m59.999999999s'],
    [360000000000001n, '100h0m0.000000001s'],
    [-1n, '-1ns'],
    [-1500000n, '-1.5ms'],
    [-90000000000n, '-1m30s'],
    [-9223372036854775808n, '-2562047h47m16.854775808s'],
    [9223372036854775807n, '2562047h47m16.854775807s'],
  ]
  for (const [d, want] of cases) {
    test(`${d}`, () => assert.equal(durationString(d), want))
  }

  test('constants', () => {
    assert.equal(SECOND, 1000000000n)
    assert.equal(MILLISECOND, 1000000n)
  })
})

describe('time.ParseDuration', () => {
  // [input, nanoseconds or error text], from Go 1.19 (ParseDuration is unchanged in Go 1.25).
  const cases: [string, bigint | string][] = [
    ['0', 0n],
    ['-0', 0n],
    ['+0', 0n],
    ['0s', 0n],
    ['-0s', 0n],
    ['', 'time: invalid duration ""'],
    ['-', 'time: invalid duration "-"'],
    ['+', 'time: invalid duration "+"'],
    ['x', 'time: invalid duration "x"'],
    ['1', 'time: missing unit in duration "1"'],
    ['00', 'time: missing unit in duration "00"'],
    ['1s2', 'time: missing unit in duration "1s2"'],
    ['1q', 'time: unknown unit "q" in duration "1q"'],
    ['0x', 'time: unknown unit "x" in duration "0x"'],
    ['1e3s', 'time: unknown unit "e" in duration "1e3s"'],
    ['1 s', 'time: unknown unit " s" in duration "1 s"'],
    ['1S', 'time: unknown unit "S" in duration "1S"'],
    ['1.5h', 5400000000000n],
    ['1h30m', 5400000000000n],
    ['-1.5s', -1500000000n],
    ['+2m', 120000000000n],
    ['5m0.5s', 300500000000n],
    ['300ms', 300000000n],
    ['1us', 1000n],
    ['1\xc2\xb5s', 1000n], // U+00B5 micro sign
    ['1\xce\xbcs', 1000n], // U+03BC Greek mu
    ['1ns', 1n],
    ['3h2m1s0.5ns', 10921000000000n],
    ['.5s', 500000000n],
    ['5.s', 5000000000n],
    ['1.s', 1000000000n],
    ['.s', 'time: invalid duration ".s"'],
    ['-.s', 'time: invalid duration "-.s"'],
    ['0.000000001s', 1n],
    ['0.0000000001s', 0n],
    ['1.0000000000000000000001h', 3600000000000n],
    ['0.1234567890123456789012345678901234567890h', 444444440444n],
    ['1.9999999999999999999999s', 2000000000n],
    ['9223372036854775807ns', 9223372036854775807n],
    ['9223372036854775808ns', 'time: invalid duration "9223372036854775808ns"'],
    ['-9223372036854775808ns', -9223372036854775808n],
    ['-9223372036854775809ns', 'time: invalid duration "-9223372036854775809ns"'],
    ['2562047h47m16.854775807s', 9223372036854775807n],
    ['2562047h47m16.854775808s', 'time: invalid duration "2562047h47m16.854775808s"'],
    ['2562048h', 'time: invalid duration "2562048h"'],
    ['10000000000000000000s', 'time: invalid duration "10000000000000000000s"'],
    // Go's uint64 sum wraps to 0 at exactly 2^63 + 2^63.
    ['9223372036854775808ns9223372036854775808ns', 0n],
    ['9223372036854775808ns9223372036854775808ns1ns', 1n],
    // The time package's own quoting: bytes >= 0x80 or < 0x20 as \xHH, DEL raw.
    ['1\xffs', 'time: unknown unit "\\xffs" in duration "1\\xffs"'],
    ['1"\\s', 'time: unknown unit "\\"\\\\s" in duration "1\\"\\\\s"'],
    ['\t1s', 'time: invalid duration "\\x091s"'],
    ['1\xc2\xb5', 'time: unknown unit "\\xc2\\xb5" in duration "1\\xc2\\xb5"'],
    ['1\xc2', 'time: unknown unit "\\xc2" in duration "1\\xc2"'],
    ['1s\x7f', 'time: unknown unit "s\x7f" in duration "1s\x7f"'],
  ]
  for (const [input, want] of cases) {
    test(JSON.stringify(input), () => {
      const res = parseDuration(bytesOf(input))
      if (typeof want === 'bigint') {
        assert.deepEqual(res, { ok: true, value: want })
      } else {
        assert.equal(res.ok, false)
        if (!res.ok) assert.equal(res.err.error(), want)
      }
    })
  }

  test('takes bytes, not text: a missing fromText does not compile', () => {
    // 1µs as text is one char U+00B5, not the two bytes of µ that Go reads: an unknown unit.
    // @ts-expect-error a plain string is text, not GoBytes
    const raw = parseDuration('1µs' as string)
    assert.equal(raw.ok, false)
    assert.deepEqual(parseDuration(fromText('1µs')), { ok: true, value: 1000n })
    assert.throws(() => bytesOf('1µs\u2009'), RangeError)
  })

  test('round trip through durationString', () => {
    for (const d of [1n, 1500n, 999999999n, 90000000000n, -7200000000001n, 9223372036854775807n]) {
      assert.deepEqual(parseDuration(durationString(d)), { ok: true, value: d })
    }
  })

  test("time's quote", () => {
    assert.equal(quote('a\xef\xbf\xbd\x00'), '"a\\xef\\xbf\\xbd\\x00"')
  })
})

describe('fromSeconds (time.Duration(n) * time.Second)', () => {
  // From Go 1.19: int64 multiplication wraps in two's complement.
  const cases: [bigint, bigint][] = [
    [0n, 0n],
    [30n, 30000000000n],
    [-1n, -1000000000n],
    [9223372036n, 9223372036000000000n],
    [9223372037n, -9223372036709551616n],
    [18446744073n, -709551616n],
    [18446744074n, 290448384n],
    [18446744073709551n, -616000000n],
    [9223372036854775807n, -1000000000n],
    [-9223372036854775808n, 0n],
  ]
  for (const [n, want] of cases) {
    test(`${n}`, () => assert.equal(fromSeconds(n), want))
  }
})
