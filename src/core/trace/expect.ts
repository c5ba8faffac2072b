/**
 * A test case's `expect.effects`: the effects a traced run must have, no more and no fewer. Each
 * pattern names a kind and may name the path (a glob, core/glob.ts: `*`, `**`, and a dir covers
 * what is below it), the rename's `to`, the address and port, the command's argv (exactly, or its
 * first elements with `argv_prefix`), and the syscall. Every effect must match a pattern, and every
 * pattern must match an effect: a change in what the skill does fails the case.
 */

import { globToRegExp } from '../glob.js'
import { EFFECT_KINDS, type Effect, effectLine } from './effects.js'

export interface EffectPattern {
  kind: string
  path?: string
  to?: string
  address?: string
  port?: number
  argv?: string[]
  argv_prefix?: string[]
  syscall?: string
}

export const PATTERN_KEYS = [
  'kind',
  'path',
  'to',
  'address',
  'port',
  'argv',
  'argv_prefix',
  'syscall',
] as const

const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string')

/** Checks `expect.effects`; each problem as [pointer below it, message]. */
export function parseEffectPatterns(
  v: unknown,
): { patterns: EffectPattern[] } | { problems: [string, string][] } {
  const problems: [string, string][] = []
  if (!Array.isArray(v)) return { problems: [['', '`effects` must be an array of {"kind", …} patterns']] }
  const patterns: EffectPattern[] = []
  v.forEach((p, i) => {
    if (typeof p !== 'object' || p === null || Array.isArray(p)) {
      problems.push([`/${i}`, 'a pattern must be an object with a "kind"'])
      return
    }
    const o = p as Record<string, unknown>
    for (const k of Object.keys(o))
      if (!(PATTERN_KEYS as readonly string[]).includes(k))
        problems.push([`/${i}/${k}`, `unknown key ${JSON.stringify(k)} (known: ${PATTERN_KEYS.join(', ')})`])
    if (typeof o.kind !== 'string' || !(EFFECT_KINDS as readonly string[]).includes(o.kind))
      problems.push([`/${i}/kind`, `"kind" must be one of ${EFFECT_KINDS.join(', ')}`])
    for (const k of ['path', 'to', 'address', 'syscall'] as const)
      if (k in o && typeof o[k] !== 'string') problems.push([`/${i}/${k}`, `"${k}" must be a string`])
    if ('port' in o && !(Number.isInteger(o.port) && (o.port as number) >= 0 && (o.port as number) <= 65535))
      problems.push([`/${i}/port`, '"port" must be an integer from 0 to 65535'])
    for (const k of ['argv', 'argv_prefix'] as const)
      if (k in o && !isStrings(o[k])) problems.push([`/${i}/${k}`, `"${k}" must be an array of strings`])
    patterns.push(o as unknown as EffectPattern)
  })
  return problems.length > 0 ? { problems } : { patterns }
}

function pathMatches(glob: string, path: string | undefined): boolean {
  return path !== undefined && globToRegExp(glob).test(path.replace(/^\/+/, ''))
}

export function patternMatches(p: EffectPattern, e: Effect): boolean {
  if (p.kind !== e.kind) return false
  if (p.syscall !== undefined && p.syscall !== e.syscall) return false
  if (p.path !== undefined && !pathMatches(p.path, e.path)) return false
  if (p.to !== undefined && !pathMatches(p.to, e.to)) return false
  if (p.address !== undefined && p.address !== e.address) return false
  if (p.port !== undefined && p.port !== e.port) return false
  const argv = e.argv ?? []
  if (p.argv !== undefined && (p.argv.length !== argv.length || p.argv.some((a, i) => a !== argv[i])))
    return false
  if (p.argv_prefix?.some((a, i) => a !== argv[i])) return false
  return true
}

/** What differs: effects no pattern allows (`+`), patterns no effect matched (`-`). */
export function effectsMismatch(patterns: readonly EffectPattern[], list: readonly Effect[]): string[] {
  const lines: string[] = []
  const used = new Set<number>()
  for (const e of list) {
    const i = patterns.findIndex((p) => patternMatches(p, e))
    if (i < 0) lines.push(`+ ${effectLine(e)}`)
    else used.add(i)
    // Every pattern an effect matches counts as seen.
    patterns.forEach((p, j) => {
      if (patternMatches(p, e)) used.add(j)
    })
  }
  patterns.forEach((p, i) => {
    if (!used.has(i)) lines.push(`- ${JSON.stringify(p)}`)
  })
  return lines
}
