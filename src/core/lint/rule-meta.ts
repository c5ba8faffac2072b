import type { RuleMeta } from './types.js'

/** What listings, docs and SARIF need of a rule. */
export function ruleMeta(r: RuleMeta): RuleMeta {
  return {
    id: r.id,
    severity: r.severity,
    category: r.category,
    kind: r.kind,
    docs: r.docs,
    ...(r.fixable ? { fixable: r.fixable } : {}),
    ...(r.hasSuggestions ? { hasSuggestions: true } : {}),
    ...(r.helpUri ? { helpUri: r.helpUri } : {}),
    ...(r.notRefused ? { notRefused: true } : {}),
  }
}
