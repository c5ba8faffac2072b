/**
 * "Did you mean" for names the user typed: commands, flag values, templates, rule ids, skills.
 * The nearest candidate by edit distance (a swap of two neighbours counts as one edit), when it
 * is near enough to be a slip: at most a third of the longer name's length, at least one edit,
 * and not every letter (a one-letter input is never a slip for another letter).
 * A candidate the input is a prefix of (`valid` → `validate`) also counts, and one of three
 * letters or more that starts the input (`warning` → `warn`, `validates` → `validate`).
 */
export function didYouMean(input: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined
  let bestDistance = Number.POSITIVE_INFINITY
  const lower = input.toLowerCase()
  for (const c of candidates) {
    if (c === input) return undefined
    const d = distance(lower, c.toLowerCase())
    const limit = Math.max(1, Math.floor(Math.max(input.length, c.length) / 3))
    const lc = c.toLowerCase()
    // Never a name that shares nothing with the input: "c" is no slip for "a", nor "x" for "n".
    const near =
      (d <= limit && d < Math.max(input.length, c.length)) ||
      (lower.length >= 3 && lc.startsWith(lower)) ||
      (lc.length >= 3 && lower.startsWith(lc))
    if (near && d < bestDistance) {
      best = c
      bestDistance = d
    }
  }
  return best
}

/** The hint line for a suggestion: `did you mean "lint"?` (quoted as the user would type it). */
export function meanHint(suggestion: string | undefined, quote = true): string | undefined {
  if (suggestion === undefined) return undefined
  return `did you mean ${quote ? `"${suggestion}"` : suggestion}?`
}

/**
 * Optimal string alignment distance (Damerau–Levenshtein without repeated edits of a substring);
 * with `swaps` false, Levenshtein's (a swap of two neighbours is two edits: lint's near-miss keys).
 */
export function distance(a: string, b: string, swaps = true): number {
  const m = a.length
  const n = b.length
  if (m === 0) return n
  if (n === 0) return m
  let prev2 = new Array<number>(n + 1).fill(0)
  let prev = Array.from({ length: n + 1 }, (_, j) => j)
  let cur = new Array<number>(n + 1).fill(0)
  for (let i = 1; i <= m; i++) {
    cur[0] = i
    for (let j = 1; j <= n; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
      if (swaps && i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        v = Math.min(v, prev2[j - 2] + 1)
      cur[j] = v
    }
    ;[prev2, prev, cur] = [prev, cur, prev2]
  }
  return prev[n]
}
