// The single executable's main script (scripts/build-sea.mjs bundles it with unpack.cjs and
// embeds it, with a code cache, in a copy of the Node binary). The package — dist/, its oclif
// manifest and code caches, templates, schemas and its runtime node_modules — rides along as one
// asset; the first run unpacks it into a dir named after its hash (unpack.cjs says where, and
// when what is there may run), and every run then loads bin/run.js from there with Node's own
// require: the CLI runs exactly as from `npm install -g`, on this binary's Node.
'use strict'
const sea = require('node:sea')
const path = require('node:path')
const { createRequire } = require('node:module')
const { seaBase, ensureUnpacked, UnsafeDirError } = require('./unpack.cjs')

const hash = sea.getAsset('hash', 'utf8').trim()
const boot = JSON.parse(sea.getAsset('boot', 'utf8'))

let launcher
try {
  const base = seaBase()
  launcher = path.join(ensureUnpacked(base, hash, boot, sea.getRawAsset('payload')), 'bin', 'run.js')
} catch (e) {
  const refused = e instanceof UnsafeDirError
  process.stderr.write(
    `ongrid-skill: ${refused ? 'refused' : 'cannot unpack'}: ${e.code ?? e.message} (set ONGRID_SKILL_SEA_DIR to a dir of your own)\n`,
  )
  process.exit(refused ? 2 : 70)
}
// A single executable's argv is [this binary, this binary, ...args]; bin/run.js reads args from 2 on.
process.argv[1] = launcher
createRequire(launcher)(launcher)
