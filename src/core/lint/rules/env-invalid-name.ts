import { type GoString, toText, trimSpace } from '../../go/gostring.js'
import { parseTree } from '../../json-tree.js'
import type { ManifestContext } from '../context.js'
import { pack } from './examples.js'
import type { ManifestRule } from './util.js'

/** env_allow elements as Go keeps them (null → ""), each with the offset of its element. */
export function envElements(ctx: ManifestContext): { value: GoString; at: number; end: number | null }[] {
  if (!ctx.ok) return []
  const key = ctx.lastKey('env_allow')
  const values = ctx.parsed?.manifest.envAllow
  if (!key || !values) return []
  const tree = parseTree(ctx.raw, key.valueOffset)
  if (tree.kind !== 'array') return []
  return values.map((value, i) => ({
    value,
    at: tree.items[i]?.start ?? key.offset,
    end: tree.items[i]?.kind === 'string' ? tree.items[i].end : null,
  }))
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/

const rule: ManifestRule = {
  id: 'env/invalid-name',
  severity: 'error',
  category: 'manager',
  kind: 'manifest',
  docs: 'An env_allow name (after trimming) is not an environment variable name `[A-Za-z_][A-Za-z0-9_]*`.',
  examples: {
    bad: [{ files: pack({ env_allow: ['PATH', 'MY-VAR'] }) }],
    good: [{ files: pack({ env_allow: ['PATH', 'MY_VAR'] }) }],
  },
  check(ctx, report) {
    for (const e of envElements(ctx)) {
      const name = trimSpace(e.value)
      if (name === '' || NAME.test(name)) continue
      report({
        at: e.at,
        message: `${JSON.stringify(toText(name))} is not a valid environment variable name ([A-Za-z_][A-Za-z0-9_]*): shells cannot set such a name, so the manager will not find it in its environment`,
      })
    }
  },
}
export default rule
