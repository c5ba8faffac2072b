#!/usr/bin/env node
// Writes docs/rules.md, and the rule ids of schemas/ongrid-skill.schema.json, from the rule registry
// (run after `npm run build`: it reads dist/).
//   node scripts/gen-rules-doc.mjs           write both
//   node scripts/gen-rules-doc.mjs --check   exit 1 when either is out of date
import { readFileSync, writeFileSync } from 'node:fs'

const { RULES } = await import('../dist/core/lint/registry.js')
const { rulesDoc } = await import('../dist/ui/lint/rules-doc.js')
const { fixDiffsOf } = await import('../dist/core/lint/example-fix.js')
const docTarget = new URL('../docs/rules.md', import.meta.url)
const schemaTarget = new URL('../schemas/ongrid-skill.schema.json', import.meta.url)

const read = (url) => {
  try {
    return readFileSync(url, 'utf8')
  } catch {
    return ''
  }
}

/**
 * The config schema with `rules`' property names: the registry's ids, sorted; the patterns of the
 * ids rules give their findings (`entry/SC2086`); and the prefixes and globs that select rules
 * (kept from the file as it is).
 */
function configSchema(current) {
  const schema = JSON.parse(current)
  const ids = { enum: RULES.map((r) => r.id).sort() }
  const subs = RULES.flatMap((r) => (r.subIds ? [{ pattern: r.subIds.schemaPattern }] : []))
  const selectors = schema.properties.rules.propertyNames.anyOf.filter((s) => s.description !== undefined)
  schema.properties.rules.propertyNames = { anyOf: [ids, ...subs, ...selectors] }
  return `${JSON.stringify(schema, null, 2)}\n`
}

const outputs = [
  { url: docTarget, name: 'docs/rules.md', text: rulesDoc(RULES, await fixDiffsOf(RULES)) },
  { url: schemaTarget, name: 'schemas/ongrid-skill.schema.json', text: configSchema(read(schemaTarget)) },
]
if (process.argv.includes('--check')) {
  const stale = outputs.filter((o) => read(o.url) !== o.text).map((o) => o.name)
  if (stale.length > 0) {
    process.stderr.write(
      `${stale.join(', ')} out of date: run \`npm run build && node scripts/gen-rules-doc.mjs\`\n`,
    )
    process.exit(1)
  }
} else {
  for (const o of outputs) writeFileSync(o.url, o.text)
  process.stdout.write(`wrote docs/rules.md and schemas/ongrid-skill.schema.json (${RULES.length} rules)\n`)
}
