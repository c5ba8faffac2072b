import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import {
  chmodSync,
  chownSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs'
import { join } from 'node:path'
import { after, describe, test } from 'node:test'
import { crc32 } from 'node:zlib'
import { REPO } from '../helpers/cli.js'
import { tempRoot } from '../helpers/tree.js'

// Node's compile cache runs what its dir holds: a cache file names no owner, and its checks are a
// crc32 of the source anyone can recompute and V8's of the source's length. So a cache another
// user may write is their code running as ours. Here such caches are planted the way an attacker
// would (a cache of the real file made from a copy with one string changed, the crc put right),
// in the dir Node would use: where NODE_COMPILE_CACHE points, and Node's default in the temp dir.
// As root, the planted dirs belong to nobody (uid 65534); as any other user, to us but writable
// by everyone (mode 0777). Either is another user's dir to the launcher.

const NODE_MAJOR = Number(process.versions.node.split('.')[0])
const ROOT = process.getuid?.() === 0
const T = tempRoot('ongrid-planted-cache-')
after(T.cleanup)

/** A copy of the launcher (and what it needs before the bundle) at PKG, with a small bundle. */
function pkg(at: string): string {
  mkdirSync(join(at, 'bin'), { recursive: true })
  mkdirSync(join(at, 'dist', 'bundle'), { recursive: true })
  for (const f of ['bin/run.js', 'bin/package.json', 'package.json', 'dist/bundle/user-dirs.cjs'])
    copyFileSync(join(REPO, f), join(at, f))
  chmodSync(join(at, 'bin/run.js'), 0o755)
  // A bundle without the content hash on its first line: compiled through Node's module loader,
  // so through Node's compile cache when one is on.
  writeFileSync(join(at, 'dist/bundle/fast.js'), BUNDLE('genuine'))
  return at
}

// The word is in the function V8 compiles at once (a parenthesised one): its code is in the cache.
const BUNDLE = (word: string) =>
  `(function (exports, require, module, __filename, __dirname, load, url) {\n  const word = '${word}\\n'\n  exports.tryFast = async () => {\n    process.stdout.write(word)\n    return true\n  }\n})\n`

/** Makes the dir another user's: theirs as root, else writable by everyone. */
function theirs(dir: string): void {
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    if (ROOT) chownSync(join(dir, name), 65534, 65534)
    chmodSync(join(dir, name), 0o777)
  }
  if (ROOT) chownSync(dir, 65534, 65534)
  chmodSync(dir, 0o777)
}

/** The cache files under dir (one level of Node's per-version dirs). */
function cacheFiles(dir: string): string[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir).flatMap((v) => readdirSync(join(dir, v)).map((f) => join(dir, v, f)))
}

/** Node's cache file header: magic, code size, cache size, code crc32, cache crc32 (LE u32). */
function fixCrc(file: string, source: string): void {
  const b = readFileSync(file)
  assert.equal(b.readUInt32LE(4), Buffer.byteLength(source), `${file}: the cache of another source`)
  b.writeUInt32LE(crc32(source), 12)
  writeFileSync(file, b)
}

/** node with a clean environment but for `env`. */
function node(args: string[], env: Record<string, string>) {
  const r = spawnSync(
    args[0] === 'program' ? (args[1] as string) : process.execPath,
    args.slice(args[0] === 'program' ? 2 : 0),
    {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env },
      encoding: 'utf8',
    },
  )
  return { code: r.status, stdout: r.stdout, stderr: r.stderr }
}

