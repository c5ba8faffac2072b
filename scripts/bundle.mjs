#!/usr/bin/env node
// The cold-start bundle, the last step of `npm run build`.
//
// bin/run.js offers plain invocations to the fast path (dist/cli/fast.js). Loading it as ~40 ES
// modules costs Node's ESM loader more than the work of a small command, so this script bundles the
// compiled fast path (dist/, not src/: exactly what tsc emitted) into one script and writes V8's code
// cache for it:
//
//   dist/bundle/fast.js     a function expression
//                             (exports, require, module, __filename, __dirname, __ongrid_import, __ongrid_meta_url) => void
//                           that leaves tryFast on exports. npm packages stay outside it, reached through
//                           `require` and `__ongrid_import` (the launcher's own import(); a relative
//                           specifier is relative to the bundle), and so do the few modules of LEFT_OUT.
//   dist/bundle/fast.cache  V8's code cache for that script, made by this Node after the commands of
//                           the bundle's `exercise` ran from it (scripts/bundle-cache.mjs).
//   dist/bundle/fast-lint.js, .cache
//                           the same with only lint's and validate's action inside (BUNDLES, below).
//   dist/bundle/fast-manifest.json
//                           oclif.manifest.json without its help texts, for the fast path's parser.
//
// bin/run.js compiles the first with the second (vm.Script cachedData); a cache V8 rejects (another
// Node, other V8 flags) only costs the compile it would have saved.
// On Node 22 and later bin/run.js uses a cache of its own instead, made after each command's
// first run (keyed by the content hash on the bundle's first line), and this one until it is made.
// Without the bundle, bin/run.js imports dist/cli/fast.js as modules.

import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { setFlagsFromString } from 'node:v8'
import { Script } from 'node:vm'
import { build, transform } from 'esbuild'
import { packagesOf, writeLicenses } from './licenses.mjs'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')

// The code caches made below are read by the node bin/run.js starts, with the V8 flags of its sh
// line (`exec node FLAGS "$0"`), and V8 (Node 22's) rejects a cache made under other flags: they
// are made under the same ones, read from there.
const LAUNCHER_FLAGS = (() => {
  const m = /\bexec node ((?:--[a-z-]+(?:=\S+)? )*)"\$0"/.exec(
    readFileSync(join(ROOT, 'bin', 'run.js'), 'utf8'),
  )
  if (m === null) throw new Error('bundle: no `exec node FLAGS "$0"` in bin/run.js')
  return m[1].trim().split(' ').filter(Boolean)
})()
setFlagsFromString(LAUNCHER_FLAGS.join(' '))
const OUT = join(ROOT, 'dist', 'bundle')

const PARAMS = 'exports, require, module, __filename, __dirname, __ongrid_import, __ongrid_meta_url'

/**
 * Compiled modules left out of the bundle and imported from dist/ when needed: those that import
 * ESM-only packages statically (ink), which `require` cannot load on every Node 20.
 */
const LEFT_OUT = new Set(['ui/run-view.js', 'ui/test/live.js', 'mcp/sdk.js', 'mcp/sdk-http.js'])

/**
 * Imports of LEFT_OUT modules, and of the npm packages bundled into dist/vendor/ (scripts/vendor.mjs),
 * become imports relative to the bundle (dist/bundle/ → dist/).
 */
const leaveOut = {
  name: 'leave-out',
  setup(b) {
    b.onResolve({ filter: /^\./ }, (args) => {
      const rel = relative(join(ROOT, 'dist'), join(args.resolveDir, args.path)).split(sep).join('/')
      return LEFT_OUT.has(rel) || rel.startsWith('vendor/')
        ? { path: `../${rel}`, external: true }
        : undefined
    })
  },
}

/**
 * The bundles: `fast` holds the whole fast path; the others the same fast path with only some
 * commands' actions inside (the rest imported from dist/ if ever reached), for commands whose cold
 * start is measured against bare node (docs/bench.md): the launcher loads the smallest that holds
 * the command (bin/run.js, BUNDLE_OF). A bundle half the size is half the code V8 reads and
 * deserializes at each start.
 */
