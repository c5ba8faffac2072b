import type { NativeRule } from './util.js'

const rule: NativeRule = {
  id: 'native/yaml',
  severity: 'error',
  category: 'manager',
  kind: 'native',
  docs: 'The frontmatter is not valid YAML for yaml.v3: the manager skips the file, with yaml.v3’s own message (`yaml: line N: …`).',
  check(ctx, report) {
    const e = ctx.parse?.error
    if (e?.stage !== 'yaml') return
    report({ at: null, line: e.line, column: e.column, message: e.message })
  },
}
export default rule
