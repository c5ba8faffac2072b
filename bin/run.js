#!/bin/sh
':' //; if [ -n "${NODE_EXTRA_CA_CERTS+x}" ]; then ONGRID_SKILL_EXTRA_CA_CERTS=$NODE_EXTRA_CA_CERTS; export ONGRID_SKILL_EXTRA_CA_CERTS; unset NODE_EXTRA_CA_CERTS; fi; if [ -n "${NODE_COMPILE_CACHE+x}" ]; then ONGRID_SKILL_COMPILE_CACHE=$NODE_COMPILE_CACHE; export ONGRID_SKILL_COMPILE_CACHE; unset NODE_COMPILE_CACHE; fi; exec node --max-semi-space-size=2 "$0" "$@"

// The entry point, written for cold start (see ARCHITECTURE.md, "Cold start"). CommonJS (bin/package.json).
//
// Line 2 is for sh, a comment for JavaScript. Run as a program, this file starts under /bin/sh,
// which hides two variables from the node it execs. NODE_EXTRA_CA_CERTS: Node 20 would read and
// parse every CA certificate at startup, before any of our code runs, and only `audit tail` over
// TLS needs them (core/audit/db.ts adds the file to its TLS trust itself). NODE_COMPILE_CACHE:
// Node would run code from that dir's caches, this file's first, before we could check who may
// write there (see enableCompileCache, below). Both are put back here, first thing, so that entries
// run by `run` and everything reading the environment see them unchanged.
'use strict'

for (const [name, moved] of [
  ['NODE_EXTRA_CA_CERTS', 'ONGRID_SKILL_EXTRA_CA_CERTS'],
  ['NODE_COMPILE_CACHE', 'ONGRID_SKILL_COMPILE_CACHE'],
]) {
  const value = process.env[moved]
  if (value === undefined) continue
  process.env[name] = value
  delete process.env[moved]
}

const { readFileSync, writeSync } = require('node:fs')
const { join } = require('node:path')

const ROOT = join(__dirname, '..')
const argv = process.argv.slice(2)

// Node 22 and later keep compiled code on disk themselves, per Node version (their compile
// cache; NODE_COMPILE_CACHE names the dir, NODE_DISABLE_COMPILE_CACHE turns it off): the bundle
// and every module loaded after it (oclif, ink) compile once per machine, whichever Node built
// the package. Node 20 has no such cache: there the bundle comes with the one the build made.
const Module = require('node:module')
let compileCache = typeof Module.enableCompileCache === 'function'
// The launcher's own code cache of the bundle, per command (see ownCacheFor, below).
/** @type {{ file: string, dir: string, hash: string, script?: import('node:vm').Script, write?: boolean } | null} */
let ownCache = null

const OWN_CACHE_MAX = 64 * 1024 * 1024

// The bundle of the fast path that holds this command (scripts/bundle.mjs, BUNDLES): lint and
// validate run from one with only their action inside, half the code to load; the rest from
// dist/bundle/fast.js.
const BUNDLE_OF = { lint: 'fast-lint', validate: 'fast-lint' }

if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v' || argv[0] === 'version')) {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'))
  const line = `${pkg.name}/${pkg.version} ${process.platform}-${process.arch} node-${process.version} (ongrid manager ${pkg.ongridManagerRelease})\n`
  // One line straight to fd 1: creating process.stdout (a socket for a pipe) costs more than the
  // rest of this path. A reader that went away ends it quietly, as below.
  try {
    writeSync(1, line)
  } catch (e) {
    if (e.code === 'EAGAIN') process.stdout.write(line)
    else if (e.code !== 'EPIPE') throw e
  }
} else {
  // A reader that goes away (`| head`) ends the output, quietly: no stack trace for EPIPE. Each
  // stream gets that handler when it is first made: making process.stdout costs 2-4 ms (a socket
  // for a pipe), and a command that writes its output to a file in one go (cli/output.ts,
  // writeStdout) writes it to fd 1 while the getter below is still there, marked `unmade`.
  const onError = (e) => {
    if (e.code !== 'EPIPE') throw e
    process.exit(process.exitCode ?? 0)
  }
  for (const name of ['stdout', 'stderr']) {
    const made = Object.getOwnPropertyDescriptor(process, name)
    if (typeof made?.get !== 'function' || !made.configurable) {
      process[name].on('error', onError)
      continue
    }
    const lazy = () => {
      Object.defineProperty(process, name, made)
      const stream = made.get.call(process)
      stream.on('error', onError)
      return stream
    }
    lazy.unmade = true
    Object.defineProperty(process, name, { configurable: true, enumerable: made.enumerable, get: lazy })
  }
  main().catch((e) => {
    process.stderr.write(`ongrid-skill: ${e?.message ?? e}\n`)
    process.exitCode = 70
  })
}

