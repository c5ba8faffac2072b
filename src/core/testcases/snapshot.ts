import { renameSync, writeFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { stringify } from '../json-text.js'

/**
 * `--update`: writes each snapshot case's actual result into `expect.result` of its case
 * file. The file is rewritten as JSON with two-space indentation (keys and other cases kept
 * as they were), through a temp file and one rename, so it is never left half-written.
 */
export function writeSnapshots(
  file: string,
  json: unknown,
  updates: { index: number | null; result: unknown }[],
): void {
  // A copy through text: structuredClone recurses, and results may nest 10000 deep.
  const doc = JSON.parse(stringify(json)) as unknown
  for (const u of updates) {
    const c = (u.index === null ? doc : (doc as unknown[])[u.index]) as Record<string, unknown>
    const expect = (c.expect ?? {}) as Record<string, unknown>
    expect.result = u.result
    c.expect = expect
  }
  const tmp = join(dirname(file), `.${basename(file)}.${process.pid}.tmp`)
  writeFileSync(tmp, `${stringify(doc, 2)}\n`)
  renameSync(tmp, file)
}
