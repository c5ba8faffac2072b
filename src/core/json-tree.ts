import { unquote } from './go/encoding/json/decode.js'
import { fromText, type GoString } from './go/gostring.js'

/**
 * A JSON value with the byte offsets of everything in it, read from text that Go's scanner
 * already found valid. Objects keep every member in document order, duplicates included
 * (Go keeps the last one; `lastMember` does the same).
 */
export type JNode = JObject | JArray | JString | JNumber | JLiteral

interface Span {
  /** Offset of the value's first byte. */
  start: number
  /** Offset just past its last byte. */
  end: number
}

export interface JMember {
  /** The decoded key (a byte string, invalid UTF-8 replaced as Go does). */
  key: GoString
  /** Offset of the key's opening quote. */
  keyStart: number
  value: JNode
}

export interface JObject extends Span {
  kind: 'object'
  members: JMember[]
}
export interface JArray extends Span {
  kind: 'array'
  items: JNode[]
}
export interface JString extends Span {
  kind: 'string'
  value: GoString
}
export interface JNumber extends Span {
  kind: 'number'
  /** The literal as written. */
  raw: string
}
export interface JLiteral extends Span {
  kind: 'true' | 'false' | 'null'
}

/**
 * Go's decoder refuses JSON nested deeper than this (encoding/json's scanner, maxNestingDepth):
 * text that reaches parseTree never does; the check is a guard, not a limit of its own.
 */
export const MAX_TREE_DEPTH = 10000

export class TooDeepError extends Error {
  constructor() {
    super(`JSON nested deeper than ${MAX_TREE_DEPTH} levels`)
  }
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d
}

/** An object or array being read, and for an object the key its next value goes under. */
interface Open {
  node: JObject | JArray
  key: GoString
  keyStart: number
}

/**
 * Parses the valid JSON value that starts at (or after white space from) `start`. Iterative (an
 * explicit stack): any depth Go accepts. Throws TooDeepError past MAX_TREE_DEPTH.
 */
export function parseTree(data: GoString, start = 0): JNode {
  let i = start
  const skip = () => {
    while (i < data.length && isSpace(data.charCodeAt(i))) i++
  }
  const stringEnd = (j: number): number => {
    for (let k = j + 1; ; k++) {
      const b = data.charCodeAt(k)
      if (b === 0x5c) k++
      else if (b === 0x22) return k + 1
    }
  }
  const stack: Open[] = []
  /** Reads an object's key and its colon into the open object on top. */
  const readKey = (top: Open) => {
    skip()
    top.keyStart = i
    const keyEnd = stringEnd(i)
    top.key = unquote(data, i, keyEnd)
    i = keyEnd
    skip()
    i++ // :
  }
  for (;;) {
    // One value starts here: a scalar is whole, a container is opened.
    skip()
    const s = i
    const c = data.charCodeAt(i)
    let done: JNode | null = null
    if (c === 0x7b || c === 0x5b) {
      if (stack.length >= MAX_TREE_DEPTH) throw new TooDeepError()
      i++
      const node: JObject | JArray =
        c === 0x7b
          ? { kind: 'object', start: s, end: s, members: [] }
          : { kind: 'array', start: s, end: s, items: [] }
      skip()
      if (data.charCodeAt(i) === (c === 0x7b ? 0x7d : 0x5d)) {
        i++
        node.end = i
        done = node
      } else {
        const open: Open = { node, key: '', keyStart: 0 }
        stack.push(open)
        if (c === 0x7b) readKey(open)
        continue
      }
    } else if (c === 0x22) {
      i = stringEnd(i)
      done = { kind: 'string', start: s, end: i, value: unquote(data, s, i) }
    } else if (c === 0x74) {
      i += 4
      done = { kind: 'true', start: s, end: i }
    } else if (c === 0x66) {
      i += 5
      done = { kind: 'false', start: s, end: i }
    } else if (c === 0x6e) {
      i += 4
      done = { kind: 'null', start: s, end: i }
    } else {
      i++
      while (i < data.length) {
        const b = data.charCodeAt(i)
        if ((b >= 0x30 && b <= 0x39) || b === 0x2e || b === 0x65 || b === 0x45 || b === 0x2b || b === 0x2d)
          i++
        else break
      }
      done = { kind: 'number', start: s, end: i, raw: data.slice(s, i) }
    }
    // Hand the finished value to the container it is in; close each container it completes.
    for (;;) {
      const top = stack[stack.length - 1]
      if (top === undefined) return done
      if (top.node.kind === 'object')
        top.node.members.push({ key: top.key, keyStart: top.keyStart, value: done })
      else top.node.items.push(done)
      skip()
      if (data.charCodeAt(i++) === 0x2c) {
        if (top.node.kind === 'object') readKey(top)
        break
      }
      top.node.end = i
      stack.pop()
      done = top.node
    }
  }
}

/** The member Go would keep for `key` (the last one), or undefined. */
export function lastMember(o: JObject, key: GoString): JMember | undefined {
  for (let k = o.members.length - 1; k >= 0; k--) if (o.members[k].key === key) return o.members[k]
  return undefined
}

/**
 * The node at a JSON pointer (`/properties/a`, text as ajv writes it), following the members
 * Go keeps, with the offset of the key (or array element) that leads to it; undefined if absent.
 */
export function nodeAt(root: JNode, pointer: string): { node: JNode; keyStart: number | null } | undefined {
  if (pointer === '' || pointer === '/') return { node: root, keyStart: null }
  let node: JNode = root
  let keyStart: number | null = null
  for (const raw of pointer.replace(/^\//, '').split('/')) {
    const token = fromText(raw.replace(/~1/g, '/').replace(/~0/g, '~'))
    if (node.kind === 'object') {
      const m = lastMember(node, token)
      if (!m) return undefined
      node = m.value
      keyStart = m.keyStart
    } else if (node.kind === 'array') {
      const n = Number(token)
      if (!Number.isInteger(n) || n < 0 || n >= node.items.length) return undefined
      node = node.items[n]
      keyStart = node.start
    } else return undefined
  }
  return { node, keyStart }
}
