#!/usr/bin/env node
// The layer table of ARCHITECTURE.md, enforced: every import in src/ is checked against what its
// folder may import. Run by `npm run lint` (so by `npm test`); exits 1 listing each crossing.
// Biome's noRestrictedImports matches import specifiers, not the files they resolve to, so a
// relative path (`../../core/x.js`) cannot be tied to the layer of the importing folder there.
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, normalize, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')

/** Layer of a file under src/, the most specific first. */
const LAYERS = [
  ['core/go', 'src/core/go/'],
  ['core', 'src/core/'],
  ['cli', 'src/cli/'],
  ['lsp', 'src/lsp/'],
  ['ui', 'src/ui/'],
  ['commands', 'src/commands/'],
  ['hooks', 'src/hooks/'],
]

/** What each layer may import inside src/ (its own layer included). */
const MAY_IMPORT = {
  commands: ['commands', 'cli'],
  hooks: ['cli'],
  cli: ['cli', 'core', 'core/go', 'ui', 'lsp'],
  lsp: ['lsp', 'core', 'core/go', 'ui'],
  ui: ['ui', 'core', 'core/go'],
  core: ['core', 'core/go'],
  'core/go': ['core/go'],
}

/**
 * Imports of types only (`import type`, erased when compiled) a layer may make besides: an action
 * (cli/actions/) types its input by its command's static flags.
 */
const MAY_IMPORT_TYPES = { 'src/cli/actions/': ['commands'] }

/** Packages a layer must not import (node: builtins are always allowed). */
const FORBIDDEN_PACKAGES = {
  core: /^(@oclif\/|ink($|\/|-)|chalk($|\/)|react($|\/))/,
  lsp: /^(@oclif\/|ink($|\/|-)|chalk($|\/)|react($|\/))/,
  'core/go': /^(?!node:)/,
}

/**
 * Inside a layer: folders below another one, which they must not import (but for the files
 * listed third). The marketplace's verdict is lint's peer: lint reads its loader, and it takes
 * nothing of lint's but the finding types. The loader's folder takes nothing of the executor's or
 * of lint's.
 */
const BELOW = [
  ['src/core/schema/', 'src/core/lint/'],
  ['src/core/native/', 'src/core/lint/'],
  ['src/core/json-tree.ts', 'src/core/lint/'],
  ['src/core/glob.ts', 'src/core/lint/'],
  ['src/core/marketplace/', 'src/core/lint/', ['src/core/lint/types.ts']],
  // The loader (what the manager does at boot) knows nothing of running an entry or of lint.
  ['src/core/loader/', 'src/core/executor/'],
  ['src/core/loader/', 'src/core/lint/'],
  // What rules share knows no rule.
  ['src/core/lint/rule-kit/', 'src/core/lint/rules/'],
]

/**
 * Inside a layer: folders only their parent may import. A lint rule is a leaf of the registry:
 * what it shares with others (limits, texts, factories) lives in rule-kit/, lint's too.
 */
const PRIVATE = [
  ['src/core/lint/rules/', 'src/core/lint/'],
  ['src/core/lint/rule-kit/', 'src/core/lint/'],
]

/** Folders of leaves: a module there imports no other module of the same folder. */
const LEAVES = [
  ['src/core/lint/rules/', 'a rule imports another rule: what they share goes to src/core/lint/rule-kit/'],
]

function layerOf(file) {
  for (const [name, prefix] of LAYERS) if (file.startsWith(prefix)) return name
  return undefined
}

function sources(dir, out = []) {
  for (const e of readdirSync(join(root, dir), { withFileTypes: true })) {
    const p = `${dir}/${e.name}`
    if (e.isDirectory()) sources(p, out)
    else if (/\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts')) out.push(p)
  }
  return out
}

const IMPORT =
  /^\s*(?:import|export)\s[^'";]*?\bfrom\s*['"]([^'"]+)['"]|^\s*import\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/gm

/** The imports of a source file: [specifier, line, type only]. */
export function importsOf(text) {
  const found = []
  for (const m of text.matchAll(IMPORT)) {
    const line = text.slice(0, m.index).split('\n').length + (m[0].match(/^\s*/)[0].split('\n').length - 1)
    found.push([m[1] ?? m[2] ?? m[3], line, /^\s*(?:import|export)\s+type\s/.test(m[0])])
  }
  return found
}

/** Resolve a relative specifier to a src/ path (`.js` is the compiled name of a `.ts`/`.tsx`). */
function target(file, spec) {
  return relative(root, normalize(join(root, dirname(file), spec))).replace(/\.js$/, '.ts')
}

export function crossings(files, read) {
  files ??= sources('src')
  read ??= (f) => readFileSync(join(root, f), 'utf8')
  const problems = []
  for (const file of files) {
    const layer = layerOf(file)
    if (!layer) continue
    for (const [spec, line, typeOnly] of importsOf(read(file))) {
      const where = `${file}:${line}`
      if (!spec.startsWith('.')) {
        const forbidden = FORBIDDEN_PACKAGES[layer]
        if (forbidden?.test(spec)) problems.push(`${where}: ${layer} imports the package ${spec}`)
        continue
      }
      const to = target(file, spec)
      const toLayer = layerOf(to)
      const typesFrom = Object.entries(MAY_IMPORT_TYPES).find(([dir]) => file.startsWith(dir))?.[1] ?? []
      if (typeOnly && typesFrom.includes(toLayer)) continue
      if (toLayer === undefined || !MAY_IMPORT[layer].includes(toLayer)) {
        problems.push(`${where}: ${layer} imports ${to} (${toLayer ?? 'outside src'})`)
        continue
      }
      for (const [below, above, except = []] of BELOW)
        if (file.startsWith(below) && to.startsWith(above) && !except.includes(to))
          problems.push(`${where}: ${below} imports ${to}`)
      for (const [dir, why] of LEAVES)
        if (file.startsWith(dir) && to.startsWith(dir)) problems.push(`${where}: ${why} (${to})`)
      for (const [inner, parent] of PRIVATE)
        if (to.startsWith(inner) && !file.startsWith(parent))
          problems.push(`${where}: ${to} is imported from outside ${parent}`)
    }
  }
  return problems
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const problems = crossings()
  for (const p of problems) console.error(`layers: ${p}`)
  if (problems.length > 0) {
    console.error(`layers: ${problems.length} import(s) cross the layer table of ARCHITECTURE.md`)
    process.exit(1)
  }
}
