import { toText } from '../../go/gostring.js'
import { SKILL_MD, skillMd } from '../rule-kit/examples.js'
import type { NativeRule } from '../rule-kit/util.js'

const rule: NativeRule = {
  id: 'native/no-frontmatter',
  severity: 'warn',
  category: 'best-practice',
  kind: 'native',
  docs: 'The first non-blank line looks like a `---` fence but is not one for the manager (indented, BOM, `----`), so it sees no frontmatter.',
  examples: {
    bad: [{ files: skillMd(' ---\nname: disk_free\ndescription: Reports free space.\n---\n') }],
    good: [{ files: SKILL_MD }],
  },
  check(ctx, report) {
    const s = ctx.parse?.split
    if (!s?.ok || s.frontmatter !== null || !s.firstLine) return
    const t = toText(s.firstLine.text)
    if (!/^[\s\ufeff]*-{3,}[\s]*$/.test(t)) return
    report({
      at: null,
      line: s.firstLine.line,
      column: 1,
      message: `${JSON.stringify(t)} is not a frontmatter fence for the manager: the line must be exactly "---" (trailing spaces allowed), with nothing before it`,
    })
  },
}
export default rule
