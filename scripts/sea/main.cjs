// The single executable's main script (scripts/build-sea.mjs embeds it, with a code cache, in a
// copy of the Node binary). The package — dist/, its oclif manifest and code caches, templates,
// schemas and its runtime node_modules — rides along as one asset; the first run unpacks it into
// a dir named after its hash, and every run then loads bin/run.js from there with Node's own
// require: the CLI runs exactly as from `npm install -g`, on this binary's Node.
'use strict'
const sea = require('node:sea')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { createRequire } = require('node:module')

const hash = sea.getAsset('hash', 'utf8').trim()

function cacheBase() {
  const own = process.env.ONGRID_SKILL_SEA_DIR
  if (own) return own
  const xdg = process.env.XDG_CACHE_HOME
  let home = ''
  try {
    home = os.homedir()
  } catch {}
  if (xdg) return path.join(xdg, 'ongrid-skill', 'sea')
  if (home) return path.join(home, '.cache', 'ongrid-skill', 'sea')
  return path.join(os.tmpdir(), `ongrid-skill-sea-${process.getuid?.() ?? 0}`)
}

/** Unpacks the payload (a JSON index, then the files' bytes) into `dir`, atomically. */
function unpack(base, dir) {
  const raw = Buffer.from(sea.getRawAsset('payload'))
  const indexLength = raw.readUInt32LE(0)
  const index = JSON.parse(raw.subarray(4, 4 + indexLength).toString('utf8'))
  fs.mkdirSync(base, { recursive: true, mode: 0o700 })
  const staging = fs.mkdtempSync(path.join(base, `.${hash}-`))
  try {
    let at = 4 + indexLength
    for (const [rel, mode, size] of index) {
      const file = path.join(staging, rel)
      fs.mkdirSync(path.dirname(file), { recursive: true })
      fs.writeFileSync(file, raw.subarray(at, at + size), { mode })
      at += size
    }
    try {
      fs.renameSync(staging, dir)
    } catch (e) {
      // Another run unpacked it first: theirs is the same bytes.
      if (e.code !== 'ENOTEMPTY' && e.code !== 'EEXIST') throw e
      fs.rmSync(staging, { recursive: true, force: true })
    }
  } catch (e) {
    fs.rmSync(staging, { recursive: true, force: true })
    throw e
  }
}

const base = cacheBase()
const dir = path.join(base, hash)
const launcher = path.join(dir, 'bin', 'run.js')
try {
  if (!fs.existsSync(launcher)) unpack(base, dir)
} catch (e) {
  process.stderr.write(
    `ongrid-skill: cannot unpack into ${base}: ${e.code ?? e.message} (set ONGRID_SKILL_SEA_DIR to a writable dir)\n`,
  )
  process.exit(70)
}
// A single executable's argv is [this binary, this binary, ...args]; bin/run.js reads args from 2 on.
process.argv[1] = launcher
createRequire(launcher)(launcher)
