import { toText } from '../../go/gostring.js'
import { pack } from '../rule-kit/examples.js'
import type { AnyRule } from '../rule-kit/util.js'

/** About the walk itself: a part of a dir it could not read (there is no file to check). */
const rule: AnyRule = {
  id: 'manager/walk',
  severity: 'error',
  category: 'manager',
  kind: 'any',
  docs: 'The loader cannot walk part of a dir (`walk P: …`): packs under it are never loaded.',
  examples: {
    bad: [{ files: { ...pack(), 'skills/locked': { dir: true, mode: 0o000 } } }],
    good: [{ files: { ...pack(), 'skills/open': { dir: true, mode: 0o755 } } }],
  },
  check() {},
  checkWalk(w, report) {
    if (w.err === null) return
    report({ at: null, message: toText(`walk ${w.path}: ${w.err.error()}`) })
  },
}
export default rule
