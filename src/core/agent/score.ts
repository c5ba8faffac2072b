/**
 * Scoring of eval runs: a run passes when the expected tool was called with arguments that match
 * the expected subset (or, expecting no call, when nothing was called); per expected tool,
 * precision and recall; a confusion table of expected × decided tool.
 */

/** `(none)`: no call expected, or none made. */
export const NONE = '(none)'

/** Does `actual` contain `expected`? Objects as subsets (recursively), arrays and scalars exactly. */
export function subsetMatch(expected: unknown, actual: unknown): boolean {
  if (expected === null || typeof expected !== 'object')
    return Object.is(expected, actual) || expected === actual
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) return false
    return expected.every((e, i) => subsetMatch(e, actual[i]))
  }
  if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return false
  const a = actual as Record<string, unknown>
  return Object.entries(expected as Record<string, unknown>).every(
    ([k, v]) => Object.hasOwn(a, k) && subsetMatch(v, a[k]),
  )
}

export interface ScoredCall {
  tool: string
  /** The arguments parsed, or null when they are not JSON. */
  args: unknown
}

export interface Expectation {
  tool: string | null
  args?: Record<string, unknown>
}

/** Whether a run passed, and the tool it is counted as having decided on (for the confusion table). */
export function judge(
  expect: Expectation,
  calls: readonly ScoredCall[],
): { passed: boolean; decided: string } {
  if (expect.tool === null) return { passed: calls.length === 0, decided: calls[0]?.tool ?? NONE }
  const want = expect.tool
  const ofTool = calls.filter((c) => c.tool === want)
  const passed = ofTool.some((c) => expect.args === undefined || subsetMatch(expect.args, c.args))
  return { passed, decided: ofTool.length > 0 ? want : (calls[0]?.tool ?? NONE) }
}

export interface RunScore {
  expected: string | null
  passed: boolean
  /** Every tool called in the run (each name once). */
  called: readonly string[]
  decided: string
}

export interface ToolStats {
  tool: string
  expected: number
  called: number
  passed: number
  /** passed ÷ runs that called it (null when never called). */
  precision: number | null
  /** passed ÷ runs that expected it (null when never expected). */
  recall: number | null
}

/** Per expected tool: runs expecting it that passed ÷ runs calling it, and ÷ runs expecting it. */
export function perTool(runs: readonly RunScore[]): ToolStats[] {
  const tools = new Set<string>()
  for (const r of runs) if (r.expected !== null) tools.add(r.expected)
  return [...tools].sort().map((tool) => {
    const expected = runs.filter((r) => r.expected === tool).length
    const called = runs.filter((r) => r.called.includes(tool)).length
    const passed = runs.filter((r) => r.expected === tool && r.passed).length
    return {
      tool,
      expected,
      called,
      passed,
      precision: called === 0 ? null : passed / called,
      recall: expected === 0 ? null : passed / expected,
    }
  })
}

/** Rows: expected tool (or (none)); columns: the tool decided on; cells: run counts. */
export function confusion(runs: readonly RunScore[]): { expected: string; decided: string; runs: number }[] {
  const cells = new Map<string, number>()
  for (const r of runs) {
    const k = JSON.stringify([r.expected ?? NONE, r.decided])
    cells.set(k, (cells.get(k) ?? 0) + 1)
  }
  return [...cells]
    .map(([k, n]) => {
      const [expected, decided] = JSON.parse(k) as [string, string]
      return { expected, decided, runs: n }
    })
    .sort((a, b) =>
      a.expected === b.expected ? (a.decided < b.decided ? -1 : 1) : a.expected < b.expected ? -1 : 1,
    )
}

/** The pass rate of each repeat round, and their mean, min and max (the spread a user will see). */
export function rates(passedByRound: readonly (readonly boolean[])[]): {
  rate: number
  min: number
  max: number
  rounds: number[]
} {
  const rounds = passedByRound.map((r) => (r.length === 0 ? 0 : r.filter(Boolean).length / r.length))
  const all = passedByRound.flat()
  return {
    rate: all.length === 0 ? 0 : all.filter(Boolean).length / all.length,
    min: rounds.length === 0 ? 0 : Math.min(...rounds),
    max: rounds.length === 0 ? 0 : Math.max(...rounds),
    rounds,
  }
}

/** A 32-bit seeded generator (mulberry32): the tool order of each request, reproducible from --seed. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Fisher–Yates with the generator given. */
export function shuffle<T>(items: readonly T[], next: () => number): T[] {
  const out = [...items]
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1))
    ;[out[i], out[j]] = [out[j], out[i]]
  }
  return out
}

/** The seed of one run: --seed, the case's index and the repeat round mixed (FNV-1a). */
export function runSeed(seed: number, caseIndex: number, round: number): number {
  let h = 0x811c9dc5
  for (const n of [seed, caseIndex, round]) {
    for (let i = 0; i < 4; i++) {
      h ^= (n >>> (8 * i)) & 0xff
      h = Math.imul(h, 0x01000193) >>> 0
    }
  }
  return h
}
