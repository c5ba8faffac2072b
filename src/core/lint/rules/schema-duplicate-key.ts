import { toText } from '../../go/gostring.js'
import { pack, packText } from '../rule-kit/examples.js'
import { eachObject, type ManifestRule } from '../rule-kit/util.js'

const rule: ManifestRule = {
  id: 'schema/duplicate-key',
  severity: 'warn',
  category: 'best-practice',
  kind: 'manifest',
  docs: 'A key appears twice in one object of the schema: the bridge keeps the last one.',
  examples: {
    bad: [
      {
        files: packText(
          '{\n  "name": "disk_free",\n  "description": "Reports free space.",\n  "entry": "run.sh",\n  "schema": {"type": "object", "type": "object"}\n}\n',
        ),
      },
    ],
    good: [{ files: pack({ schema: { type: 'object' } }) }],
  },
  check(ctx, report) {
    const tree = ctx.schema()?.tree
    if (!tree) return
    eachObject(tree, (o) => {
      const seen = new Set<string>()
      for (const m of o.members) {
        if (seen.has(m.key)) {
          report({
            at: m.keyStart,
            message: `${JSON.stringify(toText(m.key))} appears again in this object: the last one wins`,
          })
        }
        seen.add(m.key)
      }
    })
  },
}
export default rule
