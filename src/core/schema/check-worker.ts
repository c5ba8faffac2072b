/**
 * The worker side of bounded.ts: compiles the schema, says so (the time budget starts then),
 * validates the args and posts the verdict.
 */
import { parentPort, workerData } from 'node:worker_threads'
import type { WorkerMessage } from './bounded.js'
import { compileSchema, issues } from './compile.js'

const { schema, value } = workerData as { schema: unknown; value: unknown }
const post = (m: WorkerMessage) => parentPort!.postMessage(m)

const compiled = await compileSchema(schema, { strict: false })
if (!compiled.ok) post({ kind: 'uncompiled', error: compiled.error })
else {
  post({ kind: 'compiled' })
  if (compiled.schema.validate(value)) post({ kind: 'valid' })
  else post({ kind: 'invalid', issues: issues(compiled.schema.validate.errors) })
}
