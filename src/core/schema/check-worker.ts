/**
 * The worker side of bounded.ts: compiles the schema, says so (the time budget starts then),
 * validates each value in turn and posts each verdict.
 */
import { parentPort, workerData } from 'node:worker_threads'
import type { WorkerMessage } from './bounded.js'
import { compileSchema, issues } from './compile.js'

const { schema, values } = workerData as { schema: unknown; values: unknown[] }
const post = (m: WorkerMessage) => parentPort!.postMessage(m)

const compiled = await compileSchema(schema, { strict: false })
if (!compiled.ok) post({ kind: 'uncompiled', error: compiled.error })
else {
  post({ kind: 'compiled' })
  for (const value of values) {
    if (compiled.schema.validate(value)) post({ kind: 'valid' })
    else post({ kind: 'invalid', issues: issues(compiled.schema.validate.errors, schema, value) })
  }
}
