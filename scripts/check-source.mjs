#!/usr/bin/env node
// npm run lint (with the layer and path checks): facts about the source text itself.
//
//   node scripts/check-source.mjs [ROOT]
//
// - texts: a message written in core (outside core/go) is written in no other file of core,
//   cli or ui (a text lives in one place; core/go repeats Go's texts on purpose);
// - v8-flags: V8 flags are set at the CLI edge only, never in core;
// - rule-modules: each lint rule lives in src/core/lint/rules/<id with - for />.ts, one id a file;
// - rule-ids: the engine and the contexts (src/core/lint/*.ts but the registries) name no rule id:
//   they read the rules' metadata;
// - test-tree: the test tree follows the rule of docs/testing.md ("Where a test goes").
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'

/** The .ts/.tsx files under DIR, as paths relative to it ('/'-separated). */
function sources(dir, sub = '', out = []) {
  if (!existsSync(join(dir, sub))) return out
  for (const e of readdirSync(join(dir, sub), { withFileTypes: true })) {
    const p = sub === '' ? e.name : `${sub}/${e.name}`
    if (e.isDirectory()) sources(dir, p, out)
    else if (/\.tsx?$/.test(e.name)) out.push(p)
  }
  return out.sort()
}

/** The text literals of a source file (template holes as `${}`), module specifiers left out. */
export function literals(name, text) {
  const file = ts.createSourceFile(name, text, ts.ScriptTarget.Latest, true)
  const found = []
  const visit = (node) => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) return
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) return
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) found.push(node.text)
    else if (ts.isTemplateExpression(node)) {
      found.push(node.head.text + node.templateSpans.map((s) => `\${}${s.literal.text}`).join(''))
    }
    ts.forEachChild(node, visit)
  }
  visit(file)
  return found
}

/** A text worth one source: long enough to be a message (holes aside), and words, not an id. */
function isMessage(t) {
  return t.replace(/\$\{\}/g, '').length >= 24 && /\s/.test(t)
}

/**
 * Texts written in core (outside core/go) that are written again in another file of core, cli
 * or ui. FILES maps a path relative to src/ to its text.
 */
export function duplicatedTexts(files) {
  const where = new Map()
  for (const [name, text] of files) {
    for (const t of literals(name, text)) {
      if (!isMessage(t)) continue
      if (!where.has(t)) where.set(t, new Set())
      where.get(t).add(name)
    }
  }
  const problems = []
  for (const [t, names] of where) {
    const list = [...names].sort()
    if (list.length > 1 && list.some((n) => n.startsWith('core/') && !n.startsWith('core/go/')))
      problems.push(`texts: ${JSON.stringify(t)} is written in ${list.join(', ')}`)
  }
  return problems
}

/** Files of core that set V8 flags (FILES: path relative to src/ → text). */
export function v8FlagSetters(files) {
  return [...files]
    .filter(([name, text]) => name.startsWith('core/') && text.includes('setFlagsFromString'))
    .map(([name]) => `v8-flags: src/${name} sets V8 flags: only the CLI's edge may`)
}

const RULE_ID = /^\s*id: '([a-z]+\/[a-z0-9-]+)',?$/gm

/**
 * Each rule in its own module: RULE_FILES maps a file name of src/core/lint/rules/ to its text.
 * Returns the problems and the ids found.
 */
export function ruleModules(ruleFiles) {
  const problems = []
  const ids = []
  for (const [name, text] of ruleFiles) {
    const found = [...text.matchAll(RULE_ID)].map((m) => m[1])
    if (found.length > 1)
      problems.push(`rule-modules: rules/${name} defines ${found.join(', ')}: one rule a file`)
    for (const id of found) {
      ids.push(id)
      if (`${id.replace('/', '-')}.ts` !== name)
        problems.push(`rule-modules: ${id} is defined in rules/${name}, not rules/${id.replace('/', '-')}.ts`)
    }
  }
  const seen = new Set()
  for (const id of ids) {
    if (seen.has(id)) problems.push(`rule-modules: ${id} is defined twice`)
    seen.add(id)
  }
  return { problems, ids }
}

/** Engine files (src/core/lint/*.ts but registry*) that name a rule id in their code. */
export function engineNamesRule(engineFiles, ids) {
  const problems = []
  for (const [name, raw] of engineFiles) {
    // Code only: a comment may show an id as an example.
    const text = raw.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '')
    for (const id of ids)
      if (text.includes(`'${id}'`) || text.includes(`"${id}"`))
        problems.push(`rule-ids: src/core/lint/${name} names ${id}: read the rule's metadata instead`)
  }
  return problems
}

/**
 * Tests that run the built CLI for a behaviour every command shares, each with what it covers
 * (test/commands/ is otherwise one file, or a few, per command).
 */
const SHARED_BEHAVIOURS = new Map([
  ['ajv-refusals', 'a schema ajv refuses, in each command that compiles schemas'],
  ['deep-schema', "schemas nested up to Go's 10000 levels, in validate and lint"],
  ['fifo-dirs', 'a FIFO where a dir or file is expected, in every command that reads one'],
  ['fuzz-inputs', "the CLI's own input parsers, and the CLI on their inputs"],
  ['hangs', 'inputs and servers that would make a command hang'],
  ['hardening', 'planted files, links and modes, in every command'],
  ['json-contract', 'the --json envelope of every command'],
  ['json-failures', 'the --json documents of failures, in every command'],
  ['manager-version', '--manager-version, in every command that takes it'],
  ['non-utf8-paths', 'paths that are not UTF-8, in every command'],
  ['quiet', '-q/--quiet, in every command that prints progress'],
  ['sqlite-missing', 'a Node without node:sqlite, in the commands that use the audit store'],
  ['terminal-output', 'text from files escaped on a terminal, in every command'],
  ['walk', 'the default walk of the packs, in validate, lint and test'],
])

