#!/usr/bin/env node
// npm run mutation — mutation testing of the core modules (StrykerJS, its command runner).
//
//   node scripts/mutation.mjs [MODULE...] [--force] [--concurrency N] [--min-score S]
//
// Each module (MODULES below) is a Stryker run of its own: its source files are mutated (mutant
// schemata: all mutants compiled in at once, one switched on per run through the environment),
// the project is compiled once in Stryker's sandbox (tsc -p tsconfig.test.json), and each mutant
// runs only that module's unit tests, stopping at the first failure (mutation/run-tests.mjs).
// Tests that go through the built CLI (dist/) do not see mutants, so they are not listed.
//
// Incremental: results are kept in reports/mutation/MODULE.json and a later run tests only the
// mutants whose code changed. The command runner cannot tell which tests changed, so a change
// to a module's test files (their hash is kept beside the results) re-runs the whole module;
// --force does too. Scores are printed per module and written to reports/mutation/scores.json;
// docs/testing.md records them with the survivors explained. --min-score: exit 1 when a module
// run scores below S (CI runs one module with it: .ci/run).
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
process.chdir(ROOT)
const OUT = 'reports/mutation'

/**
 * Each module: the files mutated, and the unit tests (compiled, under build/) that judge them;
 * inProcess: the tests can share one process (see mutation/run-tests.mjs).
 */
export const MODULES = {
  build: {
    mutate: ['src/core/loader/build.ts'],
    tests: ['test/core/loader/build.test.ts', 'test/core/loader/loader.test.ts'],
  },
  loader: {
    mutate: [
      'src/core/loader/loader.ts',
      'src/core/loader/loader-shared.ts',
      'src/core/loader/loader-worker.ts',
    ],
    tests: ['test/core/loader/loader-shared.test.ts', 'test/core/loader/loader.test.ts'],
  },
  executor: {
    mutate: ['src/core/executor/executor.ts'],
    tests: [
      'test/core/executor/executor.test.ts',
      'test/core/executor/executor-wait-delay.test.ts',
      'test/core/executor/executor-result.test.ts',
    ],
  },
  json: {
    mutate: ['src/core/go/encoding/json/*.ts'],
    inProcess: true,
    tests: [
      'test/core/go/encoding/json/scanner.test.ts',
      'test/core/go/encoding/json/decode.test.ts',
      'test/core/go/encoding/json/encode.test.ts',
      'test/core/go/encoding/json/decode-unquote.test.ts',
    ],
  },
  follow: {
    mutate: ['src/core/audit/follow.ts'],
    inProcess: true,
    tests: ['test/core/audit/follow.test.ts'],
  },
  'lint-formats': {
    mutate: ['src/ui/lint/*.ts'],
    inProcess: true,
    tests: ['test/ui/lint/format.test.ts', 'test/ui/lint/github.test.ts'],
  },
}

const args = process.argv.slice(2)
const force = args.includes('--force')
const ci = args.indexOf('--concurrency')
const concurrency = ci >= 0 ? Number(args[ci + 1]) : 2
const mi = args.indexOf('--min-score')
const minScore = mi >= 0 ? Number(args[mi + 1]) : null
if (minScore !== null && !(minScore >= 0 && minScore <= 100)) {
  process.stderr.write('mutation: --min-score takes a score from 0 to 100\n')
  process.exit(2)
}
const named = args.filter(
  (a, i) => !a.startsWith('--') && args[i - 1] !== '--concurrency' && args[i - 1] !== '--min-score',
)
for (const n of named) {
  if (!(n in MODULES)) {
    process.stderr.write(`mutation: unknown module ${n} (${Object.keys(MODULES).join(', ')})\n`)
    process.exit(2)
  }
}

const compiled = (t) => join('build', t.replace(/\.tsx?$/, '.js'))
const hashOf = (files) => {
  const h = createHash('sha256')
  for (const f of [...files, 'scripts/mutation/run-tests.mjs'])
    h.update(f).update('\0').update(readFileSync(f))
  return h.digest('hex')
}

