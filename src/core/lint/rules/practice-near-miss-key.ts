import type { KeyEvent } from '../../go/encoding/json/decode.js'
import type { GoString } from '../../go/gostring.js'
import { renameKey } from '../fix.js'
import { pack } from '../rule-kit/examples.js'
import { keyText, nearMiss } from '../rule-kit/keys.js'
import type { ManifestRule } from '../rule-kit/util.js'
import type { TextEdit } from '../types.js'

/** The first byte a value the field decodes has (a number, an array, an object, a string). */
const VALUE_START: Record<string, RegExp> = {
  timeout_seconds: /^-?[0-9]/,
  env_allow: /^\[/,
  schema: /^\{/,
}

/**
 * Pure fixer (a suggestion: the manager ignores the key today, and would use its value once
 * renamed): the edit that renames `key` to `field`, or null when the value is not of the field's
 * JSON type, when the field is already set, or when the key names another unit (`timeout_ms`).
 */
export function renameNearMiss(raw: GoString, key: KeyEvent, field: string, set: boolean): TextEdit | null {
  if (set || /ms$/i.test(key.key)) return null
  const value = raw.slice(key.valueOffset, key.valueEnd)
  if (!(VALUE_START[field] ?? /^"/).test(value)) return null
  return renameKey(raw, key.offset, field)
}

const rule: ManifestRule = {
  id: 'practice/near-miss-key',
  severity: 'warn',
  category: 'best-practice',
  kind: 'manifest',
  docs: 'An unknown key looks like a real field (`timeout`, `env`, `args_schema`, `command`…): the manager ignores it.',
  examples: { bad: [{ files: pack({ timeout: 10 }) }], good: [{ files: pack({ timeout_seconds: 10 }) }] },
  hasSuggestions: true,
  check(ctx, report) {
    if (!ctx.ok) return
    for (const k of ctx.parsed?.keys ?? []) {
      if (k.field !== null) continue
      const want = nearMiss(keyText(k))
      if (!want) continue
      const edit = renameNearMiss(ctx.raw, k, want, ctx.lastKey(want) !== undefined)
      report({
        at: k.offset,
        message: `unknown key ${JSON.stringify(keyText(k))} is ignored by the manager: did you mean "${want}"?`,
        ...(edit
          ? {
              suggestions: [
                {
                  message: `rename ${JSON.stringify(keyText(k))} to "${want}": the manager then uses its value (not applied by --fix: it changes what the manager does)`,
                  fix: { edits: [edit] },
                },
              ],
            }
          : {}),
      })
    }
  },
}
export default rule
