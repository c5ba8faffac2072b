/**
 * A sound pre-filter for the ReDoS check (`schema/redos-pattern`): `isLinearPattern` answers true
 * only for patterns whose backtracking is provably linear, so that recheck need not be loaded for
 * them; anything it cannot prove goes to recheck. Why it is sound, and the differential test that
 * holds it to recheck's verdicts: docs/decisions.md, "The ReDoS pre-filter".
 */

/** A set of code points as sorted, disjoint, non-adjacent inclusive ranges. */
type CharSet = readonly (readonly [number, number])[]

const MAX_CP = 0x10ffff

function normalise(ranges: [number, number][]): CharSet {
  const sorted = ranges.filter(([a, b]) => a <= b).sort((x, y) => x[0] - y[0])
  const out: [number, number][] = []
  for (const [a, b] of sorted) {
    const last = out[out.length - 1]
    if (last && a <= last[1] + 1) last[1] = Math.max(last[1], b)
    else out.push([a, b])
  }
  return out
}

function complement(set: CharSet): CharSet {
  const out: [number, number][] = []
  let next = 0
  for (const [a, b] of set) {
    if (a > next) out.push([next, a - 1])
    next = b + 1
  }
  if (next <= MAX_CP) out.push([next, MAX_CP])
  return out
}

function union(a: CharSet, b: CharSet): CharSet {
  return normalise([...a, ...b].map(([x, y]) => [x, y]))
}

function intersects(a: CharSet, b: CharSet): boolean {
  let i = 0
  let j = 0
  while (i < a.length && j < b.length) {
    const [a0, a1] = a[i] as readonly [number, number]
    const [b0, b1] = b[j] as readonly [number, number]
    if (a1 < b0) i++
    else if (b1 < a0) j++
    else return true
  }
  return false
}

const ch = (c: string): [number, number] => [c.codePointAt(0) as number, c.codePointAt(0) as number]
const DIGIT: CharSet = [[0x30, 0x39]]
const WORD: CharSet = normalise([[0x30, 0x39], [0x41, 0x5a], ch('_'), [0x61, 0x7a]])
/** ECMAScript's WhiteSpace and LineTerminator (what `\s` matches). */
const SPACE: CharSet = normalise([
  [0x09, 0x0d],
  ch(' '),
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
])
/** What `.` matches without the `s` flag: all but the line terminators. */
const DOT: CharSet = complement(
  normalise([
    [0x0a, 0x0a],
    [0x0d, 0x0d],
    [0x2028, 0x2029],
  ]),
)

/** One position of the pattern: a set of characters, repeated between min and max times. */
interface Atom {
  set: CharSet
  min: number
  max: number
}

/** Thrown for anything outside the provable subset; the caller then asks recheck. */
class Unprovable extends Error {}

const SYNTAX = '^$\\.*+?()[]{}|/'

/**
 * Parses the subset this filter can judge, with the `u` flag's syntax (ajv's): a sequence of
 * literals, escapes, classes and `.`, each optionally quantified, and unquantified groups without
 * alternation. Anything else (alternation, quantified groups, back-references, look-arounds,
 * `\b`, `\p{…}`, anchors other than a leading `^` and a trailing `$`) is unprovable.
 */
class Parser {
  i = 0
  constructor(readonly src: string) {}

  private peek(): string | undefined {
    return this.src[this.i]
  }

  private fail(): never {
    throw new Unprovable()
  }

