import type { GoString } from '../go/gostring.js'

/** A value yaml.v3 stored into the Skill struct, with the offset (in the YAML text) it came from. */
export type Decoded =
  | { k: 'string'; value: GoString; at: number }
  | { k: 'int'; value: bigint; at: number }
  | { k: 'list'; items: Decoded[]; at: number }
  | { k: 'fields'; fields: Map<string, Decoded>; at: number }
  | { k: 'other'; at: number }

/** The decoded value at a path of struct fields (`metadata`, `ongrid`, `activation`, …). */
export function decodedField(skill: Map<string, Decoded> | null, ...path: string[]): Decoded | undefined {
  let cur: Decoded | undefined = skill ? { k: 'fields', fields: skill, at: 0 } : undefined
  for (const p of path) {
    if (cur?.k !== 'fields') return undefined
    cur = cur.fields.get(p)
  }
  return cur
}

/** decodedField, when it is a string. */
export function stringField(
  skill: Map<string, Decoded> | null,
  ...path: string[]
): (Decoded & { k: 'string' }) | undefined {
  const f = decodedField(skill, ...path)
  return f?.k === 'string' ? f : undefined
}
