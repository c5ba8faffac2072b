import { toText } from '../../go/gostring.js'
import type { NativeRule } from './util.js'

const rule: NativeRule = {
  id: 'native/missing-description',
  severity: 'error',
  category: 'manager',
  kind: 'native',
  docs: 'The frontmatter has no (or a blank) `description`: the manager skips the file.',
  check(ctx, report) {
    const e = ctx.parse?.error
    if (e?.stage !== 'missing-description' || !ctx.parse) return
    let hint: string | undefined
    report({ at: null, line: e.line, column: e.column, message: toText(e.message), hint })
  },
}
export default rule
