import assert from 'node:assert/strict'
import { type CliResult, runCli } from '../helpers/cli.js'

/** Runs the built CLI with a pipe for stdin (not a terminal: init must never prompt). */
export function initCli(
  args: string[],
  o: { cwd: string; env?: Record<string, string | undefined> },
): Promise<CliResult> {
  return runCli(args, { cwd: o.cwd, env: { NO_COLOR: '1', CI: '1', ...o.env }, stdin: 'open' })
}

/** A validate/lint --json document with no finding at all (each shown with its file). */
export function assertNoFindings(r: CliResult, what: string) {
  assert.equal(r.code, 0, `${what}: ${r.stderr}${r.stdout}`)
  const doc = JSON.parse(r.stdout) as { files: { path: string; findings: unknown[] }[] }
  assert.ok(doc.files.length > 0, `${what} checked no file`)
  assert.deepEqual(
    doc.files.flatMap((f) => f.findings.map((x) => ({ path: f.path, ...(x as object) }))),
    [],
    what,
  )
}
