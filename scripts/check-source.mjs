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
//   they read the rules' metadata.
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
  return [
    ...duplicatedTexts(files),
    ...v8FlagSetters(files),
    ...ruleProblems,
    ...engineNamesRule(engineFiles, ids),
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
