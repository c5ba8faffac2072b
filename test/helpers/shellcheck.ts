import { spawnSync } from 'node:child_process'

/** Whether `shellcheck` runs here. */
export const HAVE_SHELLCHECK = spawnSync('shellcheck', ['--version'], { stdio: 'ignore' }).status === 0

/**
 * Why a test that needs shellcheck is skipped here (undefined: it runs). With
 * ONGRID_REQUIRE_SHELLCHECK=1 (CI) a missing shellcheck fails instead.
 */
export function shellcheckSkip(): string | undefined {
  if (HAVE_SHELLCHECK) return undefined
  if (process.env.ONGRID_REQUIRE_SHELLCHECK === '1')
    throw new Error('shellcheck is required (ONGRID_REQUIRE_SHELLCHECK=1)')
  return 'shellcheck is not installed'
}
