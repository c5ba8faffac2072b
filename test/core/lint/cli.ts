import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'

export const REPO = fileURLToPath(new URL('../../../../', import.meta.url)).replace(/\/$/, '')
export const BIN = `${REPO}/bin/run.js`
export const PACKS = `${REPO}/test/fixtures/lint/packs`
const GOLDEN = `${REPO}/test/fixtures/lint/golden`

/** Runs the built CLI from the repo root (paths in reports are relative to it). */
export function cli(args: string[], env: Record<string, string | undefined> = {}, cwd = REPO) {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd,
    env: { ...process.env, NO_COLOR: undefined, FORCE_COLOR: undefined, GITHUB_WORKSPACE: undefined, ...env },
    encoding: 'utf8',
  })
  return { code: r.status, stdout: r.stdout, stderr: r.stderr }
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

/** Compares with test/fixtures/lint/golden/NAME; UPDATE_GOLDEN=1 rewrites it. */
export function golden(name: string, actual: string): void {
  const path = `${GOLDEN}/${name}`
  const got = normalize(actual)
  if (process.env.UPDATE_GOLDEN === '1' || !existsSync(path)) {
    mkdirSync(dirname(path), { recursive: true })
    writeFileSync(path, got)
    if (process.env.UPDATE_GOLDEN !== '1') assert.fail(`wrote missing golden ${name}: check it in`)
    return
  }
  assert.equal(got, readFileSync(path, 'utf8'), `golden ${name} differs (UPDATE_GOLDEN=1 to accept)`)
}
