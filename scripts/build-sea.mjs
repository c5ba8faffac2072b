#!/usr/bin/env node
// `npm run build:sea`: ongrid-skill-linux-x64, one file for hosts without Node (Node's single
// executable applications). After `npm run build`:
//   1. the package as npm installs it: `npm pack`, then `npm install -g` into a temp prefix
//      (runtime dependencies only, nothing built);
//   2. that tree packed into one asset (a JSON index with each file's SHA-256, then the files'
//      bytes) with its hash, and where the files every start runs (BOOT) are in it;
//   3. a SEA blob of scripts/sea/main.cjs, bundled with unpack.cjs (with its V8 code cache), and
//      those assets, made by the Node 24 binary, injected with postject into a copy of it.
// The Node binary: ONGRID_SEA_NODE, else the official Node 24 that .ci/node-line.sh fetches.
// Writes ./ongrid-skill-linux-x64 (or the path given as the first argument).
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import {
  chmodSync,
  copyFileSync,
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
/**
 * The files every start runs (or reads as code) before anything else: scripts/sea/unpack.cjs
 * compares them with the payload's bytes at each start, the rest of the package with its digests
 * when it unpacks it.
 */
const BOOT = [
  'package.json',
  'bin/package.json',
  'bin/run.js',
  'dist/bundle/user-dirs.cjs',
  'dist/bundle/fast.js',
  'dist/bundle/fast.cache',
  'dist/bundle/fast-lint.js',
  'dist/bundle/fast-lint.cache',
]
const OUT = process.argv[2] ?? join(ROOT, 'ongrid-skill-linux-x64')
const log = (s) => process.stderr.write(`build:sea: ${s}\n`)

const node =
  process.env.ONGRID_SEA_NODE ||
  join(execFileSync(join(ROOT, '.ci/node-line.sh'), ['24'], { encoding: 'utf8' }).trim(), 'node')
const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim()
log(`node ${version} (${node})`)

const tmp = mkdtempSync(join(tmpdir(), 'ongrid-sea-'))
try {
  const env = { ...process.env, PATH: `${dirname(node)}:${process.env.PATH}` }
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', tmp], {
      cwd: ROOT,
      env,
      encoding: 'utf8',
    }),
  )[0]
  const prefix = join(tmp, 'prefix')
  execFileSync(
    'npm',
    [
      'install',
      '-g',
      '--prefix',
      prefix,
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      join(tmp, packed.filename),
    ],
    { cwd: tmp, env, stdio: ['ignore', 'ignore', 'inherit'] },
  )
  const pkg = join(prefix, 'lib', 'node_modules', packed.name)

  // The installed tree: regular files only (node_modules/.bin holds links, which no code needs),
  // less what never runs: type declarations, source maps and docs of dependencies. (recheck, with
  // its optional native and Java backends, is no longer installed: dist/vendor/ has its JavaScript.)
  const index = []
  const chunks = []
  const boot = {}
  const dropped = (rel, name, dir) =>
    rel.startsWith('node_modules/') &&
    ((dir && name === '.bin') || (!dir && /\.(d\.[cm]?ts|map|md|markdown)$/i.test(name)))
  const walk = (dir) => {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name)
      const st = lstatSync(p)
      if (dropped(relative(pkg, p), name, st.isDirectory())) continue
      if (st.isDirectory()) {
        walk(p)
      } else if (st.isFile()) {
        const data = readFileSync(p)
        const digest = createHash('sha256').update(data).digest('hex')
        const rel = relative(pkg, p)
        index.push([rel, st.mode & 0o777, data.length, digest])
        chunks.push(data)
        if (BOOT.includes(rel)) boot[rel] = data
      }
    }
  }
  walk(pkg)
  const lacking = BOOT.filter((rel) => boot[rel] === undefined)
  if (lacking.length > 0) throw new Error(`build:sea: the package has no ${lacking.join(', ')}`)
  const head = Buffer.from(JSON.stringify(index))
  const length = Buffer.alloc(4)
  length.writeUInt32LE(head.length)
  const payload = Buffer.concat([length, head, ...chunks])
  // Where each boot file's bytes are in the payload: [offset, size].
  let at = 4 + head.length
  const bootAt = {}
  for (const [i, [rel, , size]] of index.entries()) {
    if (boot[rel] !== undefined) bootAt[rel] = [at, size]
    at += chunks[i].length
  }
  const hash = createHash('sha256').update(payload).update(version).digest('hex').slice(0, 16)
  writeFileSync(join(tmp, 'payload.bin'), payload)
  writeFileSync(join(tmp, 'hash.txt'), hash)
  writeFileSync(join(tmp, 'boot.json'), JSON.stringify(bootAt))
  log(`${index.length} files, ${(payload.length / 1e6).toFixed(1)} MB, ${hash}`)

  // The main script and what it requires (unpack.cjs, dist/bundle/user-dirs.cjs) as one file.
  const main = join(tmp, 'main.cjs')
  await build({
    entryPoints: [join(ROOT, 'scripts', 'sea', 'main.cjs')],
    outfile: main,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node22',
    logLevel: 'warning',
  })
  const config = join(tmp, 'sea-config.json')
  writeFileSync(
    config,
    JSON.stringify({
      main,
      output: join(tmp, 'sea.blob'),
      disableExperimentalSEAWarning: true,
      useCodeCache: true,
      assets: {
        payload: join(tmp, 'payload.bin'),
        hash: join(tmp, 'hash.txt'),
        boot: join(tmp, 'boot.json'),
      },
    }),
  )
  execFileSync(node, ['--experimental-sea-config', config], {
    cwd: tmp,
    stdio: ['ignore', 'ignore', 'inherit'],
  })

  rmSync(OUT, { force: true })
  copyFileSync(node, OUT)
  const { inject } = createRequire(import.meta.url)('postject')
  await inject(OUT, 'NODE_SEA_BLOB', readFileSync(join(tmp, 'sea.blob')), {
    sentinelFuse: 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2',
  })
  chmodSync(OUT, 0o755)
  log(`wrote ${relative(process.cwd(), OUT) || OUT} (${(lstatSync(OUT).size / 1e6).toFixed(1)} MB)`)
} finally {
  rmSync(tmp, { recursive: true, force: true })
}