  /** An escape after `\` (the backslash consumed) as a set, outside or inside a class. */
  private escape(inClass: boolean): CharSet {
    const c = this.src[this.i++]
    switch (c) {
      case 'd':
        return DIGIT
      case 'D':
        return complement(DIGIT)
      case 'w':
        return WORD
      case 'W':
        return complement(WORD)
      case 's':
        return SPACE
      case 'S':
        return complement(SPACE)
      case 'n':
        return [ch('\n')]
      case 'r':
        return [ch('\r')]
      case 't':
        return [ch('\t')]
      case 'v':
        return [ch('\v')]
      case 'f':
        return [ch('\f')]
      case '0':
        if (/[0-9]/.test(this.peek() ?? '')) this.fail()
        return [[0, 0]]
      case 'x': {
        const hex = this.src.slice(this.i, this.i + 2)
        if (!/^[0-9A-Fa-f]{2}$/.test(hex)) this.fail()
        this.i += 2
        const n = Number.parseInt(hex, 16)
        return [[n, n]]
      }
      case 'u': {
        let hex: string
        if (this.peek() === '{') {
          const end = this.src.indexOf('}', this.i)
          if (end < 0) this.fail()
          hex = this.src.slice(this.i + 1, end)
          if (!/^[0-9A-Fa-f]{1,6}$/.test(hex)) this.fail()
          this.i = end + 1
        } else {
          hex = this.src.slice(this.i, this.i + 4)
          if (!/^[0-9A-Fa-f]{4}$/.test(hex)) this.fail()
          this.i += 4
        }
        const n = Number.parseInt(hex, 16)
        // A surrogate written as \uXXXX may pair with the next one: not judged here.
        if (n > MAX_CP || (n >= 0xd800 && n <= 0xdfff)) this.fail()
        return [[n, n]]
      }
      default:
        if (c !== undefined && (SYNTAX.includes(c) || (inClass && c === '-'))) return [ch(c)]
        return this.fail()
    }
  }

  /** One character of a class (after `[`), as a set. */
  private classAtom(): CharSet {
    const c = this.src[this.i]
    if (c === undefined) this.fail()
    if (c === '\\') {
      this.i++
      return this.escape(true)
    }
    const cp = this.src.codePointAt(this.i) as number
    if (cp >= 0xd800 && cp <= 0xdfff) this.fail()
    this.i += cp > 0xffff ? 2 : 1
    return [[cp, cp]]
  }

  private klass(): CharSet {
    // `[` consumed.
    let negate = false
    if (this.peek() === '^') {
      negate = true
      this.i++
    }
    let set: CharSet = []
    while (this.peek() !== ']') {
      const from = this.classAtom()
      if (this.peek() === '-' && this.src[this.i + 1] !== ']' && this.src[this.i + 1] !== undefined) {
        this.i++
        const to = this.classAtom()
        const [f] = from
        const [t] = to
        // A range between two single characters; a class escape at either end is an error in `u`.
        if (
          from.length !== 1 ||
          to.length !== 1 ||
          !f ||
          !t ||
          f[0] !== f[1] ||
          t[0] !== t[1] ||
          f[0] > t[0]
        ) {
          this.fail()
        }
        set = union(set, [[f[0], t[0]]])
      } else {
        set = union(set, from)
      }
    }
    this.i++
    return negate ? complement(set) : set
  }

  /** A quantifier after an atom, or {1,1}. */
  private quantifier(): { min: number; max: number } {
    const c = this.peek()
    let q: { min: number; max: number } | undefined
    if (c === '*') q = { min: 0, max: Number.POSITIVE_INFINITY }
    else if (c === '+') q = { min: 1, max: Number.POSITIVE_INFINITY }
    else if (c === '?') q = { min: 0, max: 1 }
    if (q) this.i++
    else if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(this.i))
      if (!m) this.fail()
      const min = Number(m[1])
      const max = m[2] === undefined ? min : m[3] === '' ? Number.POSITIVE_INFINITY : Number(m[3])
      if (!(min <= max)) this.fail()
      this.i += m[0].length
      q = { min, max }
    } else return { min: 1, max: 1 }
    if (this.peek() === '?') this.i++ // lazy: the same matches, tried in the other order
    const next = this.peek()
    if (next === '*' || next === '+' || next === '?' || next === '{') this.fail()
    return q
  }

  /** The atoms up to the end (depth 0) or the group's `)` (depth > 0). */
  sequence(depth: number, out: Atom[]): void {
    for (;;) {
      const c = this.peek()
      if (c === undefined) {
        if (depth > 0) this.fail()
        return
      }
      if (c === ')') {
        if (depth === 0) this.fail()
        this.i++
        return
      }
      if (
        c === '|' ||
        c === '^' ||
        c === '$' ||
        c === '*' ||
        c === '+' ||
        c === '?' ||
        c === '{' ||
        c === '}' ||
        c === ']'
      ) {
        this.fail()
      }
      if (c === '(') {
        this.i++
        if (this.peek() === '?') {
          if (this.src[this.i + 1] === ':') this.i += 2
          else if (this.src[this.i + 1] === '<' && /^<[A-Za-z_$][\w$]*>/.test(this.src.slice(this.i + 1))) {
            this.i = this.src.indexOf('>', this.i) + 1
          } else this.fail() // look-arounds
        }
        const inner: Atom[] = []
        this.sequence(depth + 1, inner)
        const q = this.quantifier()
        if (q.min !== 1 || q.max !== 1) this.fail()
        out.push(...inner)
        continue
      }
      let set: CharSet
      if (c === '\\') {
        this.i++
        set = this.escape(false)
      } else if (c === '[') {
        this.i++
        set = this.klass()
      } else if (c === '.') {
        this.i++
        set = DOT
      } else {
        const cp = this.src.codePointAt(this.i) as number
        if (cp >= 0xd800 && cp <= 0xdfff) this.fail()
        this.i += cp > 0xffff ? 2 : 1
        set = [[cp, cp]]
      }
      const q = this.quantifier()
      // An atom that can match nothing (`[]`, or `x{0}`) makes the rest unreachable: not judged.
      if (set.length === 0 || q.max === 0) this.fail()
      out.push({ set, ...q })
    }
  }
}

