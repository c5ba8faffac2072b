import { chmodSync, readFileSync } from 'node:fs'
import { REPO, runCliSync } from './cli.js'
import { expectGolden } from './golden.js'

export { REPO }
export const PACKS = `${REPO}/test/fixtures/lint/packs`

/** Runs the built CLI from the repo root (paths in reports are relative to it). */
export function cli(args: string[], env: Record<string, string | undefined> = {}, cwd = REPO) {
  const r = runCliSync(args, { env, cwd })
  return { code: r.code, stdout: r.stdout, stderr: r.stderr }
}

/** Git keeps only the x bit: make the fixture modes what the packs say. */
export function fixModes(): void {
  for (const p of ['good', 'bad_name', 'clash', 'sloppy', 'no_shebang', 'long_timeout'])
    chmodSync(`${PACKS}/${p}/run.sh`, 0o755)
}

const VERSION = JSON.parse(readFileSync(`${REPO}/package.json`, 'utf8')).version as string

/** Machine-specific parts of an output (and the package version), made stable. */
export function normalize(s: string): string {
  return s
    .replaceAll(`file://${REPO}/`, 'file:///REPO/')
    .replaceAll(REPO, '/REPO')
    .replaceAll(`"version": "${VERSION}"`, '"version": "X.Y.Z"')
}

/** Compares with test/fixtures/lint/golden/NAME, normalized (expectGolden: UPDATE_GOLDEN=1 rewrites it). */
export function golden(name: string, actual: string): void {
  expectGolden(`test/fixtures/lint/golden/${name}`, normalize(actual))
}
