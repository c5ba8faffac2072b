// A bundle's code cache, made after commands ran from it (scripts/bundle.mjs runs this, under the
// V8 flags bin/run.js starts node with):
//
//   node FLAGS scripts/bundle-cache.mjs BUNDLE CACHE MANIFEST '[["lint", "examples/skills"], …]'
//
// V8's code cache holds the functions compiled when it is made: made right after the bundle is
// compiled, only its top level (every function a command runs is compiled again at each start);
// made here, after each command line ran once from the bundle (as bin/run.js runs it: tryFast),
// every function those runs compiled. bin/run.js offers it to a command whose own cache is not
// made yet (a user's first run, a CI job's every run): a Node of the same version and flags takes
// it, any other rejects it and compiles as before. What the commands print is dropped (the caller
// points fd 1 and 2 elsewhere); their exit codes are not this script's.
import { readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname } from 'node:path'
import { pathToFileURL } from 'node:url'
import { Script } from 'node:vm'

const [file, out, manifest, runs] = process.argv.slice(2)
const script = new Script(readFileSync(file, 'utf8'), { filename: file })
const fn = script.runInThisContext()
const url = pathToFileURL(file)
const load = (specifier) => import(specifier.startsWith('.') ? new URL(specifier, url).href : specifier)
const module = { exports: {} }
fn(module.exports, createRequire(file), module, file, dirname(file), load, url.href)
for (const argv of JSON.parse(runs)) {
  if (!(await module.exports.tryFast(argv, pathToFileURL(manifest))))
    throw new Error(`bundle-cache: ${argv.join(' ')} is not a command of the fast path`)
}
writeFileSync(out, script.createCachedData())
process.exitCode = 0
