import { toText } from '../../go/gostring.js'
import type { NativeRule } from './util.js'

const rule: NativeRule = {
  id: 'native/yaml-type',
  severity: 'error',
  category: 'manager',
  kind: 'native',
  docs: 'yaml.v3 cannot decode the frontmatter into the manager’s Skill struct (its type errors, duplicate keys).',
  check(ctx, report) {
    const e = ctx.parse?.error
    if (e?.stage !== 'yaml-type' || !ctx.parse) return
    let hint: string | undefined
    report({ at: null, line: e.line, column: e.column, message: toText(e.message), hint })
  },
}
export default rule
