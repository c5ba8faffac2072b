import { fromText } from '../../go/gostring.js'
import { type JNode, nodeAt } from '../../json-tree.js'
import type { ManifestContext } from '../context.js'
import { pack } from '../rule-kit/examples.js'
import { eachSchemaObject, type ManifestRule, member, schemaOffset } from '../rule-kit/util.js'

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

/**
 * What the manager makes of a schema ajv refuses, said beside each finding: it never checks a
 * schema, so a registered safe skill is offered with it as written; other classes are not offered.
 * Null when the pack does not register or the bridge refuses the schema (other findings say why).
 */
function managerVerdict(ctx: ManifestContext): string | null {
  const tool = ctx.tool()
  if (tool === null) return null
  if (tool.offered)
    return 'the manager does not check the schema: it offers the tool with it as written (--show-tool)'
  if (tool.reason === 'class')
    return `the manager does not check the schema (and offers only safe skills to the LLM, not this ${ctx.skill?.class} one)`
  return null
}

const rule: ManifestRule = {
  id: 'schema/invalid',
  severity: 'error',
  category: 'manager',
  notRefused: true,
  kind: 'manifest',
  docs: 'The schema is not a valid JSON Schema for its draft (2020-12 unless `$schema` says draft-07), checked by ajv in strict mode. The manager does not check schemas: each finding says what it makes of this one (a safe skill is offered with the schema as written, `--show-tool`).',
  examples: {
    bad: [{ files: pack({ schema: { type: 'object', properties: { path: { type: 'strin' } } } }) }],
    good: [{ files: pack({ schema: { type: 'object', properties: { path: { type: 'string' } } } }) }],
  },
  prepare: (ctx) => ctx.loadSchemaVerdict(),
  check(ctx, report) {
    const v = ctx.schemaVerdict
    if (!v || 'unsupported' in v) return
    const verdict = v.invalid.length > 0 || v.compileError !== null ? managerVerdict(ctx) : null
    for (const p of v.invalid) {
      report({
        at: schemaOffset(ctx, p.pointer),
        message: `schema${p.pointer}: ${p.message}`,
        hint: verdict === null ? undefined : `${verdict}.`,
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
      const strict =
        kw || fmt
          ? 'ajv’s strict mode refuses keywords and formats it does not know: fix the spelling, or drop it.'
          : null
      const hint = [verdict === null ? null : `${verdict}.`, strict].filter((h) => h !== null).join(' ')
      report({
        at: at ?? ctx.keyAt('schema'),
        message: `schema: ${v.compileError}`,
        hint: hint === '' ? undefined : hint,
      })
    }
  },
}
export default rule
