/**
 * The patterns the ReDoS pre-filter is held to recheck on (linear-pattern.test.ts): the init
 * templates' and the fixtures' (read from the tree), classic catastrophic patterns, and patterns
 * generated from a seed over the syntax the pre-filter judges and just past it.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { seeded } from '../../../src/core/agent/score.js'

/** Patterns known to backtrack catastrophically (exponential or polynomial). */
export const KNOWN_VULNERABLE = [
  '^(a+)+$',
  '^(a|a)*$',
  '^(a|aa)+$',
  '^(\\w+\\s?)+$',
  '^([a-zA-Z0-9])(([\\-.]|[_]+)?([a-zA-Z0-9]+))*(@){1}[a-z0-9]+[.]{1}(([a-z]{2,3})|([a-z]{2,3}[.]{1}[a-z]{2,3}))$',
  '\\s+$',
  '\\d+$',
  'a+b',
  '^a*a*$',
  '^[a-z]+[0-9]*[a-z]+$',
  '^[a-z]+\\s?[a-z]+$',
  '^(.*)*$',
  '^.*.*=.*$',
  '^\\d+\\d+$',
]

/** Patterns from this tree: the templates' and every fixture's skill.json (bounded walk). */
export function treePatterns(root: string): string[] {
  const out = new Set<string>()
  const visit = (v: unknown) => {
    if (v === null || typeof v !== 'object') return
    if (Array.isArray(v)) return v.forEach(visit)
    for (const [k, x] of Object.entries(v)) {
      if (k === 'pattern' && typeof x === 'string') out.add(x)
      if (k === 'patternProperties' && x && typeof x === 'object')
        for (const key of Object.keys(x)) out.add(key)
      visit(x)
    }
  }
  const walk = (dir: string, depth: number) => {
    if (depth > 8) return
    for (const name of readdirSync(dir)) {
      const p = join(dir, name)
      const st = statSync(p, { throwIfNoEntry: false })
      if (!st) continue
      if (st.isDirectory()) walk(p, depth + 1)
      else if (st.isFile() && st.size < 1 << 20 && (name === 'skill.json' || name === 'template.json')) {
        try {
          visit(JSON.parse(readFileSync(p, 'utf8')))
        } catch {
          // not JSON: fixtures of broken manifests
        }
      }
    }
  }
  walk(join(root, 'templates'), 0)
  walk(join(root, 'test', 'fixtures'), 0)
  walk(join(root, 'examples'), 0)
  return [...out]
}

const ATOMS = [
  'a',
  'b',
  'x',
  '.',
  '\\d',
  '\\w',
  '\\s',
  '\\S',
  '[a-z]',
  '[0-9]',
  '[^a]',
  '[A-Za-z0-9.:-]',
  '\\.',
  '-',
  '[ab]',
  '[^/]',
  '\\u{1F600}',
]
const QUANTS = ['', '', '', '*', '+', '?', '{2}', '{1,3}', '{0,5}', '{2,}', '+?', '{1,20}', '*?']

/** `count` patterns: sequences of 1 to 4 quantified atoms, anchored or not, some grouped. */
export function generatedPatterns(count: number, seed = 42): string[] {
  const r = seeded(seed)
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)] as T
  const out = new Set<string>()
  while (out.size < count) {
    const n = 1 + Math.floor(r() * 4)
    const parts: string[] = []
    for (let i = 0; i < n; i++) parts.push(pick(ATOMS) + pick(QUANTS))
    if (n > 1 && r() < 0.25) {
      const at = Math.floor(r() * (n - 1))
      parts.splice(at, 2, `(?:${parts[at]}${parts[at + 1]})${r() < 0.5 ? '' : pick(QUANTS)}`)
    }
    out.add(`${r() < 0.7 ? '^' : ''}${parts.join('')}${r() < 0.6 ? '$' : ''}`)
  }
  return [...out]
}
