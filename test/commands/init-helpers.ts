import assert from 'node:assert/strict'
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { type CliResult, runCli } from '../helpers/cli.js'
import { shellcheckSkip } from '../helpers/shellcheck.js'

/** Runs the built CLI with a pipe for stdin (not a terminal: init must never prompt). */
export function initCli(
  args: string[],
  o: { cwd: string; env?: Record<string, string | undefined> },
): Promise<CliResult> {
  return runCli(args, { cwd: o.cwd, env: { NO_COLOR: '1', CI: '1', ...o.env }, stdin: 'open' })
}

/**
 * A validate/lint --json document with no finding at all (each shown with its file); where
 * shellcheck is not installed (and not required), but the line saying so.
 */
export function assertNoFindings(r: CliResult, what: string) {
  assert.equal(r.code, 0, `${what}: ${r.stderr}${r.stdout}`)
  const doc = JSON.parse(r.stdout) as { files: { path: string; findings: { rule_id: string }[] }[] }
  assert.ok(doc.files.length > 0, `${what} checked no file`)
  const noShellcheck = shellcheckSkip() !== undefined
  assert.deepEqual(
    doc.files.flatMap((f) =>
      f.findings
        .filter((x) => !(noShellcheck && x.rule_id === 'entry/shellcheck'))
        .map((x) => ({ path: f.path, ...x })),
    ),
    [],
    what,
  )
}

/**
 * The pack README's way to add a case works: the example case under "## Its tests", added to
 * the pack's tests/, passes with the pack's own cases (`passed` of them in all).
 */
export async function assertReadmeExamplePasses(dir: string, parent: string, passed: number): Promise<void> {
  const readme = readFileSync(join(dir, 'README.md'), 'utf8')
  const block = /## Its tests\n[\s\S]*?```json\n([\s\S]*?)```/.exec(readme)
  assert.ok(block, 'no example case under "## Its tests"')
  writeFileSync(join(dir, 'tests/readme-example.json'), block[1])
  try {
    const r = await initCli(['test', dir, '--format', 'json'], { cwd: parent })
    assert.equal(r.code, 0, r.stderr + r.stdout)
    assert.equal(JSON.parse(r.stdout).summary.passed, passed)
  } finally {
    rmSync(join(dir, 'tests/readme-example.json'))
  }
}
