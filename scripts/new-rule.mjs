#!/usr/bin/env node
// A lint rule in one step (CONTRIBUTING.md): `npm run new-rule -- <family>/<name>` writes the rule's
// module and its test, registers it, gives it its line of default severities and its entry in the
// SARIF golden, then builds and regenerates docs/rules.md and the config schema's rule ids.
// Options: --severity error|warn|info (default warn), --category manager|best-practice|tests
// (default from the family), --root DIR (the repository; default this one), --no-build.
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const SEVERITIES = ['error', 'warn', 'info']
const CATEGORIES = ['manager', 'best-practice', 'tests']
const LEVEL = { error: 'error', warn: 'warning', info: 'note' }
const RULES_DOC_URL = 'https://github.com/ongridio/ongrid-skill/blob/main/docs/rules.md'
const GOLDEN = 'test/fixtures/lint/golden/lint.sarif.json'

/** The category a family's rules have unless told: the manager's own families, the pack's cases, the rest. */
function defaultCategory(family) {
  if (['manager', 'input', 'run'].includes(family)) return 'manager'
  if (family === 'tests') return 'tests'
  return 'best-practice'
}

const camel = (s) => s.replace(/[-/]([a-z0-9])/g, (_, c) => c.toUpperCase())

function fail(message) {
  process.stderr.write(`new-rule: ${message}\n`)
  process.exit(2)
}

export function parseArgs(argv) {
  const o = { severity: 'warn', category: undefined, root: undefined, build: true, id: undefined }
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    const value = () => {
      if (i + 1 >= argv.length) fail(`${a} needs a value`)
      return argv[++i]
    }
    if (a === '--severity') o.severity = value()
    else if (a === '--category') o.category = value()
    else if (a === '--root') o.root = value()
    else if (a === '--no-build') o.build = false
    else if (a.startsWith('-')) fail(`unknown option ${a}`)
    else if (o.id === undefined) o.id = a
    else fail(`one rule id only (got ${o.id} and ${a})`)
  }
  if (o.id === undefined) fail('usage: npm run new-rule -- <family>/<name> [--severity warn] [--category …]')
  if (!/^[a-z]+\/[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(o.id))
    fail(`${o.id}: a rule id is <family>/<name>, lower-case kebab-case (practice/class-unset)`)
  if (!SEVERITIES.includes(o.severity)) fail(`--severity: one of ${SEVERITIES.join(', ')}`)
  o.category ??= defaultCategory(o.id.split('/')[0])
  if (!CATEGORIES.includes(o.category)) fail(`--category: one of ${CATEGORIES.join(', ')}`)
  return o
}

function ruleModule(id, severity, category) {
  return `import { pack } from '../rule-kit/examples.js'
import type { ManifestRule } from '../rule-kit/util.js'

// Written by \`npm run new-rule\`: replace the check, docs, why, examples and message with the rule's own.
const rule: ManifestRule = {
  id: '${id}',
  severity: '${severity}',
  category: '${category}',
  kind: 'manifest',
  docs: 'The name is replace_me: one line, what the rule reports (--list-rules and docs/rules.md show it).',
  why: 'What goes wrong for the manager, the LLM or the author when the rule reports (docs/rules.md shows it).',
  examples: { bad: [{ files: pack({ name: 'replace_me' }) }], good: [{ files: pack() }] },
  check(ctx, report) {
    if (!ctx.ok || ctx.parsed?.manifest.name !== 'replace_me') return
    report({ at: ctx.keyAt('name'), message: 'the name is replace_me: say what to do about it' })
  },
}
export default rule
`
}

function ruleTest(file) {
  return `import rule from '../../../../src/core/lint/rules/${file}.js'
import { ECHO } from '../../../helpers/tree.js'
import { ruleTester } from '../rule-tester.js'
import { CLEAN_NATIVE, CLEAN_PACK, colOf, pack } from './fixtures.js'

ruleTester(rule, {
  valid: [
    { name: 'a clean pack', files: CLEAN_PACK },
    { name: 'a clean SKILL.md', files: CLEAN_NATIVE },
  ],
  invalid: [
    {
      files: { 'skills/a/skill.json': pack({ name: 'replace_me' }), 'skills/a/run.sh': ECHO },
      findings: [
        {
          message: 'the name is replace_me: say what to do about it',
          line: 1,
          column: colOf({ name: 'replace_me' }, '"name"'),
          file: 'skills/a/skill.json',
        },
      ],
    },
  ],
})
`
}

/** TEXT with LINE inserted before the line closing the array that starts at OPEN; and the array's length before. */
function appendToArray(text, open, line, what) {
  const start = text.indexOf(open)
  if (start === -1) fail(`${what}: no \`${open}\` found`)
  const close = text.indexOf('\n]', start)
  if (close === -1) fail(`${what}: the list after \`${open}\` is not closed`)
  const items = text
    .slice(start + open.length, close)
    .split('\n')
    .filter((l) => /^\s+(\.\.\.)?[A-Za-z_$][\w$]*,$/.test(l)).length
  return [`${text.slice(0, close)}\n${line}${text.slice(close)}`, items]
}

