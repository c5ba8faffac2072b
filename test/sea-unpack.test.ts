import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import {
  chmodSync,
  chownSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { after, describe, test } from 'node:test'
import { REPO } from './helpers/cli.js'
import { tempRoot } from './helpers/tree.js'

/**
 * scripts/sea/unpack.cjs, the single executable's unpacking, called directly with a small payload
 * (test/sea.test.ts runs the built executable). Another user's dir is, as root, one of nobody's
 * (uid 65534); as any other user, one of ours that everyone may write.
 */
const UNPACK = join(REPO, 'scripts/sea/unpack.cjs')
const sea = createRequire(UNPACK)(UNPACK) as {
  seaBase(env: NodeJS.ProcessEnv): string
  ensureUnpacked(base: string, hash: string, boot: Record<string, number[]>, payload: Buffer): string
  UnsafeDirError: new (...a: never[]) => Error
}
const ROOT = process.getuid?.() === 0
const T = tempRoot('ongrid-sea-unpack-')
after(T.cleanup)
let n = 0
const fresh = () => {
  const d = join(T.root, `case-${n++}`)
  mkdirSync(d, { mode: 0o700 })
  return d
}
const theirs = (p: string) => {
  if (ROOT) chownSync(p, 65534, 65534)
  chmodSync(p, lstatSync(p).isDirectory() ? 0o777 : 0o666)
}

const sha = (s: string) => createHash('sha256').update(s).digest('hex')
const FILES: Record<string, [number, string]> = {
  'bin/run.js': [0o755, "process.stdout.write('genuine\\n')\n"],
  'package.json': [0o644, '{"name":"x"}\n'],
  'dist/lazy.js': [0o644, 'module.exports = 1\n'],
}
function payload(files = FILES): Buffer {
  const index = Object.entries(files).map(([rel, [mode, s]]) => [rel, mode, Buffer.byteLength(s), sha(s)])
  const head = Buffer.from(JSON.stringify(index))
  const len = Buffer.alloc(4)
  len.writeUInt32LE(head.length)
  return Buffer.concat([len, head, ...Object.values(files).map(([, s]) => Buffer.from(s))])
}
/** Where the boot files are in payload(): [offset, size]. */
const BOOT = (() => {
  const head = payload().readUInt32LE(0)
  const runJs = Buffer.byteLength(FILES['bin/run.js']?.[1] as string)
  const pkgJson = Buffer.byteLength(FILES['package.json']?.[1] as string)
  return { 'bin/run.js': [4 + head, runJs], 'package.json': [4 + head + runJs, pkgJson] }
})()

describe('the single executable’s unpack dir', () => {
  test('unpacks into <base>/<hash>, once; dirs no one else may write', () => {
    const base = fresh()
    const dir = sea.ensureUnpacked(base, 'h1', BOOT, payload())
    assert.equal(dir, join(base, 'h1'))
    assert.equal(readFileSync(join(dir, 'bin/run.js'), 'utf8'), FILES['bin/run.js']?.[1])
    assert.equal(lstatSync(join(dir, 'bin/run.js')).mode & 0o777, 0o755)
    for (const d of ['', 'bin', 'dist']) assert.equal(lstatSync(join(dir, d)).mode & 0o022, 0, d)
    assert.deepEqual(readdirSync(base), ['h1'], 'no temp dir left')
    // The second run finds it as it is: nothing is written.
    const stamp = lstatSync(join(dir, 'dist/lazy.js')).ino
    assert.equal(sea.ensureUnpacked(base, 'h1', BOOT, payload()), dir)
    assert.equal(lstatSync(join(dir, 'dist/lazy.js')).ino, stamp)
  })

  test('a boot file changed since (or a link in its place): unpacked afresh', () => {
    const base = fresh()
    const dir = sea.ensureUnpacked(base, 'h2', BOOT, payload())
    for (const tamper of [
      () => writeFileSync(join(dir, 'bin/run.js'), "process.stdout.write('planted\\n')\n"),
      () => chmodSync(join(dir, 'package.json'), 0o666),
      () => {
        writeFileSync(join(T.root, 'elsewhere.js'), FILES['bin/run.js']?.[1] as string)
        symlinkSync(join(T.root, 'elsewhere.js'), join(dir, 'bin/run.js.new'))
        renameSync(join(dir, 'bin/run.js.new'), join(dir, 'bin/run.js'))
      },
    ]) {
      tamper()
      assert.equal(sea.ensureUnpacked(base, 'h2', BOOT, payload()), dir)
      assert.equal(readFileSync(join(dir, 'bin/run.js'), 'utf8'), FILES['bin/run.js']?.[1])
      assert.ok(lstatSync(join(dir, 'bin/run.js')).isFile())
      assert.equal(lstatSync(join(dir, 'package.json')).mode & 0o777, 0o644)
      assert.deepEqual(readdirSync(base), ['h2'], 'the old tree removed')
    }
  })

  test('a <hash> dir another user made first is never run: replaced by what this executable holds', () => {
    const base = fresh()
    mkdirSync(join(base, 'h3', 'bin'), { recursive: true })
    writeFileSync(join(base, 'h3', 'bin/run.js'), FILES['bin/run.js']?.[1] as string)
    writeFileSync(join(base, 'h3', 'package.json'), FILES['package.json']?.[1] as string)
    for (const p of ['h3/bin/run.js', 'h3/package.json', 'h3/bin', 'h3']) theirs(join(base, p))
    // A dir in it this user cannot empty (not even root's tests can make one of nobody's that
    // root cannot): the tree is moved aside all the same.
    mkdirSync(join(base, 'h3', 'locked'))
    writeFileSync(join(base, 'h3', 'locked', 'f'), '')
    chmodSync(join(base, 'h3', 'locked'), 0o555)
    const dir = sea.ensureUnpacked(base, 'h3', BOOT, payload())
    assert.equal(lstatSync(dir).uid, process.getuid?.())
    assert.equal(lstatSync(dir).mode & 0o022, 0)
    assert.ok(existsSync(join(dir, 'dist/lazy.js')), 'the tree is ours, unpacked afresh')
    assert.equal(existsSync(join(dir, 'locked')), false)
    for (const name of readdirSync(base).filter((n) => n !== 'h3')) {
      assert.match(name, /^\.h3-old-/)
      chmodSync(join(base, name, 'tree', 'locked'), 0o755)
    }
  })

  test('a payload whose bytes do not match its digests: nothing unpacked', () => {
    const base = fresh()
    const bad = payload()
    bad[bad.length - 2] ^= 1
    assert.throws(() => sea.ensureUnpacked(base, 'h4', BOOT, bad), /dist\/lazy\.js: not the bytes/)
    assert.deepEqual(readdirSync(base), [])
  })

  test('ONGRID_SKILL_SEA_DIR: used when the user’s own; another user’s, a link, a relative path: refused', () => {
    const d = fresh()
    assert.equal(sea.seaBase({ ONGRID_SKILL_SEA_DIR: join(d, 'mine') }), join(d, 'mine'))
    assert.equal(lstatSync(join(d, 'mine')).mode & 0o777, 0o700)
    mkdirSync(join(d, 'shared'))
    theirs(join(d, 'shared'))
    assert.throws(
      () => sea.seaBase({ ONGRID_SKILL_SEA_DIR: join(d, 'shared') }),
      (e: Error) =>
        e instanceof sea.UnsafeDirError &&
        /shared: (owned by uid 65534, not by this user \(uid 0\)|writable by group and others)/.test(
          e.message,
        ),
    )
    symlinkSync(join(d, 'mine'), join(d, 'link'))
    assert.throws(() => sea.seaBase({ ONGRID_SKILL_SEA_DIR: join(d, 'link') }), /a symbolic link/)
    assert.throws(() => sea.seaBase({ ONGRID_SKILL_SEA_DIR: 'rel' }), /not an absolute path/)
  })

  test('the default: $XDG_CACHE_HOME/ongrid-skill/sea, else ~/.cache/ongrid-skill/sea', () => {
    const d = fresh()
    assert.equal(sea.seaBase({ XDG_CACHE_HOME: join(d, 'x') }), join(d, 'x', 'ongrid-skill', 'sea'))
    assert.equal(sea.seaBase({ HOME: d }), join(d, '.cache', 'ongrid-skill', 'sea'))
    mkdirSync(join(d, 'y', 'ongrid-skill'), { recursive: true })
    theirs(join(d, 'y', 'ongrid-skill'))
    assert.throws(() => sea.seaBase({ XDG_CACHE_HOME: join(d, 'y') }), /ongrid-skill: (owned by|writable by)/)
  })
})
