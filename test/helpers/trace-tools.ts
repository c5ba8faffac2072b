import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { findTools, probeSandbox } from '../../src/core/trace/strace-run.js'

/**
 * Why the trace tests cannot run here (strace missing), or null. With ONGRID_REQUIRE_STRACE=1 (CI)
 * a missing strace is a failure instead.
 */
export function straceMissing(): string | null {
  const found = findTools(false)
  if (found.ok) return null
  if (process.env.ONGRID_REQUIRE_STRACE === '1') assert.fail(`strace is required: ${found.line}`)
  return 'strace not installed (apt-get install strace; ONGRID_REQUIRE_STRACE=1 makes this a failure)'
}

/**
 * Why the sandbox tests cannot run here (bubblewrap missing, or no user namespaces), or null.
 * With ONGRID_REQUIRE_BWRAP=1 (CI) that is a failure instead.
 */
export function sandboxMissing(): string | null {
  const strace = straceMissing()
  if (strace !== null) return strace
  const found = findTools(true)
  const why = !found.ok ? found.line : probeSandbox(found.tools.bwrap ?? 'bwrap', false)
  if (why === null) return null
  if (process.env.ONGRID_REQUIRE_BWRAP === '1') assert.fail(`bubblewrap is required: ${why}`)
  return `${why} (ONGRID_REQUIRE_BWRAP=1 makes this a failure)`
}

/** Whether a command runs here (for the entries' own tools). */
export function runs(cmd: string, args: string[]): boolean {
  return spawnSync(cmd, args, { stdio: 'ignore' }).status === 0
}