const { Stryker } = await import('@stryker-mutator/core')
mkdirSync(OUT, { recursive: true })
const scoresFile = join(OUT, 'scores.json')
const scores = existsSync(scoresFile) ? JSON.parse(readFileSync(scoresFile, 'utf8')) : {}

for (const name of named.length > 0 ? named : Object.keys(MODULES)) {
  const m = MODULES[name]
  const hashFile = join(OUT, `${name}.tests-sha256`)
  const hash = hashOf(m.tests)
  const testsChanged = !existsSync(hashFile) || readFileSync(hashFile, 'utf8') !== hash
  process.stdout.write(
    `\n== ${name}: ${m.mutate.join(' ')}${force || testsChanged ? ' (all mutants)' : ''}\n`,
  )
  const stryker = new Stryker({
    testRunner: 'command',
    commandRunner: {
      command: `node scripts/mutation/run-tests.mjs ${m.inProcess ? '--in-process ' : ''}${m.tests.map(compiled).join(' ')}`,
    },
    buildCommand: 'npx tsc -p tsconfig.test.json',
    mutate: m.mutate,
    coverageAnalysis: 'off',
    incremental: true,
    incrementalFile: join(OUT, `${name}.json`),
    force: force || testsChanged,
    concurrency,
    // On top of the dry run's time: a mutant that loops is cut off this much later. Suites that
    // wait for real processes or threads get more.
    timeoutMS: m.inProcess ? 8_000 : 30_000,
    reporters: ['clear-text', 'progress'],
    clearTextReporter: { allowColor: false, logTests: false, reportScoreTable: true },
    // Its own sandbox dir per run, so that runs of different modules can go side by side.
    tempDirName: `.stryker-tmp/${name}`,
    ignorePatterns: ['dist', 'build', 'reports', '.bench', '.stryker-tmp', 'oclif.manifest.json'],
    thresholds: { high: 95, low: 90, break: null },
    logLevel: 'warn',
  })
  const results = await stryker.runMutationTest()
  const count = (...s) => results.filter((r) => s.includes(r.status)).length
  const detected = count('Killed', 'Timeout')
  const undetected = count('Survived', 'NoCoverage')
  const score = detected + undetected === 0 ? 100 : (100 * detected) / (detected + undetected)
  scores[name] = {
    mutate: m.mutate,
    killed: count('Killed'),
    timeout: count('Timeout'),
    survived: count('Survived'),
    noCoverage: count('NoCoverage'),
    errors: count('CompileError', 'RuntimeError'),
    ignored: count('Ignored'),
    score: Math.round(score * 100) / 100,
  }
  writeFileSync(hashFile, hash)
  // Re-read: another run (of other modules) may have written meanwhile.
  const now = existsSync(scoresFile) ? JSON.parse(readFileSync(scoresFile, 'utf8')) : {}
  Object.assign(scores, { ...now, [name]: scores[name] })
  writeFileSync(scoresFile, `${JSON.stringify(scores, null, 2)}\n`)
}

const below =
  minScore === null
    ? []
    : (named.length > 0 ? named : Object.keys(MODULES)).filter((n) => scores[n].score < minScore)
for (const n of below)
  process.stderr.write(`mutation: ${n} scored ${scores[n].score}, below --min-score ${minScore}\n`)
process.stdout.write('\nmodule        score  killed  timeout  survived  errors\n')
for (const [name, s] of Object.entries(scores)) {
  process.stdout.write(
    `${name.padEnd(12)} ${s.score.toFixed(2).padStart(6)}  ${String(s.killed).padStart(6)}  ${String(s.timeout).padStart(7)}  ${String(s.survived + s.noCoverage).padStart(8)}  ${String(s.errors).padStart(6)}\n`,
  )
}
if (below.length > 0) process.exitCode = 1
