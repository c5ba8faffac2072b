import assert from 'node:assert/strict'
import { mkdirSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { fromText } from '../../../src/core/go/gostring.js'
import { checkDocument, openTarget, verifyDocument } from '../../../src/core/marketplace/check.js'
import { checkInstall, DEFAULT_TRUST } from '../../../src/core/marketplace/install.js'
import {
  MARKETPLACE_RULES,
  marketplaceRule,
  UNSIGNED_MESSAGE,
  warningRuleId,
} from '../../../src/core/marketplace/rules.js'
import { makeTree, tempRoot } from '../../helpers/tree.js'

const SRC = fileURLToPath(new URL('../../../../src/', import.meta.url))
const { root, cleanup } = tempRoot('ongrid-mp-rules-')
after(cleanup)

function sources(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name)
    if (e.isDirectory()) sources(p, out)
    else if (e.name.endsWith('.ts')) out.push(p)
  }
  return out
}

test('every marketplace rule id written in the source is in the list, once', () => {
  const ids = MARKETPLACE_RULES.map((r) => r.id)
  assert.equal(new Set(ids).size, ids.length, 'ids are distinct')
  const used = new Set<string>()
  for (const f of sources(SRC))
    for (const m of readFileSync(f, 'utf8').matchAll(
      /['"`](marketplace(?:-bug|-practice)?\/[a-z][a-z-]*)['"`]/g,
    ))
      used.add(m[1])
  assert.ok(used.has('marketplace-practice/no-wrapper'))
  assert.deepEqual(
    [...used].filter((id) => !ids.includes(id)),
    [],
  )
  assert.throws(() => marketplaceRule('marketplace/nope'), /not in MARKETPLACE_RULES/)
})

test('every loader warning that reaches check has its rule', () => {
  // container_load_failed is LoadAll's (validate's native/not-loaded), never a check finding.
  const codes = new Set<string>()
  for (const f of [...sources(join(SRC, 'core/marketplace')), ...sources(join(SRC, 'core/native'))])
    for (const m of readFileSync(f, 'utf8').matchAll(/(?:code: |note\(\w+, )'([a-z_]+)'/g))
      if (m[1] !== 'container_load_failed') codes.add(m[1])
  assert.ok(codes.size >= 15, [...codes].join(' '))
  for (const c of codes) assert.ok(marketplaceRule(warningRuleId(c)), c)
})

test('marketplace/unsigned says one thing: check, verify and the trust gate', async () => {
  const dir = join(root, 'p')
  mkdirSync(dir)
  makeTree(dir, {
    '.claude-plugin/plugin.json': '{"id":"demo","version":"1.0.0"}',
    'skills/hello/SKILL.md': '---\nname: hello\ndescription: Says hello.\n---\nHi\n',
  })
  const t = await openTarget(fromText(dir))
  const messages = new Set<string>()
  for (const f of (await checkDocument(t, DEFAULT_TRUST)).findings)
    if (f.ruleId === 'marketplace/unsigned') messages.add(f.message)
  for (const required of [false, true])
    for (const f of verifyDocument(t, '', 'default', required).doc.findings)
      if (f.ruleId === 'marketplace/unsigned') messages.add(f.message)
  assert.deepEqual([...messages], [UNSIGNED_MESSAGE])
  const gated = await checkInstall(dir, { ...DEFAULT_TRUST, devMode: false, requireSigned: ['local'] })
  assert.match(gated.installError ?? '', new RegExp(`\\(state=unsigned: ${UNSIGNED_MESSAGE}\\)$`))
})
