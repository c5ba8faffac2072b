import { pack } from '../rule-kit/examples.js'
import { type ManifestRule, schemaOffset } from '../rule-kit/util.js'

const rule: ManifestRule = {
  id: 'schema/default-invalid',
  severity: 'error',
  category: 'manager',
  notRefused: true,
  kind: 'manifest',
  docs: 'A `default` or `examples` value does not match the subschema it sits in.',
  examples: {
    bad: [
      {
        files: pack({ schema: { type: 'object', properties: { depth: { type: 'integer', default: 'x' } } } }),
      },
    ],
    good: [
      { files: pack({ schema: { type: 'object', properties: { depth: { type: 'integer', default: 1 } } } }) },
    ],
  },
  prepare: (ctx) => ctx.loadSchemaVerdict(),
  check(ctx, report) {
    const v = ctx.schemaVerdict
    if (!v || 'unsupported' in v) return
    for (const p of v.defaults) {
      const what = /\/default$/.test(p.pointer) ? 'default' : 'example'
      report({
        at: schemaOffset(ctx, p.pointer, false),
        message: `schema${p.pointer}: the ${what} does not match its schema: ${p.message}`,
      })
    }
  },
}
export default rule