/** The import added to a registry file (biome puts it in order afterwards). */
function addImport(text, name, file, what) {
  const first = text.search(/^import [a-zA-Z]+ from '\.\/rules\//m)
  if (first === -1) fail(`${what}: no rule import found`)
  return `${text.slice(0, first)}import ${name} from './rules/${file}.js'\n${text.slice(first)}`
}

export function newRule(argv) {
  const o = parseArgs(argv)
  const root = o.root ?? join(dirname(fileURLToPath(import.meta.url)), '..')
  const at = (p) => join(root, p)
  const file = o.id.replace('/', '-')
  const name = camel(o.id)
  const modulePath = `src/core/lint/rules/${file}.ts`
  const testPath = `test/core/lint/rules/${file}.test.ts`
  const manager = o.category !== 'best-practice'
  const registryPath = manager ? 'src/core/lint/registry-manager.ts' : 'src/core/lint/registry.ts'
  const severityPath = 'test/core/lint/registry-severity.test.ts'
  for (const p of [modulePath, testPath]) if (existsSync(at(p))) fail(`${p} exists already`)

  // Every edit is computed before anything is written: a registry that does not parse stops the run clean.
  const registry = readFileSync(at(registryPath), 'utf8')
  if (registry.includes(`from './rules/${file}.js'`)) fail(`${registryPath} imports ${file} already`)
  const [withEntry, before] = appendToArray(
    registry,
    manager
      ? 'export const MANAGER_RULES: readonly Rule<Context>[] = ['
      : 'export const RULES: readonly Rule<Context>[] = [',
    `  ${name},`,
    registryPath,
  )
  // The rule's place in RULES: after the manager rules it is appended to, or last of all.
  let index = before
  if (!manager) {
    index = before - 1 // `...MANAGER_RULES` is one line of the list
    const mgr = readFileSync(at('src/core/lint/registry-manager.ts'), 'utf8')
    index += appendToArray(mgr, 'export const MANAGER_RULES: readonly Rule<Context>[] = [', '', 'manager')[1]
  }
  const severity = readFileSync(at(severityPath), 'utf8')
  const [withSeverity] = appendToArray(
    severity,
    'const DEFAULT_SEVERITY: [string, Severity][] = [',
    `  ['${o.id}', '${o.severity}'],`,
    severityPath,
  )
  const golden = JSON.parse(readFileSync(at(GOLDEN), 'utf8'))
  const run = golden.runs[0]
  run.tool.driver.rules.splice(index, 0, {
    id: o.id,
    name: o.id,
    shortDescription: {
      text: 'The name is replace_me: one line, what the rule reports (--list-rules and docs/rules.md show it).',
    },
    helpUri: `${RULES_DOC_URL}#${o.id.replace('/', '-')}`,
    defaultConfiguration: { level: LEVEL[o.severity] },
    properties: { category: o.category, appliesTo: 'manifest' },
  })
  for (const r of run.results) if (r.ruleIndex >= index) r.ruleIndex++

  writeFileSync(at(modulePath), ruleModule(o.id, o.severity, o.category), { flag: 'wx' })
  writeFileSync(at(testPath), ruleTest(file), { flag: 'wx' })
  writeFileSync(at(registryPath), addImport(withEntry, name, file, registryPath))
  writeFileSync(at(severityPath), withSeverity)
  writeFileSync(at(GOLDEN), `${JSON.stringify(golden, null, 2)}\n`)
  const written = [modulePath, testPath, registryPath, severityPath, GOLDEN]

  const sh = (cmd, args) => {
    const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' })
    if (r.status !== 0) fail(`${[cmd, ...args].join(' ')} failed`)
  }
  const biome = at('node_modules/.bin/biome')
  if (existsSync(biome))
    sh(biome, ['check', '--write', '--vcs-enabled=false', modulePath, testPath, registryPath, severityPath])
  if (o.build) {
    sh('npm', ['run', 'build'])
    sh(process.execPath, ['scripts/gen-rules-doc.mjs'])
    written.push('docs/rules.md', 'schemas/ongrid-skill.schema.json')
  }
  process.stdout.write(
    `new-rule: ${o.id} (${o.severity}, ${o.category}) written:\n${written.map((p) => `  ${p}\n`).join('')}` +
      `Write its check, docs, why, examples and test${o.build ? '' : ', run `npm run build && npm run docs:rules`'}, then \`npm test\`.\n`,
  )
}

if (process.argv[1] === fileURLToPath(import.meta.url)) newRule(process.argv.slice(2))
