#!/usr/bin/env node
// `npm run release`: one version everywhere, then what a release publishes.
//
//   node scripts/release.mjs --check      every place that names the version agrees (exit 1 and
//                                         one line per disagreement when not)
//   node scripts/release.mjs [--no-sea] [--no-build] [--no-git] [--date YYYY-MM-DD] [--out DIR]
//                                         the release, into DIR (release/ by default):
//     1. the check;
//     2. CHANGELOG.md: "## X.Y.Z (unreleased)" becomes "## X.Y.Z (DATE)" (today, UTC), committed
//        alone (`--no-git`: written, not committed);
//     3. `npm run build` (`--no-build`: the dist/ there is);
//     4. ongrid-skill-X.Y.Z.tgz, the npm package, its package.json without scripts or dev-only
//        fields (an install script would make npm 11 warn on every install, and scripts/ is not
//        shipped);
//     5. ongrid-skill-linux-x64, the single executable (`--no-sea`: left out);
//     6. SHA256SUMS of the files of 4 and 5, in sha256sum's format;
//     7. ref/: the tree the release's git tag points at — the package as npm installs it (runtime
//        node_modules included) with .pre-commit-hooks.yaml, bin/pre-commit-hook, action.yml and
//        action/ — so pre-commit and the Action run it as it is, with no install step; committed
//        (its parent the commit of step 2) and tagged vX.Y.Z and vMAJOR (moved), for
//        `git push origin vX.Y.Z && git push -f origin vMAJOR` (`--no-git`: the tree only).
//   node scripts/release.mjs --ref DIR   step 7's tree only, from the dist/ there is (tests, bench)
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const log = (s) => process.stderr.write(`release: ${s}\n`)
const die = (s) => {
  process.stderr.write(`release: ${s}\n`)
  process.exit(1)
}
const read = (rel) => readFileSync(join(ROOT, rel), 'utf8')

/** Fields of package.json the published package keeps (the rest serve development only). */
const PUBLISHED_FIELDS = [
  'name',
  'version',
  'description',
  'type',
  'license',
  'ongridManagerRelease',
  'repository',
  'homepage',
  'bugs',
  'bin',
  'exports',
  'files',
  'engines',
  'os',
  'oclif',
  'dependencies',
]

/** The files beside the package in the release's tree (ref/): the hooks' and the Action's. */
const REF_EXTRA = ['.pre-commit-hooks.yaml', 'bin/pre-commit-hook', 'action.yml', 'action']

/** [place, what it says] for every place that names this release's version. */
export function versionPlaces() {
  const places = []
  const pkg = JSON.parse(read('package.json'))
  places.push(['package.json "version"', pkg.version])
  const lock = JSON.parse(read('package-lock.json'))
  places.push(['package-lock.json "version"', lock.version])
  places.push(['package-lock.json packages[""].version', lock.packages?.['']?.version])
  const v = spawnSync(process.execPath, [join(ROOT, 'bin', 'run.js'), '--version'], { encoding: 'utf8' })
  places.push(['ongrid-skill --version', /^ongrid-skill\/(\S+) /.exec(v.stdout)?.[1]])
  const head = /^## (\S+) \((unreleased|\d{4}-\d{2}-\d{2})\)$/m.exec(read('CHANGELOG.md'))
  places.push(['CHANGELOG.md, its first release heading', head?.[1]])
  const readme = read('README.md')
  const revs = [...readme.matchAll(/repo: https:\/\/github\.com\/ongridio\/ongrid-skill\s+rev: v(\S+)/g)]
  if (revs.length === 0) places.push(['README.md, the pre-commit rev', undefined])
  for (const m of revs) places.push(['README.md, the pre-commit rev', m[1]])
  const refs = [...readme.matchAll(/uses: ongridio\/ongrid-skill@v(\S+)/g)]
  if (refs.length === 0) places.push(['README.md, the Action ref (vMAJOR)', undefined])
  // The Action is pinned by its major tag, which each release moves.
  for (const m of refs) places.push(['README.md, the Action ref (vMAJOR)', m[1], majorOf(pkg.version)])
  const ext = JSON.parse(read('editors/vscode/package.json'))
  places.push(['editors/vscode/package.json "version"', ext.version])
  return places
}