describe('Node’s compile cache, planted by another user', {
  skip: NODE_MAJOR < 22 && 'Node 20 has no compile cache',
}, () => {
  test('NODE_COMPILE_CACHE naming a dir another user can write: the planted launcher never runs', () => {
    const at = pkg(join(T.root, 'named'))
    const launcher = join(at, 'bin/run.js')
    const real = readFileSync(launcher, 'utf8')
    const planted = join(T.root, 'named-cache')
    // The cache of bin/run.js as Node makes it, from a copy saying something else.
    const changed = real.replace('(ongrid manager ', '(PLANTD manager ')
    assert.notEqual(changed, real)
    writeFileSync(launcher, changed)
    const made = node([launcher, '--version'], { NODE_COMPILE_CACHE: planted })
    assert.match(made.stdout, /\(PLANTD manager /, made.stderr)
    writeFileSync(launcher, real)
    const files = cacheFiles(planted)
    assert.equal(files.length, 1, files.join(' '))
    fixCrc(files[0] as string, real)
    theirs(planted)
    // The plant works: Node, started on the real file with that dir, runs the changed copy.
    const byNode = node([launcher, '--version'], { NODE_COMPILE_CACHE: planted })
    assert.match(byNode.stdout, /\(PLANTD manager /, 'the planted cache is one Node accepts')
    // Started as a program (as npm installs it), the launcher's own bytes run.
    const home = join(T.root, 'named-home')
    mkdirSync(home, { mode: 0o700 })
    for (const args of [['--version'], ['validate', '.']]) {
      const r = node(['program', launcher, ...args], {
        NODE_COMPILE_CACHE: planted,
        HOME: home,
        ONGRID_SKILL_DEBUG_LOAD: '1',
      })
      assert.equal(r.code, 0, r.stderr)
      assert.doesNotMatch(r.stdout, /PLANTD/)
      if (args[0] === '--version') assert.match(r.stdout, /\(ongrid manager /)
      else {
        assert.equal(r.stdout, 'genuine\n')
        assert.match(r.stderr, new RegExp(`no compile cache: ${planted}: (owned by uid 65534|writable by)`))
      }
    }
    // Nothing of ours went into their dir.
    assert.deepEqual(cacheFiles(planted), files)
  })

  test('no NODE_COMPILE_CACHE: Node’s default in the temp dir is never used, however planted', () => {
    const at = pkg(join(T.root, 'default'))
    const bundle = join(at, 'dist/bundle/fast.js')
    const tmp = join(T.root, 'default-tmp')
    mkdirSync(tmp)
    // Where Node's default is, for this Node and user: $TMPDIR/node-compile-cache.
    const planted = join(tmp, 'node-compile-cache')
    // The bundle's cache, compiled as the launcher compiles it, from a copy saying something else.
    const compile = (word: string) =>
      `const M = require('node:module'); M.enableCompileCache(); const f = ${JSON.stringify(bundle)}; ` +
      `const m = new M(f); m.filename = f; m._compile('module.exports = ' + ${JSON.stringify(BUNDLE(word))}, f); ` +
      `const o = { exports: {} }; m.exports(o.exports, require, o, f, '', null, ''); o.exports.tryFast()`
    const made = node(['-e', compile('planted')], { TMPDIR: tmp })
    assert.equal(made.stdout, 'planted\n', made.stderr)
    const files = cacheFiles(planted)
    assert.equal(files.length, 1, files.join(' '))
    fixCrc(files[0] as string, `module.exports = ${BUNDLE('genuine')}`)
    theirs(planted)
    // The plant works: the launcher's old way (Node's default dir) runs it.
    const byNode = node(['-e', compile('genuine')], { TMPDIR: tmp })
    assert.equal(byNode.stdout, 'planted\n', 'the planted cache is one Node accepts')
    const home = join(T.root, 'default-home')
    mkdirSync(home, { mode: 0o700 })
    const r = node(['program', join(at, 'bin/run.js'), 'validate', '.'], { TMPDIR: tmp, HOME: home })
    assert.equal(r.code, 0, r.stderr)
    assert.equal(r.stdout, 'genuine\n')
    assert.deepEqual(cacheFiles(planted), files, 'nothing written into their dir')
    // The cache went to this user's own cache dir instead.
    assert.equal(cacheFiles(join(home, '.cache/ongrid-skill/compile-cache')).length, 1)
  })
})
