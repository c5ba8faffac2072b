#!/usr/bin/env node
// npm's `prepare` (npm install in a checkout, npm pack, a git dependency): `npm run build`, unless
// the last build made here had the same inputs: `npm install` then `npm pack` in a checkout run
// `prepare` twice, and the second build, a minute on a loaded machine, would remake the same dist/.
// The published package.json has no scripts (scripts/release.mjs).
//
// The inputs: every file under src/, the build's scripts and configs, package.json and the lock
// (the versions bundled into dist/vendor/), and this Node's version (the code caches are its V8's).
// Their SHA-256 is kept in .build-stamp/inputs after a build that succeeded; a build run any
// other way (`npm run build`) leaves no stamp, so the next `prepare` builds.
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const STAMP = join(ROOT, '.build-stamp', 'inputs')
const FILES = [
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'scripts/bundle.mjs',
  'scripts/vendor.mjs',
  'scripts/licenses.mjs',
  'scripts/prepare.mjs',
]

function inputsHash() {
  const h = createHash('sha256').update(`node ${process.version}\0`)
  const add = (rel) =>
    h
      .update(`${rel}\0`)
      .update(readFileSync(join(ROOT, rel)))
      .update('\0')
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = join(dir, e.name)
      if (e.isDirectory()) walk(p)
      else if (e.isFile()) add(relative(ROOT, p))
    }
  }
  for (const f of FILES) add(f)
  walk(join(ROOT, 'src'))
  return h.digest('hex')
}

const want = inputsHash()
const built = ['dist/bundle/fast.js', 'dist/vendor/ink.js', 'oclif.manifest.json'].every((f) =>
  existsSync(join(ROOT, f)),
)
if (built && existsSync(STAMP) && readFileSync(STAMP, 'utf8').trim() === want) {
  process.stderr.write('prepare: dist/ was built from these same inputs; not rebuilt\n')
  process.exit(0)
}
rmSync(STAMP, { force: true })
const npm = process.env.npm_execpath
const r = npm
  ? spawnSync(process.execPath, [npm, 'run', 'build'], { cwd: ROOT, stdio: 'inherit' })
  : spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' })
if (r.status !== 0) process.exit(r.status ?? 1)
mkdirSync(dirname(STAMP), { recursive: true })
writeFileSync(STAMP, `${want}\n`)
