import { pack, packText } from '../rule-kit/examples.js'
import { keyText } from '../rule-kit/keys.js'
import type { ManifestRule } from '../rule-kit/util.js'

const rule: ManifestRule = {
  id: 'practice/duplicate-key',
  severity: 'warn',
  category: 'best-practice',
  kind: 'manifest',
  docs: 'A field is set more than once (case variants included): Go silently keeps the last value.',
  examples: {
    bad: [
      {
        files: packText(
          '{\n  "name": "disk_free",\n  "description": "Reports free space.",\n  "entry": "run.sh",\n  "class": "mutating",\n  "class": "safe"\n}\n',
        ),
      },
    ],
    good: [{ files: pack({ class: 'safe' }) }],
  },
  check(ctx, report) {
    if (!ctx.ok) return
    const seen = new Map<string, string>()
    for (const k of ctx.parsed?.keys ?? []) {
      const id = k.field ?? `\0${k.key}`
      const first = seen.get(id)
      if (first === undefined) {
        seen.set(id, keyText(k))
        continue
      }
      const name = k.field ?? keyText(k)
      report({
        at: k.offset,
        message: `"${name}" is set again (first as ${JSON.stringify(first)}): Go keeps the last value`,
      })
    }
  },
}
export default rule
