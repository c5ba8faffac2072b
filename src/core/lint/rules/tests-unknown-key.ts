import { casesOf } from './tests-util.js'
import type { ManifestRule } from './util.js'

const rule: ManifestRule = {
  id: 'tests/unknown-key',
  severity: 'error',
  category: 'tests',
  kind: 'manifest',
  docs: 'A key a case (or its `expect`) does not know: a typo that would silently assert nothing.',
  check(ctx, report) {
    for (const c of casesOf(ctx)) {
      for (const p of c.file.problems) {
        if (p.kind !== 'unknown-key') continue
        const pos = c.position(p.pointer)
        report({ at: null, file: c.file.file, ...pos, message: `${p.pointer || '(file)'}: ${p.message}` })
      }
    }
  },
}
export default rule
