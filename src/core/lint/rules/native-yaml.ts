import type { NativeRule } from './util.js'

const rule: NativeRule = {
  id: 'native/yaml',
  severity: 'error',
  category: 'manager',
  kind: 'native',
  docs: 'The frontmatter is not valid YAML: the manager skips the file (its yaml.v3 message is not reproduced; ours says what is wrong).',
  check(ctx, report) {
    const e = ctx.parse?.error
    if (e?.stage !== 'yaml') return
    report({ at: null, line: e.line, column: e.column, message: e.message })
  },
}
export default rule