/** Test folders with a rule of their own (not named after a source file), and that rule. */
const OWN_RULE = new Map([
  ['differential', 'a Go behaviour each, checked against Go itself'],
  ['golden', "the manager's texts, from its code as read"],
  ['editors', 'an editor each, as a user sets it up'],
  ['bin', 'the launcher (bin/)'],
  ['helpers', 'the test helpers themselves'],
  ['fixtures', 'no tests: the packs tests use'],
])

/** A dash-separated prefix of STEM for which HAS(prefix) holds. */
function somePrefix(stem, has) {
  const parts = stem.split('-')
  for (let i = parts.length; i > 0; i--) if (has(parts.slice(0, i).join('-'))) return true
  return false
}

/**
 * Where each test goes (docs/testing.md): TESTS are paths relative to test/ of *.test.ts(x),
 * EXISTS(path relative to the root) says whether a source path exists, LIST(path) names a dir's entries.
 */
export function testTreeProblems(tests, exists, list) {
  const problems = []
  // A command's id with '-' for ' ' (marketplace-pack), and each topic (marketplace).
  const commands = new Set()
  const walk = (sub, prefix) => {
    for (const name of list(sub)) {
      const id = `${prefix}${name.replace(/\.tsx?$/, '')}`
      commands.add(id)
      if (!/\.tsx?$/.test(name)) walk(`${sub}/${name}`, `${id}-`)
    }
  }
  walk('src/commands', '')
  for (const t of tests) {
    const parts = t.split('/')
    const stem = parts.at(-1).replace(/\.test\.tsx?$/, '')
    const dir = parts.slice(0, -1)
    const where = `test-tree: test/${t}`
    if (dir.length === 0) continue // the package as a whole (tarball, single executable, schemas)
    const area = dir[0]
    if (OWN_RULE.has(area)) continue
    if (area === 'commands') {
      const isCommand = (p) => commands.has(p)
      if (dir.length > 1) problems.push(`${where}: test/commands/ has no folders`)
      else if (!somePrefix(stem, isCommand) && !SHARED_BEHAVIOURS.has(stem))
        problems.push(
          `${where}: name it <command>[-<aspect>] (src/commands/), or list it in SHARED_BEHAVIOURS`,
        )
      continue
    }
    if (area === 'scripts') {
      if (!somePrefix(stem, (p) => exists(`scripts/${p}.mjs`)) && stem !== 'readme-apt')
        problems.push(`${where}: name it after the script it tests (scripts/<name>.mjs)`)
      continue
    }
    const src = `src/${dir.join('/')}`
    if (!exists(src)) {
      problems.push(`${where}: ${src}/ does not exist: test/ mirrors src/`)
      continue
    }
    // A file or folder, or a family: two or more files named <p>-… (rules/secret-*.ts).
    const named = (p) =>
      exists(`${src}/${p}.ts`) ||
      exists(`${src}/${p}.tsx`) ||
      exists(`${src}/${p}`) ||
      list(src).filter((n) => n.startsWith(`${p}-`)).length >= 2
    if (!somePrefix(stem, named))
      problems.push(`${where}: name it <module>[-<aspect>] after a file or folder of ${src}/`)
  }
  return problems
}

/** The *.test.ts(x) files under DIR, relative to it. */
function testFiles(dir, sub = '', out = []) {
  for (const e of readdirSync(join(dir, sub), { withFileTypes: true })) {
    const p = sub === '' ? e.name : `${sub}/${e.name}`
    if (e.isDirectory()) testFiles(dir, p, out)
    else if (/\.test\.tsx?$/.test(e.name)) out.push(p)
  }
  return out.sort()
}

/** Every problem of the tree at ROOT. */
export function sourceProblems(root) {
  const src = join(root, 'src')
  const files = new Map()
  for (const f of sources(src))
    if (/^(core|cli|ui)\//.test(f)) files.set(f, readFileSync(join(src, f), 'utf8'))
  const rulesDir = join(src, 'core/lint/rules')
  const ruleFiles = new Map(
    readdirSync(rulesDir, { withFileTypes: true })
      .filter((e) => e.isFile() && e.name.endsWith('.ts'))
      .map((e) => [e.name, readFileSync(join(rulesDir, e.name), 'utf8')]),
  )
  const { problems: ruleProblems, ids } = ruleModules(ruleFiles)
  const lintDir = join(src, 'core/lint')
  const engineFiles = new Map(
    readdirSync(lintDir, { withFileTypes: true })
      .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.startsWith('registry'))
      .map((e) => [e.name, readFileSync(join(lintDir, e.name), 'utf8')]),
  )
  if (!engineFiles.has('engine.ts'))
    ruleProblems.push('rule-ids: src/core/lint/engine.ts is gone: update this check')
  if (ids.length === 0)
    ruleProblems.push('rule-modules: no rule found in src/core/lint/rules: update this check')
  const tree = testTreeProblems(
    testFiles(join(root, 'test')),
    (p) => existsSync(join(root, p)),
    (p) => (existsSync(join(root, p)) ? readdirSync(join(root, p)) : []),
  )
  return [
    ...duplicatedTexts(files),
    ...v8FlagSetters(files),
    ...ruleProblems,
    ...engineNamesRule(engineFiles, ids),
    ...tree,
  ]
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = process.argv[2] ?? join(fileURLToPath(import.meta.url), '..', '..')
  const problems = sourceProblems(root)
  for (const p of problems) console.error(`source: ${p}`)
  if (problems.length > 0) {
    console.error(`source: ${problems.length} problem(s) in ${relative(process.cwd(), root) || '.'}`)
    process.exit(1)
  }
}
