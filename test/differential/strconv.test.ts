/**
 * strconv.Quote and strconv.IsPrint against real Go.
 *
 * We emulate Go 1.25 (Unicode 15.0.0); the Go here may be older (Go 1.19 has
 * Unicode 13.0.0). A difference is tolerated only where it involves a rune that
 * the harness's Go reports as unassigned (in none of its unicode categories).
 */
import { after, test } from 'node:test'
import { trimSpace } from '../../src/core/go/gostring.js'
import { isPrint, quote } from '../../src/core/go/strconv/quote.js'
import { isSurrogate, randomRune, randomString, replaceRunes, utf8 } from './gen.js'
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

/** A membership test over the flat [lo, hi, lo, hi, ...] range list the harness returns. */
function rangeSet(flat: number[]): (r: number) => boolean {
  const bits = new Uint8Array(0x110000)
  for (let i = 0; i < flat.length; i += 2) bits.fill(1, flat[i], flat[i + 1] + 1)
  return (r) => r >= 0 && r < bits.length && bits[r] === 1
}

test('strconv.IsPrint over the whole code space', async (t) => {
  const go = await getHarness()
  if (!go) return t.skip(GO_MISSING)
  t.diagnostic(`${go.goVersion}, Unicode ${go.unicodeVersion}; ${REPRODUCE}`)
  const table = await go.one({ op: 'printtable' })
  const goPrint = rangeSet(table.print)
  const unassigned = rangeSet(table.unassigned)
  const mm = new Mismatches('isPrint')
  for (let r = 0; r <= 0x10ffff; r++) {
    const ours = capture(() => isPrint(r))
    if (ours === goPrint(r)) {
      mm.checked++
      continue
    }
    if (unassigned(r) && typeof ours === 'boolean') mm.tolerate()
    else mm.add(`U+${r.toString(16).toUpperCase().padStart(4, '0')}`, goPrint(r), ours)
  }
  // Out-of-range runes, and a sample through the per-rune op to check it agrees with the table.
  const odd = [-1, -0x80000000, 0x110000, 0x7fffffff]
  const rand = new Rand(seedFor('isprint'))
  const sample = [...odd, ...Array.from({ length: 2000 }, () => randomRune(rand))]
  const answers = await go.call(sample.map((r) => ({ op: 'isprint', r })))
  sample.forEach((r, i) => {
    const goAns = answers[i]
    if (odd.includes(r) || !goAns.unassigned)
      mm.check(
        `rune ${r}`,
        goAns.print,
        capture(() => isPrint(r)),
      )
    else mm.tolerate()
  })
  finish(t, [mm])
})

test('strconv.Quote on random strings', async (t) => {
  const go = await getHarness()
  if (!go) return t.skip(GO_MISSING)
  const seed = seedFor('quote')
  t.diagnostic(`${REPRODUCE} (category seed ${seed})`)
  const rand = new Rand(seed)
  const unassigned = rangeSet((await go.one({ op: 'printtable' })).unassigned)
  const inputs: string[] = [
    '',
    'abc',
    '"',
    '\\',
    '\x00',
    '\x7f',
    '\xff',
    '\u00ad',
    utf8(0x2028),
    utf8(0xfeff),
  ]
  for (let r = 0; r < 0x100; r++) inputs.push(String.fromCharCode(r))
  for (let r = 0x80; r < 0x800; r += 7) inputs.push(utf8(r))
  for (let i = 0; i < 6000; i++) inputs.push(randomString(rand, rand.pick([4, 12, 40])))
  for (let i = 0; i < 3000; i++) {
    const r = randomRune(rand)
    inputs.push(isSurrogate(r) ? utf8(r) : utf8(r) + randomString(rand, 2))
  }
  // Runes that Go's older tables have not assigned but ours call printable (new in
  // Unicode 14/15) are swapped for 'a': Quote escapes rune by rune, so the rest of the
  // string still compares exactly. The original then only has to quote without throwing.
  const newer = (r: number): boolean => unassigned(r) && isPrint(r)
  const exact = inputs.map((s) => replaceRunes(s, newer))
  const answers = await go.call(exact.map((s) => ({ op: 'quote', s: b64(s) })))
  const mm = new Mismatches('strconv.Quote')
  exact.forEach((s, i) => {
    mm.check(
      show(s),
      unb64(answers[i].q),
      capture(() => quote(s)),
    )
    if (s !== inputs[i]) {
      const got = capture(() => quote(inputs[i]))
      if (typeof got === 'string') mm.tolerate()
      else mm.add(show(inputs[i]), '(any quoted string)', got)
    }
  })
  finish(t, [mm])
})

test('strings.TrimSpace (dirs, names, params): Unicode white space, never a BOM', async (t) => {
  const go = await getHarness()
  if (!go) return t.skip(GO_MISSING)
  const seed = seedFor('trimspace')
  t.diagnostic(`${REPRODUCE} (category seed ${seed})`)
  const rand = new Rand(seed)
  const spaces = [0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0x85, 0xa0, 0x1680, 0x2000, 0x200a, 0x2028, 0x2029]
    .concat([0x202f, 0x205f, 0x3000, 0xfeff, 0x200b, 0x180e, 0x1c])
    .map(utf8)
  const pad = () => Array.from({ length: rand.pick([0, 1, 3]) }, () => rand.pick(spaces)).join('')
  const inputs: string[] = ['', ' ', '\xc2', '\xe3\x80', ...spaces]
  for (let i = 0; i < 4000; i++) inputs.push(pad() + randomString(rand, rand.pick([0, 3, 12])) + pad())
  const answers = await go.call(inputs.map((s) => ({ op: 'trimspace', s: b64(s) })))
  const mm = new Mismatches('strings.TrimSpace')
  inputs.forEach((s, i) => {
    mm.check(
      show(s),
      unb64(answers[i].out),
      capture(() => trimSpace(s)),
    )
  })
  finish(t, [mm])
})
