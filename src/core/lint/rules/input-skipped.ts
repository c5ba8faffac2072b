import type { AnyRule } from './util.js'

const rule: AnyRule = {
  id: 'input/skipped',
  severity: 'error',
  category: 'manager',
  kind: 'any',
  docs: 'ongrid-skill did not read the file: larger than 16 MiB, or not a regular file (FIFO, device).',
  check(ctx, report) {
    if (ctx.skipped === null) return
    report({ at: null, message: `not checked: ${ctx.skipped}` })
  },
}
export default rule