/** The largest repeat count that still counts as a constant per start position. */
const SMALL_BOUND = 16

/**
 * True when the pattern, compiled with the `u` flag as ajv compiles it and searched with
 * `RegExp.prototype.test`, is proved to backtrack at most linearly:
 * - anchored (a leading `^`): for every repeated atom, the characters that may come right after
 *   its last repetition (the first sets of the following atoms up to the first one that cannot
 *   match empty) are disjoint from its own, so a failing continuation fails on the first
 *   character and no two atoms ever compete for the same characters;
 * - unanchored: the same, and besides every atom but a trailing one repeats a small bounded
 *   number of times, so each of the search's start positions costs a constant.
 * False means "not proved", never "vulnerable".
 */
export function isLinearPattern(source: string): boolean {
  try {
    new RegExp(source, 'u')
  } catch {
    return false
  }
  let body = source
  const anchored = body.startsWith('^')
  if (anchored) body = body.slice(1)
  const atEnd = body.endsWith('$') && !body.endsWith('\\$')
  if (atEnd) body = body.slice(0, -1)
  const atoms: Atom[] = []
  try {
    new Parser(body).sequence(0, atoms)
  } catch (e) {
    if (e instanceof Unprovable) return false
    throw e
  }
  for (let i = 0; i < atoms.length; i++) {
    const a = atoms[i] as Atom
    const last = i === atoms.length - 1
    if (!anchored && !(last && !atEnd) && a.max > SMALL_BOUND) return false
    if (a.min === a.max) continue
    let follow: CharSet = []
    for (let j = i + 1; j < atoms.length; j++) {
      const b = atoms[j] as Atom
      follow = union(follow, b.set)
      if (b.min > 0) break
    }
    if (intersects(a.set, follow)) return false
  }
  return true
}

/**
 * Whether `ok` holds for every regular expression in a schema (each `pattern`, each
 * `patternProperties` key), at any depth. A `pattern` that is not a string, or a
 * `patternProperties` that is not an object, fails: it may be a property named so, and then the
 * walk cannot tell. Iterative: any depth.
 */
export function everyPattern(schema: unknown, ok: (pattern: string) => boolean): boolean {
  const stack: unknown[] = [schema]
  for (let v = stack.pop(); stack.length > 0 || v !== undefined; v = stack.pop()) {
    if (v === null || typeof v !== 'object') continue
    if (Array.isArray(v)) {
      for (const x of v) stack.push(x)
      continue
    }
    for (const [k, x] of Object.entries(v)) {
      if (k === 'pattern' && (typeof x !== 'string' || !ok(x))) return false
      if (k === 'patternProperties') {
        if (x === null || typeof x !== 'object' || Array.isArray(x)) return false
        if (!Object.keys(x).every(ok)) return false
      }
      stack.push(x)
    }
  }
  return true
}
