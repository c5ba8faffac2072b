import type { KeyEvent } from '../../go/encoding/json/decode.js'
import type { GoString } from '../../go/gostring.js'
import { jsonString, stringLiteralEnd } from '../fix.js'
import { pack } from '../rule-kit/examples.js'
import type { ManifestRule } from '../rule-kit/util.js'
import type { TextEdit } from '../types.js'

const isSpace = (c: string | undefined) => c === ' ' || c === '\t' || c === '\n' || c === '\r'

/**
 * Pure fixer: the edit that makes `class` explicitly `"safe"` in a skill.json that decodes (what
 * the manager assumes when it is unset or ""). `keys`: the top-level keys, in order; `classKey`
 * the one that set `class` ("" as written), if any. A member is added after the last one, in its
 * layout (the white space before it, its `:` spacing); an empty value is replaced.
 */
export function fixClassUnset(
  raw: GoString,
  keys: readonly KeyEvent[],
  classKey?: KeyEvent,
): TextEdit | null {
  const safe = jsonString('safe')
  if (classKey) return { range: [classKey.valueOffset, classKey.valueEnd], text: safe }
  const last = keys.at(-1)
  if (!last) {
    let open = 0
    while (isSpace(raw[open])) open++
    if (raw[open] !== '{') return null
    return { range: [open + 1, open + 1], text: `${jsonString('class')}: ${safe}` }
  }
  // The white space before the last key (after its `{` or `,`), and between its key and value.
  let before = last.offset
  while (before > 0 && isSpace(raw[before - 1])) before--
  const lead = raw.slice(before, last.offset)
  const keyEnd = stringLiteralEnd(raw, last.offset)
  if (keyEnd < 0) return null
  const colon = raw.slice(keyEnd, last.valueOffset)
  return { range: [last.valueEnd, last.valueEnd], text: `,${lead}${jsonString('class')}${colon}${safe}` }
}

const rule: ManifestRule = {
  id: 'practice/class-unset',
  severity: 'warn',
  category: 'best-practice',
  kind: 'manifest',
  docs: '`class` is unset: the manager silently makes the skill `safe` (offered to the LLM, runnable by every role).',
  why: 'The class decides who may run a skill and whether the LLM is offered it; left unset, a skill that deletes or restarts things is runnable by every role and offered to the LLM.',
  fixSafety: {
    safe: true,
    because: 'it writes `"class": "safe"`, which is what the manager assumes when the key is unset.',
  },
  examples: { bad: [{ files: pack() }], good: [{ files: pack({ class: 'safe' }) }] },
  fixable: 'text',
  check(ctx, report) {
    if (!ctx.ok || ctx.parsed?.manifest.class !== '') return
    const keys = ctx.parsed.keys
    const edit = fixClassUnset(ctx.raw, keys, ctx.lastKey('class'))
    report({
      at: ctx.keyAt('class'),
      message:
        'class is not set: the manager defaults it to "safe" without a word (offered to the LLM, runnable by every role); set "safe", "mutating" or "dangerous" explicitly',
      ...(edit ? { fix: { edits: [edit] } } : {}),
    })
  },
}
export default rule