// Plain invocations of the commands people run in loops go through the fast path, without
// oclif; everything else (help, malformed flags, init) is oclif's.
async function main() {
  const { pathToFileURL } = require('node:url')
  if (compileCache) compileCache = enableCompileCache()
  const bundled = loadBundle()
  const fast = bundled ?? (await import('../dist/cli/fast.js'))
  // The bundle comes with the oclif manifest less its texts (scripts/bundle.mjs): the flags and
  // arguments the fast path parses, a twelfth of the bytes to read and parse at each start.
  const manifest = bundled === null ? ['oclif.manifest.json'] : ['dist', 'bundle', 'fast-manifest.json']
  if (await fast.tryFast(argv, pathToFileURL(join(ROOT, ...manifest)))) {
    // The command ran: V8 now holds compiled code for every function it ran, which a cache made
    // at load time (Node's, or the build's) does not have. Kept for its next start.
    if (ownCache?.write) process.on('exit', () => saveOwnCache(ownCache))
  } else {
    const oclif = await import('@oclif/core')
    // oclif answers `help --help` with the root help; `help` is a command like the others.
    if (argv[0] === 'help' && argv.length === 2 && (argv[1] === '--help' || argv[1] === '-h'))
      argv[1] = 'help'
    try {
      await oclif.run(argv, ROOT)
      await oclif.flush()
    } catch (e) {
      process.exitCode = fast.reportFailure(e, argv)
    }
  }
}

// A compile cache is code: whoever can write in its dir runs code as the user who loads it, and
// Node checks no owner, only a crc32 anyone can recompute. So it is turned on only in a dir of
// this user's own that no one else may write, and every dir above it root's or this user's
// (core/user-dirs.ts, built for this file as dist/bundle/user-dirs.cjs): NODE_COMPILE_CACHE when
// set (Node never saw it: the sh line above moved it), else $XDG_CACHE_HOME/ongrid-skill/
// compile-cache (~/.cache/...), never the shared temp dir Node would choose. Anything else runs
// without a cache. Started as `node bin/run.js`, Node has read NODE_COMPILE_CACHE itself: then
// its dir is kept, and the launcher's own caches are kept there only when it passes the same test.
/** Whether the compile cache is on, in a dir that passed that test. */
function enableCompileCache() {
  const debug = (why) => {
    if (process.env.ONGRID_SKILL_DEBUG_LOAD) process.stderr.write(`ongrid-skill: no compile cache: ${why}\n`)
    return false
  }
  const named = process.env.NODE_COMPILE_CACHE || undefined
  const byNode = Module.getCompileCacheDir?.() !== undefined
  if (byNode && named === undefined) return debug('turned on before the launcher ran')
  if (!byNode && process.env.NODE_DISABLE_COMPILE_CACHE) return debug('NODE_DISABLE_COMPILE_CACHE is set')
  let dir
  try {
    const dirs = require('../dist/bundle/user-dirs.cjs')
    dir = named === undefined ? dirs.userDir('cache', ['compile-cache']) : dirs.namedPrivateDir(named)
  } catch (e) {
    return debug(e?.message ?? e)
  }
  if (byNode) return true
  if (dir === null) return debug('no home dir')
  // Node makes its per-version dir in there with mode 0777 less the umask: under umask 000, one
  // anyone could write in. Its files it makes 0600 itself.
  const umask = process.umask(0o077)
  try {
    return Module.enableCompileCache(dir).status === Module.constants.compileCacheStatus.ENABLED
  } finally {
    process.umask(umask)
  }
}

// That bundle, compiled on Node 22 and later with the launcher's own code cache for this command
// (ownCacheFor) or, where there is none to use, through Node's module loader and its compile
// cache; else with the V8 code cache the build made. Null without a bundle.
function loadBundle() {
  // fast.js holds every command: it serves when the smaller one is not there.
  let name = Object.hasOwn(BUNDLE_OF, argv[0]) ? BUNDLE_OF[argv[0]] : 'fast'
  let file
  let source
  for (;;) {
    file = join(ROOT, 'dist', 'bundle', `${name}.js`)
    try {
      source = readFileSync(file, 'utf8')
      break
    } catch {
      if (name === 'fast') return null
      name = 'fast'
    }
  }
  let fn
  let how
  const own = ownCacheFor(source)
  if (own === null && compileCache) {
    const m = new Module(file)
    m.filename = file
    m._compile(`module.exports = ${source}`, file)
    fn = m.exports
    how = `Node's compile cache ${Module.getCompileCacheDir?.() ? 'on' : 'off'}`
  } else {
    // With a V8 code cache: the launcher's own for this command, else (no compile cache, or its
    // own not made yet) the build's, made after the commands people start with ran from the bundle
    // (scripts/bundle-cache.mjs): a first run, and every run of a CI job, compiles only what those
    // did not run (when this Node is the one that built the package; any other rejects it).
    let cachedData
    try {
      if (own !== null) cachedData = readOwnFile(own.file)
    } catch {}
    const built = cachedData === undefined
    try {
      if (built) cachedData = readFileSync(join(ROOT, 'dist', 'bundle', `${name}.cache`))
    } catch {}
    const { Script } = require('node:vm')
    const script = new Script(source, { filename: file, cachedData })
    fn = script.runInThisContext()
    const state = cachedData === undefined ? 'missing' : script.cachedDataRejected ? 'rejected' : 'accepted'
    how =
      own === null
        ? `code cache ${state}`
        : built
          ? `own code cache missing, the build's ${state}`
          : `own code cache ${state}`
    if (own !== null) ownCache = { ...own, script, write: built || state !== 'accepted' }
  }
  if (process.env.ONGRID_SKILL_DEBUG_LOAD)
    process.stderr.write(`ongrid-skill: fast path from dist/bundle/${name}.js, ${how}\n`)
  const { pathToFileURL } = require('node:url')
  const url = pathToFileURL(file)
  const load = (specifier) => import(specifier.startsWith('.') ? new URL(specifier, url).href : specifier)
  const module = { exports: {} }
  fn(module.exports, require, module, file, join(ROOT, 'dist', 'bundle'), load, url.href)
  return module.exports
}

