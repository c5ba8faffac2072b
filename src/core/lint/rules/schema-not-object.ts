import { toText } from '../../go/gostring.js'
import { invalidSchemaMessage, SCHEMA_WARN_MSG } from '../../tool-def.js'
import type { ManifestRule } from './util.js'

const rule: ManifestRule = {
  id: 'schema/not-object',
  severity: 'error',
  category: 'manager',
  kind: 'manifest',
  docs: 'The schema is not a JSON object (nor null): the LLM bridge skips the skill with a WARN, so the LLM never sees it.',
  check(ctx, report) {
    const s = ctx.schema()
    if (!s?.decode || s.decode.ok || s.decode.kind !== 'not-object') return
    const key = ctx.parsed?.manifest.name ?? ''
    report({
      at: s.decode.at,
      message: toText(invalidSchemaMessage(key, s.decode.err)),
      hint: `the manager logs this as WARN "${SCHEMA_WARN_MSG}" and leaves the skill out of the LLM’s tools; schema must be a JSON Schema object.`,
    })
  },
}
export default rule
