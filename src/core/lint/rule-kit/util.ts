import { type JArray, type JMember, type JNode, type JObject, lastMember, nodeAt } from '../../json-tree.js'
import { SUBSCHEMA, SUBSCHEMA_LIST, SUBSCHEMA_MAP } from '../../schema/keywords.js'
import type { ManifestContext, NativeContext } from '../context.js'
import type { Rule } from '../types.js'

export type ManifestRule = Rule<ManifestContext> & { kind: 'manifest' }
export type NativeRule = Rule<NativeContext> & { kind: 'native' }
export type AnyRule = Rule<ManifestContext | NativeContext> & { kind: 'any' }

/** The members Go keeps (the last of each key), in document order of those. */
export function effectiveMembers(o: JObject): JMember[] {
  const last = new Map<string, JMember>()
  for (const m of o.members) last.set(m.key, m)
  return o.members.filter((m) => last.get(m.key) === m)
}

export function member(o: JNode | undefined, key: string): JMember | undefined {
  return o?.kind === 'object' ? lastMember(o, key) : undefined
}

/**
 * Every object subschema of a schema tree (the root included), with its JSON pointer, in document
 * order (depth-first, a subschema before the ones inside it). Iterative: any depth the tree has.
 */
export function eachSchemaObject(root: JNode, fn: (o: JObject, pointer: string) => void): void {
  const stack: [JNode, string][] = [[root, '']]
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [n, pointer] = top
    if (n.kind !== 'object') continue
    fn(n, pointer)
    const next: [JNode, string][] = []
    for (const m of effectiveMembers(n)) {
      const p = `${pointer}/${m.key}`
      const v = m.value
      if (SUBSCHEMA_LIST.has(m.key) && v.kind === 'array')
        (v as JArray).items.forEach((x, i) => {
          next.push([x, `${p}/${i}`])
        })
      else if (SUBSCHEMA.has(m.key)) next.push([v, p])
      else if (SUBSCHEMA_MAP.has(m.key) && v.kind === 'object') {
        for (const sub of effectiveMembers(v)) next.push([sub.value, `${p}/${sub.key}`])
      }
    }
    // Pushed in reverse, popped in document order.
    for (let i = next.length - 1; i >= 0; i--) stack.push(next[i])
  }
}

/** Every object in a JSON tree (for duplicate keys), depth-first. */
export function eachObject(root: JNode, fn: (o: JObject) => void): void {
  const stack: JNode[] = [root]
  while (stack.length > 0) {
    const n = stack.pop() as JNode
    if (n.kind === 'object') {
      fn(n)
      for (let i = n.members.length - 1; i >= 0; i--) stack.push(n.members[i].value)
    } else if (n.kind === 'array') {
      for (let i = n.items.length - 1; i >= 0; i--) stack.push(n.items[i])
    }
  }
}

/** Offset of the node at a pointer into the schema (its key when it has one). */
export function schemaOffset(ctx: ManifestContext, pointer: string, preferKey = true): number | null {
  const s = ctx.schema()
  if (!s?.tree) return ctx.keyAt('schema')
  const hit = nodeAt(s.tree, pointer)
  if (!hit) return s.key.offset
  if (preferKey && hit.keyStart !== null) return hit.keyStart
  return hit.node.start
}
