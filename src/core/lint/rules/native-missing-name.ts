import { toText } from '../../go/gostring.js'
import type { NativeRule } from './util.js'

const clip = (s: string) => ([...s].length > 40 ? `${[...s].slice(0, 40).join('')}…` : s)

const rule: NativeRule = {
  id: 'native/missing-name',
  severity: 'error',
  category: 'manager',
  kind: 'native',
  docs: 'The frontmatter has no (or a blank) `name`: the manager skips the file.',
  check(ctx, report) {
    const e = ctx.parse?.error
    if (e?.stage !== 'missing-name' || !ctx.parse) return
    let hint: string | undefined
    const first = ctx.parse.split?.ok ? ctx.parse.split.firstLine : null
    if (ctx.parse.split?.ok && ctx.parse.split.frontmatter === null) {
      hint = first
        ? `no frontmatter: the first non-blank line must be exactly "---" (it is ${JSON.stringify(clip(toText(first.text)))})`
        : 'no frontmatter: start the file with a "---" line, then name: and description:, then "---"'
    }
    report({ at: null, line: e.line, column: e.column, message: toText(e.message), hint })
  },
}
export default rule
