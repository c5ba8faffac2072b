/**
 * `expect.result`: objects match as subsets, recursively (every expected key present and
 * matching, extra keys allowed); arrays and scalars match exactly.
 */

import { stringify } from '../json-text.js'

export interface Mismatch {
  /** JSON pointer into the result. */
  pointer: string
  message: string
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/** Structural equality of two JSON values, iterative: results may nest 10000 deep. */
export function deepEqual(a: unknown, b: unknown): boolean {
  const stack: [unknown, unknown][] = [[a, b]]
  for (let pair = stack.pop(); pair !== undefined; pair = stack.pop()) {
    const [x, y] = pair
    if (x === y) continue
    if (Array.isArray(x)) {
      if (!Array.isArray(y) || x.length !== y.length) return false
      for (let i = x.length - 1; i >= 0; i--) stack.push([x[i], y[i]])
    } else if (isObject(x)) {
      if (!isObject(y)) return false
      const kx = Object.keys(x)
      if (kx.length !== Object.keys(y).length) return false
      for (let i = kx.length - 1; i >= 0; i--) {
        if (!Object.hasOwn(y, kx[i])) return false
        stack.push([x[kx[i]], y[kx[i]]])
      }
    } else return false
  }
  return true
}

const escapeKey = (k: string) => k.replace(/~/g, '~0').replace(/\//g, '~1')

/** Marks a key the result lacks (a stack entry reported as 'missing'). */
const MISSING = Symbol('missing')

/** The first mismatches (at most `limit`) of `actual` against `expected` as a subset, in key order. */
export function subsetMismatches(expected: unknown, actual: unknown, limit = 20): Mismatch[] {
  const out: Mismatch[] = []
  const stack: [e: unknown, a: unknown, at: string][] = [[expected, actual, '']]
  for (let top = stack.pop(); top !== undefined && out.length < limit; top = stack.pop()) {
    const [e, a, at] = top
    if (a === MISSING) {
      out.push({ pointer: at, message: 'missing' })
      continue
    }
    if (!isObject(e)) {
      if (!deepEqual(e, a)) out.push({ pointer: at || '/', message: `expected ${short(e)}, got ${short(a)}` })
      continue
    }
    if (!isObject(a)) {
      out.push({ pointer: at || '/', message: `expected an object, got ${kind(a)}` })
      continue
    }
    // Keys pushed in reverse: popped, and so reported, in the expected object's order.
    const keys = Object.keys(e)
    for (let i = keys.length - 1; i >= 0; i--) {
      const k = keys[i]
      const p = `${at}/${escapeKey(k)}`
      if (Object.hasOwn(a, k)) stack.push([e[k], a[k], p])
      else stack.push([undefined, MISSING, p])
    }
  }
  return out
}

/** Sets an own property: a key `__proto__` is data (assigned, it would set the prototype). */
function own(o: Record<string, unknown>, k: string, v: unknown): void {
  Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true })
}

/** `actual` cut to the keys `expected` names (objects, recursively): what the diff shows. */
export function project(expected: unknown, actual: unknown): unknown {
  if (!isObject(expected) || !isObject(actual)) return actual
  const root: Record<string, unknown> = {}
  const stack: [e: Record<string, unknown>, a: Record<string, unknown>, into: Record<string, unknown>][] = [
    [expected, actual, root],
  ]
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [e, a, into] = top
    for (const k of Object.keys(e)) {
      if (!Object.hasOwn(a, k)) continue
      const ek = e[k]
      const ak = a[k]
      if (isObject(ek) && isObject(ak)) {
        const sub: Record<string, unknown> = {}
        own(into, k, sub)
        stack.push([ek, ak, sub])
      } else own(into, k, ak)
    }
  }
  return root
}

function kind(v: unknown): string {
  return v === null
    ? 'null'
    : Array.isArray(v)
      ? 'an array'
      : typeof v === 'object'
        ? 'an object'
        : `a ${typeof v}`
}

function short(v: unknown): string {
  const s = v === undefined ? 'nothing' : stringify(v)
  return s.length > 60 ? `${s.slice(0, 57)}...` : s
}

/**
 * A unified line diff of two texts: `- ` lines only in `expected`, `+ ` lines only in
 * `actual`, `  ` shared lines (at most `context` of them around each change; runs between
 * changes are elided with `…`). LCS over lines; large inputs fall back to whole blocks.
 */
export function lineDiff(expected: string, actual: string, context = 3): string[] {
  const a = expected.split('\n')
  const b = actual.split('\n')
  type Op = { t: ' ' | '-' | '+'; s: string }
  let ops: Op[]
  if (a.length * b.length > 4_000_000) {
    ops = [...a.map((s) => ({ t: '-' as const, s })), ...b.map((s) => ({ t: '+' as const, s }))]
  } else {
    const n = a.length
    const m = b.length
    const lcs: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1))
    for (let i = n - 1; i >= 0; i--)
      for (let j = m - 1; j >= 0; j--)
        lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1])
    ops = []
    let i = 0
    let j = 0
    while (i < n || j < m) {
      if (i < n && j < m && a[i] === b[j]) {
        ops.push({ t: ' ', s: a[i] })
        i++
        j++
      } else if (i < n && (j === m || lcs[i + 1][j] >= lcs[i][j + 1])) ops.push({ t: '-', s: a[i++] })
      else ops.push({ t: '+', s: b[j++] })
    }
  }
  const keep = ops.map(() => false)
  ops.forEach((o, k) => {
    if (o.t === ' ') return
    for (let d = Math.max(0, k - context); d <= Math.min(ops.length - 1, k + context); d++) keep[d] = true
  })
  const lines: string[] = []
  let elided = false
  ops.forEach((o, k) => {
    if (!keep[k]) {
      if (!elided) lines.push('  …')
      elided = true
      return
    }
    elided = false
    lines.push(`${o.t} ${o.s}`)
  })
  return lines
}

/** Pretty JSON as the diff shows it. */
export function pretty(v: unknown): string {
  return v === undefined ? '(nothing)' : stringify(v, 2)
}