const majorOf = (v) => String(v).split('.')[0]

/** The disagreements with package.json's version: one line each. */
export function disagreements() {
  const places = versionPlaces()
  const want = places[0][1]
  const out = []
  if (!/^\d+\.\d+\.\d+$/.test(String(want))) out.push(`package.json "version" is not X.Y.Z: ${want}`)
  for (const [place, says, expected = want] of places.slice(1)) {
    if (says !== expected) out.push(`${place} says ${says ?? 'nothing'}, not ${expected}`)
  }
  return out
}

/** The published package.json: package.json with PUBLISHED_FIELDS only. */
function publishedPackageJson(pkg) {
  const out = {}
  for (const k of PUBLISHED_FIELDS) if (pkg[k] !== undefined) out[k] = pkg[k]
  return out
}

const run = (cmd, args, opts = {}) => {
  const r = spawnSync(cmd, args, { encoding: 'utf8', ...opts })
  if (r.status !== 0)
    die(`${cmd} ${args.join(' ')}: ${(r.stderr || r.stdout || '').trim().split('\n').pop()}`)
  return r.stdout
}

/** The npm package into `dir`, from the dist/ there is; its path. */
function packTo(dir) {
  const tmp = mkdtempSync(join(tmpdir(), 'ongrid-release-'))
  try {
    const first = JSON.parse(
      run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', tmp], { cwd: ROOT }),
    )[0]
    run('tar', ['-xzf', join(tmp, first.filename), '-C', tmp])
    const stage = join(tmp, 'package')
    const pkg = JSON.parse(readFileSync(join(stage, 'package.json'), 'utf8'))
    writeFileSync(join(stage, 'package.json'), `${JSON.stringify(publishedPackageJson(pkg), null, 2)}\n`)
    mkdirSync(dir, { recursive: true })
    const packed = JSON.parse(
      run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], { cwd: stage }),
    )[0]
    return join(dir, packed.filename)
  } finally {
    rmSync(tmp, { recursive: true, force: true })
  }
}

/** The release's tree into `ref` (emptied first), from the package tarball `tgz`. */
function refTree(tgz, ref) {
  const tmp = mkdtempSync(join(tmpdir(), 'ongrid-release-'))
  try {
    const prefix = join(tmp, 'prefix')
    run(
      'npm',
      [
        'install',
        '-g',
        '--prefix',
        prefix,
        '--prefer-offline',
        '--no-audit',
        '--no-fund',
        '--ignore-scripts',
        tgz,
      ],
      { cwd: tmp },
    )
    rmSync(ref, { recursive: true, force: true })
    mkdirSync(dirname(ref), { recursive: true })
    cpSync(join(prefix, 'lib', 'node_modules', 'ongrid-skill'), ref, {
      recursive: true,
      verbatimSymlinks: true,
    })
    for (const rel of REF_EXTRA) cpSync(join(ROOT, rel), join(ref, rel), { recursive: true })
  } finally {
    rmSync(tmp, { recursive: true, force: true })
  }
}

