#!/usr/bin/env node
// Writes docs/rules.md from the rule registry (run after `npm run build`: it reads dist/).
//   node scripts/gen-rules-doc.mjs           write docs/rules.md
//   node scripts/gen-rules-doc.mjs --check   exit 1 when docs/rules.md is out of date
import { readFileSync, writeFileSync } from 'node:fs'

const { RULES } = await import('../dist/core/lint/registry.js')
const { rulesDoc } = await import('../dist/ui/lint/rules-doc.js')
const target = new URL('../docs/rules.md', import.meta.url)
const text = rulesDoc(RULES)
if (process.argv.includes('--check')) {
  let current = ''
  try {
    current = readFileSync(target, 'utf8')
  } catch {}
  if (current !== text) {
    process.stderr.write(
      'docs/rules.md is out of date: run `npm run build && node scripts/gen-rules-doc.mjs`\n',
    )
    process.exit(1)
  }
} else {
  writeFileSync(target, text)
  process.stdout.write(`wrote docs/rules.md (${RULES.length} rules)\n`)
}
