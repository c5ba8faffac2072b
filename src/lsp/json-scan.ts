/**
 * Where a position is in JSON text that may be half typed: the members and arrays around it, and
 * the string token under it. A lexical scan (strings, brackets, `:` and `,`), never an error:
 * completion and hover need the context while the text is not valid yet.
 */

export interface Frame {
  kind: 'object' | 'array'
  /** In an object: the key of the member being read (lower case, as Go folds keys), or null. */
  key: string | null
  /** In an object: whether a key comes next. */
  expectKey: boolean
}

export interface StringToken {
  /** Offsets in the text: the opening quote, and past the closing one (or the line's end). */
  start: number
  end: number
  value: string
  isKey: boolean
}

export interface JsonContext {
  /** The frames enclosing the position, outermost first. */
  frames: Frame[]
  /** The string token holding the position (after its opening quote), if any. */
  token: StringToken | null
  /** Keys of the top-level object (lower case), with the string value of each when it is one. */
  topLevel: Map<string, { value: string | null; valueStart: number; valueEnd: number }>
}

function readString(text: string, at: number): { end: number; value: string } {
  let value = ''
  let i = at + 1
  for (; i < text.length; i++) {
    const c = text[i]
    if (c === '\n' || c === '\r') return { end: i, value }
    if (c === '"') return { end: i + 1, value }
    if (c === '\\') {
      const n = text[++i]
      value += n === 'n' ? '\n' : n === 't' ? '\t' : (n ?? '')
    } else value += c
  }
  return { end: i, value }
}

/** The context of `offset` in `text` (the whole text is scanned for the top-level keys). */
export function scanJson(text: string, offset: number): JsonContext {
  const frames: Frame[] = []
  let atCursor: Frame[] | null = null
  let token: StringToken | null = null
  const topLevel: JsonContext['topLevel'] = new Map()
  const snapshot = () => frames.map((f) => ({ ...f }))
  for (let i = 0; i < text.length; i++) {
    if (atCursor === null && i >= offset) atCursor = snapshot()
    const c = text[i]
    const top = frames[frames.length - 1]
    if (c === '"') {
      const s = readString(text, i)
      const isKey = top?.kind === 'object' && top.expectKey
      if (atCursor === null && offset > i && offset <= s.end) {
        atCursor = snapshot()
        token = { start: i, end: s.end, value: s.value, isKey }
      }
      if (isKey) {
        top.key = s.value.toLowerCase()
        top.expectKey = false
        if (frames.length === 1) topLevel.set(top.key, { value: null, valueStart: s.end, valueEnd: s.end })
      } else if (frames.length === 1 && top?.kind === 'object' && top.key !== null)
        topLevel.set(top.key, { value: s.value, valueStart: i, valueEnd: s.end })
      i = s.end - 1
      continue
    }
    if (c === '{' || c === '[') {
      if (frames.length === 1 && top?.kind === 'object' && top.key !== null)
        topLevel.set(top.key, { value: null, valueStart: i, valueEnd: i })
      frames.push({ kind: c === '{' ? 'object' : 'array', key: null, expectKey: c === '{' })
    } else if (c === '}' || c === ']') frames.pop()
    else if (c === ',' && top?.kind === 'object') {
      top.expectKey = true
      top.key = null
    } else if (frames.length === 1 && top?.kind === 'object' && top.key !== null && /[-0-9a-z]/.test(c)) {
      if (!topLevel.has(top.key)) topLevel.set(top.key, { value: null, valueStart: i, valueEnd: i })
    }
  }
  return { frames: atCursor ?? snapshot(), token, topLevel }
}