function main(argv) {
  const flag = (name) => argv.includes(name)
  const value = (name) => {
    const i = argv.indexOf(name)
    if (i === -1) return undefined
    const v = argv[i + 1]
    if (v === undefined || v.startsWith('--')) die(`${name} needs a value`)
    return v
  }
  const known = ['--check', '--no-sea', '--no-build', '--no-git', '--date', '--out', '--ref']
  for (const a of argv) {
    if (a.startsWith('--') && !known.includes(a)) die(`unknown flag ${a} (${known.join(', ')})`)
  }
  const ref = value('--ref')
  if (ref !== undefined) {
    const tmp = mkdtempSync(join(tmpdir(), 'ongrid-release-'))
    try {
      refTree(packTo(tmp), ref)
    } finally {
      rmSync(tmp, { recursive: true, force: true })
    }
    return
  }
  const wrong = disagreements()
  const version = JSON.parse(read('package.json')).version
  if (wrong.length > 0) {
    for (const w of wrong) process.stderr.write(`release: ${w}\n`)
    die(`the version is not the same everywhere (${wrong.length} place${wrong.length === 1 ? '' : 's'})`)
  }
  if (flag('--check')) {
    process.stdout.write(`${version}: every place agrees\n`)
    return
  }
  const git = !flag('--no-git')
  const out = value('--out') ?? join(ROOT, 'release')
  const date = value('--date') ?? new Date().toISOString().slice(0, 10)
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) die(`--date must be YYYY-MM-DD, not ${date}`)
  if (git && run('git', ['status', '--porcelain'], { cwd: ROOT }).trim() !== '') {
    die('the work tree has changes: commit or stash them first (or --no-git)')
  }

  // 2. The CHANGELOG's date.
  const changelog = read('CHANGELOG.md')
  const heading = `## ${version} (unreleased)`
  if (changelog.includes(heading)) {
    writeFileSync(join(ROOT, 'CHANGELOG.md'), changelog.replace(heading, `## ${version} (${date})`))
    log(`CHANGELOG.md: ${version} (${date})`)
    if (git) run('git', ['commit', '-q', '-m', `${version}`, '--', 'CHANGELOG.md'], { cwd: ROOT })
  } else {
    log(`CHANGELOG.md: ${version} is dated already`)
  }

  // 3. The build.
  if (!flag('--no-build')) {
    const b = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] })
    if (b.status !== 0) die('npm run build failed')
  }

  // 4–6. The package, the single executable, their sums.
  rmSync(out, { recursive: true, force: true })
  mkdirSync(out, { recursive: true })
  const tgz = packTo(out)
  log(`${basename(tgz)}`)
  const files = [tgz]
  if (!flag('--no-sea')) {
    const sea = join(out, 'ongrid-skill-linux-x64')
    const s = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build-sea.mjs'), sea], {
      cwd: ROOT,
      stdio: ['ignore', 'inherit', 'inherit'],
    })
    if (s.status !== 0) die('the single executable could not be built')
    files.push(sea)
  }
  const sums = files
    .map((f) => `${createHash('sha256').update(readFileSync(f)).digest('hex')}  ${basename(f)}\n`)
    .join('')
  writeFileSync(join(out, 'SHA256SUMS'), sums)
  log('SHA256SUMS')

  // 7. The tree of the release's tag.
  const refDir = join(out, 'ref')
  refTree(tgz, refDir)
  if (git) {
    const index = join(out, '.ref-index')
    const env = { ...process.env, GIT_INDEX_FILE: index }
    run('git', ['--work-tree', refDir, 'add', '-A', '-f', '.'], { cwd: ROOT, env })
    const tree = run('git', ['write-tree'], { cwd: ROOT, env }).trim()
    rmSync(index, { force: true })
    const commit = run(
      'git',
      [
        'commit-tree',
        tree,
        '-p',
        'HEAD',
        '-m',
        `ongrid-skill ${version}: the package as installed, the hooks, the Action`,
      ],
      { cwd: ROOT },
    ).trim()
    run('git', ['tag', `v${version}`, commit], { cwd: ROOT })
    run('git', ['tag', '-f', `v${majorOf(version)}`, commit], { cwd: ROOT })
    log(`tags v${version} and v${majorOf(version)} on ${commit.slice(0, 12)}`)
    process.stdout.write(
      `git push origin HEAD v${version} && git push -f origin v${majorOf(version)} && npm publish ${tgz}\n`,
    )
  } else {
    log(`ref tree: ${refDir}`)
  }
  if (!existsSync(join(refDir, 'dist', 'bundle', 'fast.js'))) die('the ref tree has no dist/')
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main(process.argv.slice(2))
