import type { RuleMeta } from '../../core/lint/types.js'

/** `lint --list-rules` as a table. */
export function listRules(rules: readonly RuleMeta[]): string {
  const idW = Math.max(...rules.map((r) => r.id.length))
  const catW = 'best-practice'.length
  return rules
    .map((r) => `${r.id.padEnd(idW)}  ${r.severity.padEnd(5)}  ${r.category.padEnd(catW)}  ${r.docs}\n`)
    .join('')
}
