import { toText } from '../../go/gostring.js'
import { decodedField, stringField } from '../../native/fields.js'
import { skillMdWith } from '../rule-kit/examples.js'
import type { NativeRule } from '../rule-kit/util.js'

const CLASSES = new Set(['read', 'write', 'destructive'])

const rule: NativeRule = {
  id: 'native/tool-class',
  severity: 'warn',
  category: 'best-practice',
  kind: 'native',
  docs: '`tools[].class` is not read, write or destructive. Best practice of ours: the manager does not check it (an empty class counts as read).',
  examples: {
    bad: [{ files: skillMdWith('tools:\n  - name: df\n    class: readonly\n') }],
    good: [{ files: skillMdWith('tools:\n  - name: df\n    class: read\n') }],
  },
  check(ctx, report) {
    const p = ctx.parse
    const tools = decodedField(p?.skill ?? null, 'tools')
    if (!p || tools?.k !== 'list') return
    tools.items.forEach((t, i) => {
      if (t.k !== 'fields') return
      const c = stringField(t.fields, 'class')
      if (!c || c.value === '' || CLASSES.has(c.value)) return
      const name = stringField(t.fields, 'name')?.value
      report({
        at: null,
        ...p.pos(c.at),
        message: `tool ${name ? JSON.stringify(toText(name)) : `#${i + 1}`}: class ${JSON.stringify(toText(c.value))} is not read, write or destructive (the manager accepts any value without a word)`,
      })
    })
  },
}
export default rule
