import type { AnyRule } from './util.js'

/** Reported by the engine while it walks a dir (there is no file to check). */
const rule: AnyRule = {
  id: 'manager/walk',
  severity: 'error',
  category: 'manager',
  kind: 'any',
  docs: 'The loader cannot walk part of a dir (`walk P: …`): packs under it are never loaded.',
  check() {},
}
export default rule
