import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import {
  inTable,
  isGraphic,
  isPrint,
  PRINT,
  SPACE_SEPARATOR,
} from '../../../../src/core/go/unicode/tables.js'

describe('unicode tables (Unicode 15.0.0, as in Go 1.21–1.25)', () => {
  test('tables are sorted, disjoint, non-adjacent inclusive pairs', () => {
    for (const table of [PRINT, SPACE_SEPARATOR]) {
      assert.equal(table.length % 2, 0)
      for (let i = 0; i < table.length; i += 2) {
        assert.ok(table[i] <= table[i + 1])
        if (i > 0) assert.ok(table[i] > table[i - 1] + 1)
      }
    }
    assert.equal(PRINT.length, 711 * 2)
    assert.deepEqual(
      [...SPACE_SEPARATOR],
      [
        0x20, 0x20, 0xa0, 0xa0, 0x1680, 0x1680, 0x2000, 0x200a, 0x202f, 0x202f, 0x205f, 0x205f, 0x3000,
        0x3000,
      ],
    )
  })

  test('inTable edges', () => {
    const t = new Uint32Array([5, 7, 10, 10])
    assert.deepEqual(
      [4, 5, 6, 7, 8, 9, 10, 11].map((r) => inTable(t, r)),
      [false, true, true, true, false, false, true, false],
    )
    assert.equal(inTable(new Uint32Array([]), 0), false)
  })

  test('isPrint agrees with Go 1.19 where Unicode 13 and 15 agree', () => {
    // Values from Go 1.19's unicode.IsPrint.
    const yes = [0x20, 0x41, 0x7e, 0xa1, 0xe9, 0x301, 0x4e00, 0xfffd, 0x1f600, 0x20000, 0x2fa1d, 0xe0100]
    const no = [
      0x0, 0x1f, 0x7f, 0x85, 0xa0, 0xad, 0x378, 0x200b, 0x2028, 0x3000, 0xe000, 0xfeff, 0xe0001, 0x10ffff,
    ]
    for (const r of yes) assert.equal(isPrint(r), true, r.toString(16))
    for (const r of no) assert.equal(isPrint(r), false, r.toString(16))
  })

  test('isPrint follows Unicode 15.0, not Go 1.19 (Unicode 13) nor Node (Unicode 16+)', () => {
    // Assigned L/M/N/P/S in Unicode 14.0 or 15.0 (UnicodeData.txt 15.0.0); Go 1.19 says false.
    const added = [
      0x0870, // ARABIC LETTER ALEF WITH ATTACHED FATHA, Lo, 14.0
      0x1fae0, // MELTING FACE, So, 14.0
      0x1fae8, // SHAKING FACE, So, 15.0
      0x1fa77, // PINK HEART, So, 15.0
      0x11f00, // KAWI SIGN CANDRABINDU, Mn, 15.0
      0x1e4d0, // NAG MUNDARI LETTER O, Lo, 15.0
      0x31350, // first CJK Unified Ideograph of Extension H, Lo, 15.0
    ]
    for (const r of added) assert.equal(isPrint(r), true, r.toString(16))
    // Added as Cf (format) in 14.0 / 15.0: still not printable.
    assert.equal(isPrint(0x0890), false) // ARABIC POUND MARK ABOVE
    assert.equal(isPrint(0x13439), false) // EGYPTIAN HIEROGLYPH INSERT AT MIDDLE
    // Unassigned in 15.0, assigned in 16.0 (Node's \p{…} says yes).
    assert.equal(isPrint(0x1fae9), false) // FACE WITH BAGS UNDER EYES
    assert.equal(isPrint(0x10d40), false) // GARAY VOWEL SIGN A
  })

  test('isGraphic adds the Zs spaces', () => {
    for (const r of [0x20, 0xa0, 0x1680, 0x2000, 0x200a, 0x202f, 0x205f, 0x3000])
      assert.equal(isGraphic(r), true)
    for (const r of [0x9, 0x85, 0x2028, 0x2029, 0x200b, 0x7f]) assert.equal(isGraphic(r), false)
    assert.equal(isGraphic(0x41), true)
  })
})
