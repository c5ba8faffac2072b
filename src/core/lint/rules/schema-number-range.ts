import { toText } from '../../go/gostring.js'
import { invalidSchemaMessage, SCHEMA_WARN_MSG } from '../../tool-def.js'
import type { ManifestRule } from './util.js'

const rule: ManifestRule = {
  id: 'schema/number-range',
  severity: 'error',
  category: 'manager',
  kind: 'manifest',
  docs: 'A number in the schema is out of float64’s range (e.g. 1e400): the LLM bridge cannot decode the schema and skips the skill.',
  check(ctx, report) {
    const s = ctx.schema()
    if (!s?.decode || s.decode.ok || s.decode.kind !== 'number-range') return
    const key = ctx.parsed?.manifest.name ?? ''
    report({
      at: s.decode.at,
      message: toText(invalidSchemaMessage(key, s.decode.err)),
      hint: `the manager logs this as WARN "${SCHEMA_WARN_MSG}" and leaves the skill out of the LLM’s tools.`,
    })
  },
}
export default rule
