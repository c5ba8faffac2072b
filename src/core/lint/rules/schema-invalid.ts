import { fromText } from '../../go/gostring.js'
import { type JNode, nodeAt } from '../../json-tree.js'
import type { ManifestContext } from '../context.js'
import { pack } from './examples.js'
import { eachSchemaObject, type ManifestRule, member } from './util.js'

/** Offset of the node at a pointer into the schema (its key when it has one). */
export function schemaOffset(ctx: ManifestContext, pointer: string, preferKey = true): number | null {
  const s = ctx.schema()
  if (!s?.tree) return ctx.keyAt('schema')
  const hit = nodeAt(s.tree, pointer)
  if (!hit) return s.key.offset
  if (preferKey && hit.keyStart !== null) return hit.keyStart
  return hit.node.start
}

/** The first subschema member named `key` (a keyword, not a property name), optionally under `pointer`. */
function findKeyword(tree: JNode, key: string, pointer = ''): number | null {
  const start = pointer === '' ? tree : nodeAt(tree, pointer)?.node
  if (!start) return null
  let found: number | null = null
  const k = fromText(key)
  eachSchemaObject(start, (o) => {
    if (found !== null) return
    const m = member(o, k)
    if (m) found = m.keyStart
  })
  return found
}

const rule: ManifestRule = {
  id: 'schema/invalid',
  severity: 'error',
  category: 'manager',
  kind: 'manifest',
  docs: 'The schema is not a valid JSON Schema for its draft (2020-12 unless `$schema` says draft-07), checked by ajv in strict mode.',
  examples: {
    bad: [{ files: pack({ schema: { type: 'object', properties: { path: { type: 'strin' } } } }) }],
    good: [{ files: pack({ schema: { type: 'object', properties: { path: { type: 'string' } } } }) }],
  },
  prepare: (ctx) => ctx.loadSchemaVerdict(),
  check(ctx, report) {
    const v = ctx.schemaVerdict
    if (!v || 'unsupported' in v) return
    for (const p of v.invalid) {
      report({
        at: schemaOffset(ctx, p.pointer),
        message: `schema${p.pointer}: ${p.message}`,
      })
    }
    if (v.compileError !== null) {
      // ajv names the keyword, and for formats the subschema: `unknown format "x" ignored in schema at path "#/properties/a"`.
      const kw = /unknown keyword: "([^"]*)"/.exec(v.compileError)
      const fmt = /unknown format "[^"]*" ignored in schema at path "#([^"]*)"/.exec(v.compileError)
      const tree = ctx.schema()?.tree
      const at = !tree
        ? null
        : kw
          ? findKeyword(tree, kw[1])
          : fmt
            ? findKeyword(tree, 'format', fmt[1])
            : null
      report({
        at: at ?? ctx.keyAt('schema'),
        message: `schema: ${v.compileError}`,
        hint:
          kw || fmt
            ? 'ajv’s strict mode refuses keywords and formats it does not know: fix the spelling, or drop it.'
            : undefined,
      })
    }
  },
}
export default rule
