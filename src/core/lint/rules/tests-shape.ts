import { casesOf } from './tests-util.js'
import type { ManifestRule } from './util.js'

const rule: ManifestRule = {
  id: 'tests/shape',
  severity: 'error',
  category: 'tests',
  kind: 'manifest',
  docs: 'A case file that is not JSON, or a case whose fields have the wrong type, a missing `name` or `expect`, a bad Go duration or regular expression, contradictory expectations, or a name used twice: `test` cannot run it.',
  check(ctx, report) {
    for (const c of casesOf(ctx)) {
      for (const p of c.file.problems) {
        if (p.kind !== 'shape') continue
        const pos = c.position(p.pointer)
        report({ at: null, file: c.file.file, ...pos, message: `${p.pointer || '(file)'}: ${p.message}` })
      }
    }
  },
}
export default rule
