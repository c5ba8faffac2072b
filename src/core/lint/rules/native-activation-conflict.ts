import { toText } from '../../go/gostring.js'
import type { NativeRule } from './util.js'

const rule: NativeRule = {
  id: 'native/activation-conflict',
  severity: 'warn',
  category: 'manager',
  kind: 'native',
  docs: 'Both `activation` and `metadata.ongrid.activation` set different modes: the manager uses the latter, with a warning.',
  check(ctx, report) {
    for (const w of ctx.parse?.warnings ?? []) {
      if (w.code !== 'activation_conflict') continue
      report({ at: null, line: w.line, column: w.column, message: toText(w.reason) })
    }
  },
}
export default rule
