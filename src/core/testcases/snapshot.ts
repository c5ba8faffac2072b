import { renameSync, writeFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'

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
  const doc = structuredClone(json)
  for (const u of updates) {
    const c = (u.index === null ? doc : (doc as unknown[])[u.index]) as Record<string, unknown>
    const expect = (c.expect ?? {}) as Record<string, unknown>
    expect.result = u.result
    c.expect = expect
  }
  const tmp = join(dirname(file), `.${basename(file)}.${process.pid}.tmp`)
  writeFileSync(tmp, `${JSON.stringify(doc, null, 2)}\n`)
  renameSync(tmp, file)
}
