// Where the single executable's package is unpacked, and when what is there may run (main.cjs
// calls these; test/sea-unpack.test.ts calls them directly). scripts/build-sea.mjs bundles this
// file, and dist/bundle/user-dirs.cjs (core/user-dirs.ts) with it, into the blob's main script.
//
// What runs is only ever what this executable unpacked, into a dir that is this user's own:
// - the base dir: ONGRID_SKILL_SEA_DIR, else $XDG_CACHE_HOME/ongrid-skill/sea (~/.cache/...), else
//   (no home at all) $TMPDIR/ongrid-skill-sea-<uid>; a real dir owned by this user, writable by no
//   one else, every dir above it root's or this user's (core/user-dirs.ts); anything else is
//   refused in one line, never fallen back from;
// - the package in <base>/<hash>/, which must be the same: a dir of this user's that no one else
//   may write, whose boot files (those every start runs before anything else: the launcher, the
//   bundle and its code cache, package.json) are byte for byte those embedded in the executable
//   (compared with the payload in memory: no hashing, and node:crypto alone costs 6 ms to load).
//   Otherwise it is unpacked afresh (a temp dir, then one rename) and the old one removed.
// The rest of the tree is checked when written (every file against its SHA-256 in the index), not
// at each start: reading and hashing 16 MB costs 90-200 ms, more than a command.
'use strict'
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const dirs = require('../../dist/bundle/user-dirs.cjs')

/** The base dir for this environment, checked (throws UnsafeDirError, with the path and why). */
function seaBase(env = process.env) {
  const named = env.ONGRID_SKILL_SEA_DIR
  if (named) return dirs.namedPrivateDir(named)
  const cache = dirs.xdgBase('cache', env)
  if (cache !== null) return dirs.privateDir(cache, [dirs.APP_DIR, 'sea'])
  return dirs.privateDir(os.tmpdir(), [`ongrid-skill-sea-${process.geteuid()}`])
}

const sha256 = (data) => require('node:crypto').createHash('sha256').update(data).digest('hex')

/**
 * Whether `dir` is this user's own and its boot files are those of `boot` ({rel: [offset, size]}
 * in `payload`).
 */
function intact(dir, boot, payload) {
  const uid = process.geteuid()
  try {
    dirs.checkOwn(dir, uid)
    const checked = new Set([dir])
    for (const [rel, [offset, size]] of Object.entries(boot)) {
      // Each dir on the way: ours, no one else's to write, not a link.
      const parts = rel.split('/')
      for (let i = 1; i < parts.length; i++) {
        const d = path.join(dir, ...parts.slice(0, i))
        if (!checked.has(d)) dirs.checkOwn(d, uid)
        checked.add(d)
      }
      if (!readOwn(path.join(dir, rel), uid).equals(payload.subarray(offset, offset + size))) return false
    }
    return true
  } catch {
    return false
  }
}

/** A regular file of this user's that no one else may write, not through a link; else throws. */
function readOwn(file, uid) {
  const fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK)
  try {
    const st = fs.fstatSync(fd)
    if (!st.isFile() || st.uid !== uid || (st.mode & 0o022) !== 0) throw new Error(`${file}: not ours`)
    return fs.readFileSync(fd)
  } finally {
    fs.closeSync(fd)
  }
}

/**
 * Unpacks `payload` (4 bytes of index length, the JSON index [rel, mode, size, sha256], then the
 * files' bytes) into a temp dir in `base`, checks every file against its digest, and renames it to
 * `dir`; a `dir` already there (not intact) is moved aside first and removed.
 */
function unpack(base, dir, payload) {
  const raw = payload
  const indexLength = raw.readUInt32LE(0)
  const index = JSON.parse(raw.subarray(4, 4 + indexLength).toString('utf8'))
  const staging = fs.mkdtempSync(path.join(base, `.${path.basename(dir)}-`))
  let old = null
  try {
    let at = 4 + indexLength
    for (const [rel, mode, size, digest] of index) {
      const file = path.join(staging, rel)
      if (!file.startsWith(staging + path.sep)) throw new Error(`${rel}: outside the package`)
      fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o755 })
      const data = raw.subarray(at, at + size)
      if (sha256(data) !== digest) throw new Error(`${rel}: not the bytes the executable was built with`)
      fs.writeFileSync(file, data, { mode: mode & 0o755, flag: 'wx' })
      at += size
    }
    if (fs.existsSync(dir) || isLink(dir)) {
      old = fs.mkdtempSync(path.join(base, `.${path.basename(dir)}-old-`))
      fs.renameSync(dir, path.join(old, 'tree'))
    }
    try {
      fs.renameSync(staging, dir)
    } catch (e) {
      // Another run unpacked it first: theirs is checked as any other.
      if (e.code !== 'ENOTEMPTY' && e.code !== 'EEXIST') throw e
      fs.rmSync(staging, { recursive: true, force: true })
    }
  } catch (e) {
    fs.rmSync(staging, { recursive: true, force: true })
    throw e
  } finally {
    // Best effort: a tree someone else made there may hold dirs this user cannot empty; it stays
    // under its dot name, out of the way, and never runs.
    if (old !== null) {
      try {
        fs.rmSync(old, { recursive: true, force: true })
      } catch {}
    }
  }
}

function isLink(p) {
  try {
    return fs.lstatSync(p).isSymbolicLink()
  } catch {
    return false
  }
}

/**
 * The dir holding this executable's package, unpacked when missing or not intact: `<base>/<hash>`.
 * Throws UnsafeDirError for a base that is not this user's own, another error when unpacking fails
 * or what is there is still not intact after it.
 */
function ensureUnpacked(base, hash, boot, bytes) {
  // The asset as Node gives it (an ArrayBuffer over the executable's own memory): a view, no copy.
  const payload = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes)
  const dir = path.join(base, hash)
  if (intact(dir, boot, payload)) return dir
  unpack(base, dir, payload)
  if (!intact(dir, boot, payload)) throw new Error(`${dir}: not the files this executable unpacked`)
  return dir
}

module.exports = { seaBase, ensureUnpacked, UnsafeDirError: dirs.UnsafeDirError }
