/**
 * Text the model reads: a skill's `description`, and every `description` and `title` of its
 * schema. Shared by the text/ rules: hidden characters in it, and instructions aimed at the model.
 */
import type { GoString } from '../../go/gostring.js'
import { type JString, parseTree } from '../../json-tree.js'
import type { ManifestContext } from '../context.js'
import { eachSchemaObject, effectiveMembers } from './util.js'

export interface ModelText {
  /** Where it is, as messages name it: `description`, `schema /properties/path description`. */
  where: string
  node: JString
}

/** The description (the value Go keeps) and the schema's descriptions and titles, in file order. */
export function modelTexts(ctx: ManifestContext): ModelText[] {
  const out: ModelText[] = []
  const key = ctx.ok ? ctx.lastKey('description') : undefined
  if (key) {
    const node = parseTree(ctx.raw, key.valueOffset)
    if (node.kind === 'string') out.push({ where: 'description', node })
  }
  const tree = ctx.schema()?.tree
  if (tree) {
    eachSchemaObject(tree, (o, pointer) => {
      for (const m of effectiveMembers(o)) {
        if ((m.key === 'description' || m.key === 'title') && m.value.kind === 'string')
          out.push({ where: `schema ${pointer === '' ? '' : `${pointer} `}${m.key}`, node: m.value })
      }
    })
  }
  return out
}

/** One character of a JSON string as stored: its code point and the byte offset where it is written. */
export interface StoredChar {
  cp: number
  at: number
}

/**
 * The characters of a JSON string literal `raw[start, end)` (quotes included) with the offset
 * where each is written: a UTF-8 sequence, or a `\u` escape (a surrogate pair as one).
 */
export function storedChars(raw: GoString, start: number, end: number): StoredChar[] {
  const out: StoredChar[] = []
  const hex = (i: number) => Number.parseInt(raw.slice(i, i + 4), 16)
  for (let i = start + 1; i < end - 1; ) {
    const b = raw.charCodeAt(i)
    if (b === 0x5c) {
      if (raw[i + 1] !== 'u') {
        i += 2
        continue
      }
      let cp = hex(i + 2)
      let len = 6
      if (cp >= 0xd800 && cp < 0xdc00 && raw[i + 6] === '\\' && raw[i + 7] === 'u') {
        const lo = hex(i + 8)
        if (lo >= 0xdc00 && lo < 0xe000) {
          cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00)
          len = 12
        }
      }
      out.push({ cp, at: i })
      i += len
      continue
    }
    const len = b < 0x80 ? 1 : b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1
    let cp = len === 1 ? b : b & (0xff >> (len + 1))
    for (let k = 1; k < len; k++) cp = (cp << 6) | (raw.charCodeAt(i + k) & 0x3f)
    out.push({ cp, at: i })
    i += len
  }
  return out
}
