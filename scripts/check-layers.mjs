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
  ['cli/specs', 'src/cli/specs/'],
  ['cli/specs', 'src/cli/spec.ts'],
  ['core', 'src/core/'],
  ['cli', 'src/cli/'],
  ['lsp', 'src/lsp/'],
  ['mcp', 'src/mcp/'],
  ['ui', 'src/ui/'],
  ['commands', 'src/commands/'],
  ['hooks', 'src/hooks/'],
]

/** What each layer may import inside src/ (its own layer included). */
const MAY_IMPORT = {
  commands: ['commands', 'cli', 'cli/specs'],
  hooks: ['cli'],
  cli: ['cli', 'cli/specs', 'core', 'core/go', 'ui', 'lsp', 'mcp'],
  // A command's spec is data: help, flags, exit codes. Its list (index.ts) loads actions lazily.
  'cli/specs': ['cli/specs', 'cli', 'core', 'core/go', 'ui'],
  lsp: ['lsp', 'core', 'core/go', 'ui'],
  mcp: ['mcp', 'core', 'core/go', 'ui'],
  ui: ['ui', 'core', 'core/go'],
  core: ['core', 'core/go'],
  'core/go': ['core/go'],
}

/** Imports of types only (`import type`, erased when compiled) a layer may make besides. */
const MAY_IMPORT_TYPES = {}

/** Single files of another layer a folder may import besides: the language server bounds a message as MCP does. */
const MAY_IMPORT_FILES = { 'src/lsp/': ['src/mcp/frames.ts'] }

/** Packages a layer must not import (node: builtins are always allowed); the MCP SDK only in mcp. */
const NOT_BELOW_CLI = /^(@oclif\/|ink($|\/|-)|chalk($|\/)|react($|\/)|@modelcontextprotocol\/)/
const MCP_SDK = /^@modelcontextprotocol\//
const FORBIDDEN_PACKAGES = {
  commands: MCP_SDK,
  hooks: MCP_SDK,
  cli: MCP_SDK,
  ui: MCP_SDK,
  core: NOT_BELOW_CLI,
  lsp: NOT_BELOW_CLI,
  mcp: /^(@oclif\/|ink($|\/|-)|chalk($|\/)|react($|\/))/,
  'cli/specs': NOT_BELOW_CLI,
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
      const filesFrom = Object.entries(MAY_IMPORT_FILES).find(([dir]) => file.startsWith(dir))?.[1] ?? []
      if (filesFrom.includes(to)) continue
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

/**
 * Import circles whose files are in more than one folder, type-only imports included (a circle
 * the compiler sees is one a reader must follow). Each is a strongly connected component of the
 * import graph; those left are listed here, each by its files, so that no other appears and none
 * grows.
 */
const ALLOWED_CIRCLES = []

/** The import circles across folders not in `allowed`, each with its files and one way round it; and allowed ones gone. */
export function circles(files, read, allowed = ALLOWED_CIRCLES) {
  files ??= sources('src')
  read ??= (f) => readFileSync(join(root, f), 'utf8')
  const known = new Set(files)
  const graph = new Map(files.map((f) => [f, []]))
  for (const file of files)
    for (const [spec] of importsOf(read(file))) {
      if (!spec.startsWith('.')) continue
      let to = target(file, spec)
      if (!known.has(to) && known.has(`${to}x`)) to = `${to}x`
      if (known.has(to) && !graph.get(file).includes(to)) graph.get(file).push(to)
    }
  // Tarjan's strongly connected components, iterative (no recursion limit on a long chain).
  const index = new Map()
  const low = new Map()
  const stack = []
  const onStack = new Set()
  const components = []
  let next = 0
  for (const start of files) {
    if (index.has(start)) continue
    const work = [[start, 0]]
    index.set(start, next)
    low.set(start, next++)
    stack.push(start)
    onStack.add(start)
    while (work.length > 0) {
      const top = work[work.length - 1]
      const [v, i] = top
      const edges = graph.get(v)
      if (i < edges.length) {
        top[1]++
        const w = edges[i]
        if (!index.has(w)) {
          index.set(w, next)
          low.set(w, next++)
          stack.push(w)
          onStack.add(w)
          work.push([w, 0])
        } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)))
        continue
      }
      work.pop()
      if (work.length > 0) {
        const parent = work[work.length - 1][0]
        low.set(parent, Math.min(low.get(parent), low.get(v)))
      }
      if (low.get(v) === index.get(v)) {
        const c = []
        let w
        do {
          w = stack.pop()
          onStack.delete(w)
          c.push(w)
        } while (w !== v)
        if (c.length > 1) components.push(c.sort())
      }
    }
  }
  const key = (c) => [...c].sort().join(' ')
  const allowedKeys = new Set(allowed.map(key))
  const problems = []
  const found = new Set()
  for (const c of components) {
    if (new Set(c.map((f) => dirname(f))).size < 2) continue
    found.add(key(c))
    if (allowedKeys.has(key(c))) continue
    // One way round: from the first file, the shortest path back to it inside the component.
    const inside = new Set(c)
    const from = new Map([[c[0], null]])
    const queue = [c[0]]
    let back = null
    while (queue.length > 0 && back === null) {
      const v = queue.shift()
      for (const w of graph.get(v)) {
        if (w === c[0]) {
          back = v
          break
        }
        if (inside.has(w) && !from.has(w)) {
          from.set(w, v)
          queue.push(w)
        }
      }
    }
    const path = [c[0]]
    for (let v = back; v !== null && v !== c[0]; v = from.get(v)) path.splice(1, 0, v)
    path.push(c[0])
    problems.push(`import circle across folders: ${c.join(', ')} (${path.join(' → ')})`)
  }
  for (const c of allowed)
    if (!found.has(key(c)))
      problems.push(
        `the allowed import circle ${key(c).replaceAll(' ', ', ')} is gone: remove it from ALLOWED_CIRCLES`,
      )
  return problems
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const problems = [...crossings(), ...circles()]
  for (const p of problems) console.error(`layers: ${p}`)
  if (problems.length > 0) {
    console.error(
      `layers: ${problems.length} import(s) cross the layer table of ARCHITECTURE.md or close a circle across folders`,
    )
    process.exit(1)
  }
}
