import { toText } from '../../go/gostring.js'
import { quote } from '../../go/strconv/quote.js'
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
      message: toText(`subprocess skill ${quote(key)}: invalid manifest schema: ${s.decode.err.error()}`),
      hint: 'the manager logs this as WARN "aiops/tools: skill schema build failed" and leaves the skill out of the LLM’s tools; schema must be a JSON Schema object.',
    })
  },
}
export default rule
