/**
 * `expect.result`: objects match as subsets, recursively (every expected key present and
 * matching, extra keys allowed); arrays and scalars match exactly.
 */

export interface Mismatch {
  /** JSON pointer into the result. */
  pointer: string
  message: string
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (Array.isArray(a))
    return Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEqual(x, b[i]))
  if (isObject(a)) {
    if (!isObject(b)) return false
    const ka = Object.keys(a)
    if (ka.length !== Object.keys(b).length) return false
    return ka.every((k) => Object.hasOwn(b, k) && deepEqual(a[k], b[k]))
  }
  return false
}

const escapeKey = (k: string) => k.replace(/~/g, '~0').replace(/\//g, '~1')

/** The first mismatches (at most `limit`) of `actual` against `expected` as a subset. */
export function subsetMismatches(expected: unknown, actual: unknown, limit = 20): Mismatch[] {
  const out: Mismatch[] = []
  const visit = (e: unknown, a: unknown, at: string) => {
    if (out.length >= limit) return
    if (isObject(e)) {
      if (!isObject(a)) {
        out.push({ pointer: at || '/', message: `expected an object, got ${kind(a)}` })
        return
      }
      for (const k of Object.keys(e)) {
        if (!Object.hasOwn(a, k)) out.push({ pointer: `${at}/${escapeKey(k)}`, message: 'missing' })
        else visit(e[k], a[k], `${at}/${escapeKey(k)}`)
        if (out.length >= limit) return
      }
      return
    }
    if (!deepEqual(e, a)) out.push({ pointer: at || '/', message: `expected ${short(e)}, got ${short(a)}` })
  }
  visit(expected, actual, '')
  return out
}

/** `actual` cut to the keys `expected` names (objects, recursively): what the diff shows. */
export function project(expected: unknown, actual: unknown): unknown {
  if (!isObject(expected) || !isObject(actual)) return actual
  const out: Record<string, unknown> = {}
  for (const k of Object.keys(expected))
    if (Object.hasOwn(actual, k)) out[k] = project(expected[k], actual[k])
  return out
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
  const s = v === undefined ? 'nothing' : JSON.stringify(v)
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
  return v === undefined ? '(nothing)' : JSON.stringify(v, null, 2)
}
