import { toText } from '../../go/gostring.js'
import type { NativeRule } from './util.js'

const rule: NativeRule = {
  id: 'native/name-normalized',
  severity: 'warn',
  category: 'manager',
  kind: 'native',
  docs: 'The name is not snake_case: the manager loads the skill under a normalised name, with a warning.',
  check(ctx, report) {
    for (const w of ctx.parse?.warnings ?? []) {
      if (w.code !== 'name_normalized') continue
      report({ at: null, line: w.line, column: w.column, message: toText(w.reason) })
    }
  },
}
export default rule
