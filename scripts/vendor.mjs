#!/usr/bin/env node
// npm packages bundled into the build (after tsc, before scripts/bundle.mjs), so the npm package
// does not depend on them: each would bring many packages, files or megabytes that npm installs and
// no command runs (the installed-size and install-time budgets, docs/decisions.md).
//
//   dist/vendor/<name>.js   one ES module per package of VENDORED, its dependencies inlined except
//                           `external` (react stays a dependency: ui/ and ink share one); dist's
//                           imports of the package (`from 'ink'`, `import('tar-stream')`) are
//                           rewritten to it.
//   dist/vendor/recheck.cjs recheck's JavaScript (the pure sync backend fixed), which
//                           core/lint/rules/schema-redos-pattern.ts loads; as a dependency, npm
//                           would install its optional native and Java backends (53 MB).
//   dist/vendor/THIRD-PARTY-LICENSES.txt  the license of every package inlined.
//
// The packages are devDependencies: tests (build/) and a tree that was not built use them from
// node_modules.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, relative, sep } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { build } from 'esbuild'
import { packagesOf, writeLicenses } from './licenses.mjs'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const DIST = join(ROOT, 'dist')
const OUT = join(DIST, 'vendor')
const require = createRequire(join(ROOT, 'package.json'))

/** name → packages left outside its bundle (resolved from node_modules at run time). */
const VENDORED = {
  ink: ['react'],
  'tar-stream': [],
  mysql2: [],
  openai: [],
}

/**
 * ink's React DevTools hook (`DEV=true`: `await import('./devtools.js')`, which needs
 * react-devtools-core, not a dependency) stays an import that is not found, as when ink is
 * installed: ink then prints how to install react-devtools-core and goes on.
 */
const noDevtools = {
  name: 'no-devtools',
  setup(b) {
    b.onResolve({ filter: /^\.\/devtools\.js$/ }, (args) =>
      args.importer.includes(`${sep}ink${sep}`) ? { path: './devtools.js', external: true } : undefined,
    )
  },
}

rmSync(OUT, { recursive: true, force: true })
mkdirSync(OUT, { recursive: true })
const inlined = new Map()

for (const [name, external] of Object.entries(VENDORED)) {
  // A CommonJS package's exports are named here: an ES module bundled from it would export only
  // `default`, and dist imports names (`const { pack } = await import('tar-stream')`).
  const mod = await import(name)
  const names = Object.keys(mod).filter((k) => k !== 'default' && /^[A-Za-z_$][\w$]*$/.test(k))
  const entry = `import * as m from ${JSON.stringify(name)}\nexport const { ${names.join(', ')} } = m\nexport default m.default\n`
  const file = join(OUT, `${name}.js`)
  const r = await build({
    stdin: { contents: entry, resolveDir: ROOT, sourcefile: `vendor-${name}.js` },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external,
    plugins: [noDevtools],
    // CommonJS inside an ES module: its require() of node: modules and of `external`.
    banner: {
      js: "import { createRequire as __vendorRequire } from 'node:module'; const require = __vendorRequire(import.meta.url);",
    },
    metafile: true,
    outfile: file,
    logLevel: 'error',
  })
  packagesOf(r.metafile, `${name}.js`, inlined)
  const got = await import(pathToFileURL(file).href)
  for (const k of names) if (got[k] === undefined) throw new Error(`vendor: ${name}.js lost the export ${k}`)
}

const RECHECK = join(OUT, 'recheck.cjs')
const recheck = await build({
  entryPoints: [require.resolve('recheck')],
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  define: { 'process.env.RECHECK_SYNC_BACKEND': '"pure"' },
  metafile: true,
  outfile: RECHECK,
  logLevel: 'error',
})
packagesOf(recheck.metafile, 'recheck.cjs', inlined)
if (createRequire(RECHECK)(RECHECK).checkSync('^(a+)+$', 'u', { timeout: 2000 }).status !== 'vulnerable')
  throw new Error('vendor: recheck.cjs does not find ^(a+)+$ vulnerable')

writeLicenses(
  join(OUT, 'THIRD-PARTY-LICENSES.txt'),
  'The npm packages bundled into dist/vendor/ and their licenses.',
  inlined,
)

// dist's imports of the vendored packages, made relative. tsc writes each import as written in
// src/ (one specifier in quotes); any import of one of them left afterwards fails the build.
const spec = new RegExp(
  `(\\bfrom\\s*|\\bimport\\s*\\(\\s*)(['"])(${Object.keys(VENDORED).join('|')})\\2`,
  'g',
)
const walk = (dir) => {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name)
    if (e.isDirectory()) {
      if (p !== OUT) walk(p)
    } else if (e.name.endsWith('.js')) {
      const code = readFileSync(p, 'utf8')
      const to = (n) => {
        const rel = relative(dirname(p), join(OUT, `${n}.js`))
          .split(sep)
          .join('/')
        return rel.startsWith('.') ? rel : `./${rel}`
      }
      const out = code.replace(spec, (_, lead, q, n) => `${lead}${q}${to(n)}${q}`)
      if (out !== code) writeFileSync(p, out)
      const left = /\b(?:from|import)\s*\(?\s*['"](ink|tar-stream|mysql2)(?:\/[^'"]*)?['"]/.exec(out)
      if (left) throw new Error(`vendor: ${relative(ROOT, p)} still imports ${left[1]}`)
    }
  }
}
walk(DIST)
