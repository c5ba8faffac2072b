import { renameKey } from '../fix.js'
import { pack } from '../rule-kit/examples.js'
import { keyText } from '../rule-kit/keys.js'
import type { ManifestRule } from '../rule-kit/util.js'

const rule: ManifestRule = {
  id: 'practice/case-insensitive-key',
  severity: 'warn',
  category: 'best-practice',
  kind: 'manifest',
  docs: 'A key matched a field only case-insensitively (`Entry`, `NAME`, `claſs`): Go accepts it, other tools will not.',
  why: 'Other readers of skill.json (the marketplace, editors, schema checks, people) match keys exactly and see no such field.',
  fixSafety: {
    safe: true,
    because: 'Go already reads the key as the field; spelling it so changes nothing the manager does.',
  },
  examples: { bad: [{ files: pack({ entry: undefined, Entry: 'run.sh' }) }], good: [{ files: pack() }] },
  fixable: 'text',
  check(ctx, report) {
    if (!ctx.ok) return
    for (const k of ctx.parsed?.keys ?? []) {
      if (k.field === null || k.exact) continue
      // Go already reads the key as the field: spelling it so changes nothing the manager does.
      const edit = renameKey(ctx.raw, k.offset, k.field)
      report({
        at: k.offset,
        message: `key ${JSON.stringify(keyText(k))} was read as "${k.field}": Go matches keys to fields case-insensitively; spell it "${k.field}"`,
        ...(edit ? { fix: { edits: [edit] } } : {}),
      })
    }
  },
}
export default rule
