import { AJV_MAX_DEPTH } from '../../schema/compile.js'
import { pack, packText, skillJsonRaw } from '../rule-kit/examples.js'
import type { ManifestRule } from '../rule-kit/util.js'

/** skill.json whose schema's property `a` is `{"type":"array","items":…}` nested `n` levels, on one line. */
function nestedItems(n: number): string {
  const items = `${'{"type":"array","items":'.repeat(n)}{"type":"string"}${'}'.repeat(n)}`
  return skillJsonRaw({ type: 'object', properties: { a: '@' } }, items)
}

const rule: ManifestRule = {
  id: 'schema/too-deep',
  severity: 'info',
  category: 'manager',
  kind: 'manifest',
  docs: `The schema nests deeper than ${AJV_MAX_DEPTH} levels: ajv does not check it (the strict check, defaults and examples); every other rule still reads it, at any depth the manager accepts (10000). The manager does not check it either: the bridge sends it as written (\`--show-tool\`).`,
  examples: {
    bad: [
      {
        files: packText(skillJsonRaw({ type: 'object', x: '@' }, `${'['.repeat(1001)}${']'.repeat(1001)}`)),
      },
      { files: packText(nestedItems(AJV_MAX_DEPTH)) },
    ],
    good: [{ files: pack({ schema: { type: 'object', x: [[[]]] } }) }],
  },
  prepare: (ctx) => ctx.loadSchemaVerdict(),
  check(ctx, report) {
    const s = ctx.schema()
    if (!s) return
    const v = ctx.schemaVerdict
    if (!v || 'unsupported' in v || v.unchecked === null) return
    report({
      at: s.key.offset,
      message: `ajv did not check the schema: ${v.unchecked}; the manager does not check it either: the bridge sends it as written (--show-tool)`,
    })
  },
}
export default rule
