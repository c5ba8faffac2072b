import assert from 'node:assert/strict'
import { isUtf8 } from 'node:buffer'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, relative } from 'node:path'
import { REPO } from './cli.js'

/**
 * Compares ACTUAL with the golden file at PATH (absolute, or relative to the repository root),
 * byte for byte; a string is its UTF-8 bytes. With UPDATE_GOLDEN=1 the file is written instead
 * (review the diff before committing it). A missing golden is written and fails the test.
 */
export function expectGolden(path: string, actual: string | Buffer): void {
  const file = path.startsWith('/') ? path : `${REPO}/${path}`
  const name = relative(REPO, file)
  const got = typeof actual === 'string' ? Buffer.from(actual, 'utf8') : actual
  const update = process.env.UPDATE_GOLDEN === '1'
  if (update || !existsSync(file)) {
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, got)
    if (!update) assert.fail(`wrote missing golden ${name}: check it in`)
    return
  }
  const want = readFileSync(file)
  if (got.equals(want)) return
  // Shown as text for the assertion's diff: UTF-8 when both are, else latin1 (one char a byte).
  const enc = isUtf8(got) && isUtf8(want) ? 'utf8' : 'latin1'
  assert.equal(got.toString(enc), want.toString(enc), `golden ${name} differs (UPDATE_GOLDEN=1 to accept)`)
  assert.fail(`golden ${name} differs (UPDATE_GOLDEN=1 to accept)`)
}
