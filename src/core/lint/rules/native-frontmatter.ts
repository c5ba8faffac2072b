import { toText } from '../../go/gostring.js'
import type { NativeRule } from './util.js'

const rule: NativeRule = {
  id: 'native/frontmatter',
  severity: 'error',
  category: 'manager',
  kind: 'native',
  docs: 'The frontmatter cannot be split: opened with `---` but never closed, or a line over 1 MiB.',
  check(ctx, report) {
    const e = ctx.parse?.error
    if (e?.stage !== 'split' || !ctx.parse) return
    let hint: string | undefined
    report({ at: null, line: e.line, column: e.column, message: toText(e.message), hint })
  },
}
export default rule
