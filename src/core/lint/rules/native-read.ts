import { toText } from '../../go/gostring.js'
import type { NativeRule } from './util.js'

const rule: NativeRule = {
  id: 'native/read',
  severity: 'error',
  category: 'manager',
  kind: 'native',
  docs: 'The manager cannot read the SKILL.md (`chatruntime: read …`).',
  check(ctx, report) {
    const e = ctx.parse?.error
    if (e?.stage !== 'read' || !ctx.parse) return
    let hint: string | undefined
    report({ at: null, line: e.line, column: e.column, message: toText(e.message), hint })
  },
}
export default rule
