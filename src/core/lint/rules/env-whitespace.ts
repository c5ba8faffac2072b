import { fromText, type GoString, toText, trimSpace } from '../../go/gostring.js'
import { jsonString } from '../fix.js'
import { envElements } from '../rule-kit/env.js'
import { pack } from '../rule-kit/examples.js'
import type { ManifestRule } from '../rule-kit/util.js'
import type { TextEdit } from '../types.js'

/**
 * Pure fixer: the edit that writes the string literal at `[start, end)` of the file (whose value is
 * `value`) trimmed, as the manager trims it; null when the value is not UTF-8 (kept byte for byte).
 */
export function fixEnvWhitespace(value: GoString, start: number, end: number): TextEdit | null {
  const t = trimSpace(value)
  if (t === value || fromText(toText(t)) !== t) return null
  return { range: [start, end], text: jsonString(toText(t)) }
}

const rule: ManifestRule = {
  id: 'env/whitespace',
  severity: 'warn',
  category: 'best-practice',
  kind: 'manifest',
  docs: 'An env_allow name has leading or trailing white space (the manager trims it; other tools may not).',
  fixSafety: {
    safe: true,
    because: 'the manager trims the name before use; the fix writes the trimmed name.',
  },
  examples: {
    bad: [{ files: pack({ env_allow: [' PATH'] }) }],
    good: [{ files: pack({ env_allow: ['PATH'] }) }],
  },
  fixable: 'text',
  check(ctx, report) {
    for (const e of envElements(ctx)) {
      const t = trimSpace(e.value)
      if (t === '' || t === e.value) continue
      const edit = e.end === null ? null : fixEnvWhitespace(e.value, e.at, e.end)
      report({
        at: e.at,
        message: `${JSON.stringify(toText(e.value))} has surrounding white space: write "${toText(t)}"`,
        ...(edit ? { fix: { edits: [edit] } } : {}),
      })
    }
  },
}
export default rule
