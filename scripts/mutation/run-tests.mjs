#!/usr/bin/env node
// The test command of one mutant run (Stryker's command runner; scripts/mutation.mjs).
//
//   node scripts/mutation/run-tests.mjs [--in-process] FILE.test.js...
//
// Runs the compiled test files with node:test, in a process group of their own, and stops at
// the first failing test: a mutant is killed as soon as one test fails, and the rest of the
// files need not run. Exit 0 when every test passed, 1 otherwise. Anything left of the group
// (tests that spawn processes) is killed on the way out, as it is when Stryker gives up on a
// run (SIGTERM) or when the run outlasts MUTATION_RUN_TIMEOUT_MS (a mutant that loops).
import { spawn } from 'node:child_process'

const files = process.argv.slice(2)
if (files.length === 0) {
  process.stderr.write('run-tests: no test files\n')
  process.exit(2)
}
const limitMs = Number(process.env.MUTATION_RUN_TIMEOUT_MS ?? 60_000)

// With --in-process the files run in one process (node:test runs what they declare once they
// are imported): one Node start per mutant rather than one per file, a third of the time for
// small suites. Suites with worker threads (the loader's) need `node --test`, a process per file.
const inProcess = files[0] === '--in-process'
if (inProcess) files.shift()
const IMPORT_ALL = `import { pathToFileURL } from 'node:url'
for (const f of process.argv.slice(1)) await import(pathToFileURL(f).href)`
const child = spawn(
  process.execPath,
  inProcess
    ? ['--test-reporter=tap', '--input-type=module', '-e', IMPORT_ALL, ...files]
    : ['--test', '--test-reporter=tap', ...files],
  { detached: true, stdio: ['ignore', 'pipe', 'inherit'] },
)

let done = false
function finish(code, why) {
  if (done) return
  done = true
  try {
    process.kill(-child.pid, 'SIGKILL')
  } catch {}
  if (why) process.stderr.write(`run-tests: ${why}\n`)
  process.exit(code)
}

let tail = ''
child.stdout.setEncoding('utf8')
child.stdout.on('data', (chunk) => {
  const text = tail + chunk
  const cut = text.lastIndexOf('\n')
  tail = text.slice(cut + 1)
  const failed = text
    .slice(0, cut + 1)
    .split('\n')
    .find((l) => /^\s*not ok \d+/.test(l))
  if (failed) finish(1, `failed: ${failed.trim()}`)
})
child.on('exit', (code, signal) => finish(code === 0 ? 0 : 1, code === 0 ? '' : `exit ${code ?? signal}`))
setTimeout(() => finish(1, `no verdict after ${limitMs} ms`), limitMs).unref()
for (const sig of ['SIGTERM', 'SIGINT']) process.on(sig, () => finish(1, sig))
