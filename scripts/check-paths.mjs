#!/usr/bin/env node
// npm run lint (with the layer check): every path of this tree that a doc or a script names
// exists, so that a moved file cannot leave a doc or a script pointing at nothing (as
// scripts/mutation.mjs once named test files that had moved).
//
//   node scripts/check-paths.mjs [ROOT]
//
// A path is a word starting with one of the tree's top folders (src/, test/, scripts/, …) and
// ending in a name character; a path with a glob or brace (`src/ui/lint/*.ts`) is not checked.
// CHANGELOG.md is not read: it names files as they were.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

/** Named in the docs but not files of this tree, each with why. */
const NOT_IN_TREE = new Map([
  ['examples/args.json', "a pack's own file (init writes it into the pack)"],
  ['src/lib.rs', "a Rust entry's source, inside a pack"],
  ['editors/vscode/ongrid-skill.vsix', 'built by `npm run package` in editors/vscode'],
])

const TOP = [
  'src',
  'test',
  'scripts',
  'docs',
  'schemas',
  'templates',
  'examples',
  '.ci',
  'bin',
  'editors',
  'action',
]
const PATH = new RegExp(
  `(?<![\\w./-])((?:${TOP.map((t) => t.replace('.', '\\.')).join('|')})/[\\w./*{},-]*[\\w*}])`,
  'g',
)

/** A compiled test (`build/test/….test.js`, as .ci/run names them): its source must exist. */
const BUILT_TEST = /(?<![\w./-])build\/(test\/[\w./-]*\.test)\.js\b/g

/** The files whose paths are checked: the docs, the scripts and CI's entry. */
export function sources(root) {
  const md = ['README.md', 'ARCHITECTURE.md', 'CONTRIBUTING.md'].filter((f) => existsSync(join(root, f)))
  const docs = readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`)
  const scripts = readdirSync(join(root, 'scripts'))
    .filter((f) => f.endsWith('.mjs'))
    .map((f) => `scripts/${f}`)
  return [...md, ...docs, ...scripts, '.ci/run', 'package.json']
}

/** Each path named in `files` (relative to root) that does not exist: `file: path`. */
export function missingPaths(root, files = sources(root)) {
  const out = []
  for (const f of files) {
    const text = readFileSync(join(root, f), 'utf8')
    for (const m of text.matchAll(PATH)) {
      const p = m[1]
      if (/[*{]/.test(p) || NOT_IN_TREE.has(p) || existsSync(join(root, p))) continue
      out.push(`${f}: ${p}`)
    }
    for (const m of text.matchAll(BUILT_TEST)) {
      if (['.ts', '.tsx'].some((ext) => existsSync(join(root, `${m[1]}${ext}`)))) continue
      out.push(`${f}: build/${m[1]}.js (no ${m[1]}.ts)`)
    }
  }
  return out
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = process.argv[2] ?? join(fileURLToPath(import.meta.url), '..', '..')
  const missing = missingPaths(root)
  for (const m of missing) process.stderr.write(`check-paths: ${m} does not exist\n`)
  if (missing.length > 0) {
    process.stderr.write(
      `check-paths: ${missing.length} path(s) named in ${relative(process.cwd(), root) || '.'} do not exist\n`,
    )
    process.exit(1)
  }
}