const BUNDLES = [
  { name: 'fast', actions: null, exercise: [['load-dirs', 'examples/skills']] },
  {
    name: 'fast-lint',
    actions: ['lint.js'],
    exercise: [
      ['lint', 'examples/skills'],
      ['validate', 'examples/skills'],
      ['lint', '--format', 'json', 'examples/skills'],
    ],
  },
]

/** Where the fast path's actions are imported, each lazily (FAST_ACTIONS). */
const ACTION_LIST = join(ROOT, 'dist', 'cli', 'specs', 'index.js')

/** Imports of the fast path's actions other than `keep` (cli/specs/index.ts, FAST_ACTIONS) stay outside the bundle. */
function actionsOutside(outside) {
  return {
    name: 'actions-outside',
    setup(b) {
      b.onResolve({ filter: /^\.\.\/actions\/[a-z-]+\.js$/ }, (args) => {
        if (args.importer !== ACTION_LIST) return undefined
        const file = args.path.slice('../actions/'.length)
        return outside.has(file) ? { path: `../cli/actions/${file}`, external: true } : undefined
      })
    },
  }
}

/** One bundle's code, without its first line. */
async function bundleCode(keep) {
  const listSource = readFileSync(ACTION_LIST, 'utf8')
  const all = new Set(
    [...listSource.matchAll(/import\(['"]\.\.\/actions\/([a-z-]+\.js)['"]\)/g)].map((m) => m[1]),
  )
  const outside = new Set(keep === null ? [] : [...all].filter((f) => !keep.includes(f)))
  for (const f of keep ?? [])
    if (!all.has(f)) throw new Error(`bundle: cli/specs/index.ts imports no action ${f}`)
  const result = await build({
    entryPoints: [join(ROOT, 'dist', 'cli', 'fast.js')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    packages: 'external',
    define: { 'import.meta.url': '__ongrid_meta_url' },
    banner: { js: `(function (${PARAMS}) {` },
    footer: { js: '})' },
    plugins: [leaveOut, actionsOutside(outside)],
    write: false,
    logLevel: 'warning',
  })
  let code = result.outputFiles[0].text

  // Modules the bundle starts as threads stay in dist/: their URLs are relative to the bundle.
  for (const [from, to] of [
    ['./loader-worker.js', '../core/loader/loader-worker.js'],
    ['./check-worker.js', '../core/schema/check-worker.js'],
    ['./filter-worker.js', '../core/testcases/filter-worker.js'],
  ]) {
    const at = `new URL(${JSON.stringify(from)}, __ongrid_meta_url)`
    const n = code.split(at).length - 1
    // The whole fast path starts each once; a bundle of some commands, those they start.
    if (n > 1 || (n === 0 && outside.size === 0)) throw new Error(`bundle: expected ${at} exactly once`)
    code = code.replace(at, `new URL(${JSON.stringify(to)}, __ongrid_meta_url)`)
  }
  const stray = code
    .match(/new URL\(["'][^"']*["'], __ongrid_meta_url\)/g)
    ?.filter((u) => !u.includes('"../'))
  if (stray?.length)
    throw new Error(`bundle: a URL relative to a module that is not in dist/bundle/: ${stray[0]}`)

  // Builtins that cost at start and that only some runs use, loaded at their first use: node:child_process
  // brings node:net, node:stream and node:dgram (4-5 ms), and a lint that spawns nothing (no shell entry for
  // ShellCheck) or a validate never needs it. Each import of one is a namespace whose members are read as
  // `ns.member` (esbuild's named imports): the namespace becomes a proxy that requires the module then.
  const LAZY_BUILTINS = ['node:child_process']
  for (const id of LAZY_BUILTINS) {
    const at = new RegExp(`\\b(import_[A-Za-z0-9_$]+)\\s*=\\s*require\\(${JSON.stringify(id)}\\)`, 'g')
    const names = [...code.matchAll(at)].map((m) => m[1])
    // None at all: nothing here loads it at start (entry-shellcheck.ts gets it at its first spawn).
    if (names.length === 0 && !code.includes(`require(${JSON.stringify(id)})`)) continue
    if (code.split(`require(${JSON.stringify(id)})`).length !== names.length + 1)
      throw new Error(`bundle: ${id} is required otherwise than as an import namespace`)
    for (const name of names) {
      const uses =
        code.match(new RegExp(`(?<![A-Za-z0-9_$])${name.replaceAll('$', '\\$')}(?![A-Za-z0-9_$])(.)`, 'g')) ??
        []
      // Declared (`var a, name, b;` or `name =`) or a member read (`name.x`), nothing else.
      const other = uses.filter((u) => !/[.,;=\s]$/.test(u))
      if (other.length > 0)
        throw new Error(`bundle: ${name} (${id}) is used otherwise than by member: ${other[0]}`)
    }
    code = code.replace(at, (_, name) => `${name}=__ongrid_lazy(${JSON.stringify(id)})`)
  }
  code = code.replace(
    `(function (${PARAMS}) {`,
    `(function (${PARAMS}) {\nvar __ongrid_lazy = (id) => { let m; return new Proxy({}, { get: (_, k) => (m ??= require(id))[k] }) };`,
  )

  // A vm.Script has no module loader of its own: import() of a package goes through the launcher's.
  code = code.replace(/\bimport\((?=["'])/g, '__ongrid_import(')
  const left = code.match(/\bimport\s*\(/)
  if (left) {
    const at = code.slice(Math.max(0, left.index - 60), left.index + 60)
    throw new Error(`bundle: an import() the launcher cannot serve is left in the bundle: …${at}…`)
  }

  // Without comments and layout, and in ASCII only: every start reads the bundle, and V8 keeps a
  // source with one character beyond ASCII (a comment's '≥' was enough) as two bytes per character,
  // decoded from UTF-8 each time (3.5 ms vs 1.2 ms to read it here). esbuild writes strings,
  // regexps and names as ASCII escapes already; minifying the whitespace drops the comments. Names
  // stay as they are (error names, stack frames).
  code = (await transform(code, { loader: 'js', minifyWhitespace: true, charset: 'ascii' })).code
  const wide = /[^\x00-\x7f]/.exec(code)
  if (wide)
    throw new Error(
      `bundle: a character beyond ASCII is left: …${code.slice(Math.max(0, wide.index - 60), wide.index + 20)}…`,
    )

  return code
}

const codes = []
for (const b of BUNDLES) codes.push(await bundleCode(b.actions))
// The first line names the bundles by their content: bin/run.js keys the code caches it makes after a
// command ran by that name (and the command, which runs from one bundle only), so a cache is only
// ever offered to the source it was made from (V8 itself checks little more than the source's length).
const hash = createHash('sha256')
for (const code of codes) hash.update(code).update('\0')
const line = `// ongrid-skill bundle ${hash.digest('hex').slice(0, 16)}\n`

mkdirSync(OUT, { recursive: true })
for (const [i, b] of BUNDLES.entries()) writeFileSync(join(OUT, `${b.name}.js`), line + codes[i])

// oclif.manifest.json without the texts of help (descriptions, examples…), which the fast path
// never reads: what bin/run.js gives it to parse the command line with (134 KB → 21 KB).
const HELP_TEXT = new Set([
  'description',
  'summary',
  'examples',
  'usage',
  'helpGroup',
  'helpValue',
  'helpLabel',
  'hasDynamicHelp',
  'pluginAlias',
  'pluginName',
  'pluginType',
  'relativePath',
  'isESM',
])
const withoutHelp = (o) => Object.fromEntries(Object.entries(o).filter(([k]) => !HELP_TEXT.has(k)))
const full = JSON.parse(readFileSync(join(ROOT, 'oclif.manifest.json'), 'utf8'))
const commands = Object.fromEntries(
  Object.entries(full.commands).map(([id, c]) => [
    id,
    {
      ...withoutHelp(c),
      args: Object.fromEntries(Object.entries(c.args).map(([k, a]) => [k, withoutHelp(a)])),
      flags: Object.fromEntries(Object.entries(c.flags).map(([k, f]) => [k, withoutHelp(f)])),
    },
  ]),
)
writeFileSync(join(OUT, 'fast-manifest.json'), JSON.stringify({ version: full.version, commands }))

// Each bundle's code cache, made after its `exercise` ran from it (scripts/bundle-cache.mjs), in a
// node of the flags bin/run.js gives, with caches of its own (ShellCheck's) in a dir of its own.
const scratch = mkdtempSync(join(tmpdir(), 'ongrid-bundle-cache-'))
try {
  for (const b of BUNDLES) {
    const r = spawnSync(
      process.execPath,
      [
        ...LAUNCHER_FLAGS,
        join(ROOT, 'scripts', 'bundle-cache.mjs'),
        join(OUT, `${b.name}.js`),
        join(OUT, `${b.name}.cache`),
        join(OUT, 'fast-manifest.json'),
        JSON.stringify(b.exercise),
      ],
      {
        cwd: ROOT,
        env: { ...process.env, XDG_CACHE_HOME: scratch, NO_COLOR: '1', NODE_OPTIONS: '' },
        stdio: ['ignore', 'ignore', 'pipe'],
        encoding: 'utf8',
      },
    )
    if (r.status !== 0)
      throw new Error(`bundle: the code cache of ${b.name}.js: ${r.error?.message ?? r.stderr}`)
  }
} finally {
  rmSync(scratch, { recursive: true, force: true })
}

// core/user-dirs.ts on its own, as CommonJS: bin/run.js checks the dir of Node's compile cache
// with it before the bundle loads, and the single executable its unpack dir (scripts/sea/).
await build({
  entryPoints: [join(ROOT, 'dist', 'core', 'user-dirs.js')],
  outfile: join(OUT, 'user-dirs.cjs'),
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  logLevel: 'warning',
})

// The MCP SDK surfaces of `mcp` (dist/mcp/sdk.js; dist/mcp/sdk-http.js, Streamable HTTP for
// --http), packages and all, as function expressions `(exports, require, module, __filename,
// __dirname) => void` with their code caches (made after a run, so the functions that run at load
// are in them). mcp/sdk-load.ts loads them; without them, the same modules are imported from
// dist/mcp/ as ES modules. The SDK is a devDependency: the package ships it only here.
const inlined = new Map()
for (const [name, source, exported] of [
  ['mcp-sdk', 'sdk.js', 'Server'],
  ['mcp-http', 'sdk-http.js', 'StreamableHTTPServerTransport'],
]) {
  const file = join(OUT, `${name}.js`)
  const sdk = await build({
    entryPoints: [join(ROOT, 'dist', 'mcp', source)],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    banner: { js: '(function (exports, require, module, __filename, __dirname) {' },
    footer: { js: '})' },
    metafile: true,
    write: false,
    logLevel: 'warning',
  })
  packagesOf(sdk.metafile, `${name}.js`, inlined)
  writeFileSync(file, sdk.outputFiles[0].text)
  const sdkScript = new Script(readFileSync(file, 'utf8'), { filename: file })
  const sdkModule = { exports: {} }
  sdkScript.runInThisContext()(sdkModule.exports, createRequire(file), sdkModule, file, OUT)
  if (typeof sdkModule.exports[exported] !== 'function')
    throw new Error(`bundle: ${name}.js exports no ${exported}`)
  writeFileSync(join(OUT, `${name}.cache`), sdkScript.createCachedData())
}

writeLicenses(
  join(OUT, 'THIRD-PARTY-LICENSES.txt'),
  'The npm packages bundled into dist/bundle/mcp-*.js and their licenses.',
  inlined,
)