// Node's compile cache (and the build's fast.cache) hold the code V8 compiled while loading the
// bundle: its top level. Every function a command runs is compiled again at each start. So on
// Node 22 and later the launcher keeps a V8 code cache of its own per command, made at the exit
// of the first run of that command (vm.Script#createCachedData after the run), in Node's compile
// cache dir (per Node version, V8 flags and user, in a dir that passed enableCompileCache's test:
// NODE_COMPILE_CACHE moves it, NODE_DISABLE_COMPILE_CACHE turns both off). Files are named by
// the bundle's content hash (its first line, scripts/bundle.mjs) and the command; a cache is read
// only when it is a regular file of this user that no one else may write, written through an
// exclusive temp file and a rename, and caches of older bundles are removed then (saveOwnCache).
// Any failure only costs the compile it would save.

/** Where this command's cache of this bundle lives; null when there is none to use. */
function ownCacheFor(source) {
  if (!compileCache || typeof Module.getCompileCacheDir !== 'function') return null
  const dir = Module.getCompileCacheDir()
  const hash = /^\/\/ ongrid-skill bundle ([0-9a-f]{16})\n/.exec(source)?.[1]
  if (!dir || hash === undefined || typeof process.getuid !== 'function') return null
  // The command as the fast path names it (a topic and its command: `audit-tail`); anything
  // else (help, a mistyped name) is oclif's and keeps no cache of its own.
  const words = argv[0] === 'audit' || argv[0] === 'marketplace' ? argv.slice(0, 2) : argv.slice(0, 1)
  if (words.length === 0 || words.some((w) => !/^[a-z][a-z-]{0,30}$/.test(w))) return null
  return { dir, hash, file: join(dir, `ongrid-skill-${hash}-${words.join('-')}.cache`) }
}

/** The file's bytes when it is a regular file of this user that only this user may write. */
function readOwnFile(file) {
  const { openSync, fstatSync, readSync, closeSync, constants } = require('node:fs')
  const fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK)
  try {
    const st = fstatSync(fd)
    if (!st.isFile() || st.uid !== process.getuid() || (st.mode & 0o022) !== 0 || st.size > OWN_CACHE_MAX)
      return undefined
    const buf = Buffer.allocUnsafe(st.size)
    let at = 0
    while (at < buf.length) {
      const n = readSync(fd, buf, at, buf.length - at, at)
      if (n === 0) return undefined
      at += n
    }
    return buf
  } finally {
    closeSync(fd)
  }
}

function saveOwnCache(own) {
  const fs = require('node:fs')
  const tmp = `${own.file}.${process.pid}.${Date.now()}.tmp`
  try {
    const data = own.script.createCachedData()
    if (data.length > OWN_CACHE_MAX) return
    fs.writeFileSync(tmp, data, { flag: 'wx', mode: 0o600 })
    fs.renameSync(tmp, own.file)
    // Caches of other bundles: the most recently written one is kept (two installs of different
    // versions used in turn would otherwise remove each other's at every turn), older ones go.
    const others = new Map()
    for (const name of fs.readdirSync(own.dir)) {
      const m = /^ongrid-skill-([0-9a-f]{16})-[a-z-]+\.cache$/.exec(name)
      if (m === null || m[1] === own.hash) continue
      const at = fs.lstatSync(join(own.dir, name)).mtimeMs
      const o = others.get(m[1]) ?? { at: 0, names: [] }
      o.at = Math.max(o.at, at)
      o.names.push(name)
      others.set(m[1], o)
    }
    const newest = [...others.values()].reduce((a, b) => (b.at > a.at ? b : a), { at: -1, names: [] })
    for (const o of others.values())
      if (o !== newest) for (const name of o.names) fs.rmSync(join(own.dir, name), { force: true })
  } catch {
    try {
      fs.rmSync(tmp, { force: true })
    } catch {}
  }
}
