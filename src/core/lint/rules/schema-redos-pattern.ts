import { toText } from '../../go/gostring.js'
import { redosVerdict } from '../../schema/redos.js'
import { pack } from '../rule-kit/examples.js'
import { eachSchemaObject, effectiveMembers, type ManifestRule, member } from '../rule-kit/util.js'

const rule: ManifestRule = {
  id: 'schema/redos-pattern',
  severity: 'warn',
  category: 'best-practice',
  kind: 'manifest',
  docs: 'A `pattern` (or a `patternProperties` key) backtracks catastrophically on some strings (`^(a+)+$`): whoever validates the args with it — the LLM bridge, a gateway, `run` — can be stalled by one short value. Checked with recheck.',
  examples: {
    bad: [
      {
        files: pack({
          schema: { type: 'object', properties: { host: { type: 'string', pattern: '^(a+)+$' } } },
        }),
      },
    ],
    good: [
      {
        files: pack({
          schema: { type: 'object', properties: { host: { type: 'string', pattern: '^a+$' } } },
        }),
      },
    ],
  },
  check(ctx, report) {
    const tree = ctx.schema()?.tree
    if (!tree) return
    const flag = (source: string, at: number, where: string) => {
      const v = redosVerdict(source)
      if (v.status !== 'vulnerable') return
      const kind =
        v.complexity?.type === 'polynomial'
          ? `polynomial (degree ${v.complexity.degree ?? '?'})`
          : (v.complexity?.type ?? 'super-linear')
      report({
        at,
        message: `${where}: the pattern ${JSON.stringify(source)} backtracks catastrophically (${kind} time)${v.attack ? `, e.g. on ${v.attack.pattern}` : ''}`,
        hint: 'rewrite it without nested or overlapping repetition (`^a+$` instead of `^(a+)+$`), or bound the string with maxLength',
      })
    }
    eachSchemaObject(tree, (o, pointer) => {
      const p = member(o, 'pattern')
      if (p && p.value.kind === 'string') flag(toText(p.value.value), p.keyStart, `schema${pointer}/pattern`)
      const pp = member(o, 'patternProperties')
      if (pp && pp.value.kind === 'object') {
        for (const m of effectiveMembers(pp.value)) {
          flag(toText(m.key), m.keyStart, `schema${pointer}/patternProperties`)
        }
      }
    })
  },
}
export default rule
