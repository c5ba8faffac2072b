/**
 * recheck's verdict on a schema pattern, behind the linear-time pre-filter (linear-pattern.ts):
 * the `schema/redos-pattern` rule's judge, and what decides whether a default or example may be
 * checked against a pattern on the main thread (where a regular expression cannot be stopped).
 */
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { packageRoot } from '../package-root.js'
import { isLinearPattern } from './linear-pattern.js'

/** How long the checker may analyse one pattern before it is left alone. */
const CHECK_TIMEOUT_MS = 2000

interface Diagnostics {
  status: 'safe' | 'vulnerable' | 'unknown'
  complexity?: { type: 'exponential' | 'polynomial' | 'safe' | 'linear'; degree?: number }
  attack?: { pattern: string }
}
type CheckSync = (source: string, flags: string, params?: { timeout?: number }) => Diagnostics

let checker: CheckSync | undefined
/**
 * recheck (a maintained ReDoS checker), loaded when a schema first has a pattern: the build's
 * dist/vendor/recheck.cjs (its JavaScript only, what the npm package ships: recheck is a
 * devDependency), else the package in a tree that was not built.
 */
function checkSync(): CheckSync {
  if (checker === undefined) {
    const bundled = join(packageRoot(), 'dist', 'vendor', 'recheck.cjs')
    const recheck = createRequire(import.meta.url)(existsSync(bundled) ? bundled : 'recheck') as {
      checkSync: CheckSync
    }
    checker = (source, flags, params) => {
      // Its in-process analysis: no helper process, no worker, a bound of its own (`timeout`).
      const before = process.env.RECHECK_SYNC_BACKEND
      process.env.RECHECK_SYNC_BACKEND = 'pure'
      try {
        return recheck.checkSync(source, flags, params)
      } finally {
        if (before === undefined) delete process.env.RECHECK_SYNC_BACKEND
        else process.env.RECHECK_SYNC_BACKEND = before
      }
    }
  }
  return checker
}

/**
 * ajv compiles schema patterns with the `u` flag. A pattern the pre-filter proves linear is safe
 * without loading recheck (about 0.2 s and 50 MB at the first pattern); the rest go to recheck.
 */
export function redosVerdict(pattern: string, prefilter = true): Diagnostics {
  if (prefilter && isLinearPattern(pattern)) return { status: 'safe' }
  try {
    return checkSync()(pattern, 'u', { timeout: CHECK_TIMEOUT_MS })
  } catch {
    return { status: 'unknown' }
  }
}

/**
 * Whether a pattern may run on the main thread over a value of bounded size: proved linear, or
 * judged safe by recheck. Unknown (recheck gave up) counts as unsafe.
 */
export function patternSafeToRun(pattern: string): boolean {
  return redosVerdict(pattern).status === 'safe'
}
