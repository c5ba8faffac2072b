import { pack } from '../rule-kit/examples.js'
import { keyText, nearMiss, SCHEMA_KEY } from '../rule-kit/keys.js'
import type { ManifestRule } from '../rule-kit/util.js'

const rule: ManifestRule = {
  id: 'practice/unknown-key',
  severity: 'info',
  category: 'best-practice',
  kind: 'manifest',
  docs: 'A key that is no manifest field (and no near miss of one, nor `$schema`): the manager ignores it.',
  why: 'The manager reads only the fields it knows: a key it ignores looks like configuration to the reader of skill.json and does nothing.',
  examples: { bad: [{ files: pack({ author: 'me' }) }], good: [{ files: pack() }] },
  check(ctx, report) {
    if (!ctx.ok) return
    for (const k of ctx.parsed?.keys ?? []) {
      // `$schema` names the JSON Schema an editor checks the file with (schemas/skill.schema.json).
      if (k.field !== null || nearMiss(keyText(k)) || keyText(k) === SCHEMA_KEY) continue
      report({ at: k.offset, message: `unknown key ${JSON.stringify(keyText(k))} is ignored by the manager` })
    }
  },
}
export default rule
