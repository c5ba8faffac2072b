import type { GoString } from '../../go/gostring.js'
import { parseTree } from '../../json-tree.js'
import type { ManifestContext } from '../context.js'

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
