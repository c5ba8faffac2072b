/**
 * JSON.stringify for values of any depth. V8's JSON.stringify recurses and throws
 * "Maximum call stack size exceeded" from a few thousand levels, whereas Go's decoder accepts
 * 10000 (args and results the manager passes through). The same text when JSON.stringify
 * manages; otherwise an iterative writer, with levels below COMPACT_BELOW written without
 * white space (the same value, and no hundreds of megabytes of indentation).
 */

/** Depth from which the iterative writer drops indentation. */
const COMPACT_BELOW = 64

export function stringify(value: unknown, indent = 0): string {
  try {
    return JSON.stringify(value, null, indent)
  } catch (e) {
    if (!(e instanceof RangeError)) throw e
    return stringifyDeep(value, indent)
  }
}

interface Frame {
  close: string
  entries: [key: string | null, value: unknown][]
  i: number
  depth: number
}

/** JSON.stringify's conversions: toJSON, then undefined/functions/symbols dropped (null in arrays). */
function prepare(v: unknown, key: string): unknown {
  if (v !== null && typeof v === 'object' && typeof (v as { toJSON?: unknown }).toJSON === 'function') {
    return (v as { toJSON: (k: string) => unknown }).toJSON(key)
  }
  return v
}

function omitted(v: unknown): boolean {
  return v === undefined || typeof v === 'function' || typeof v === 'symbol'
}

export function stringifyDeep(root: unknown, indent = 0): string {
  const gap = ' '.repeat(Math.max(0, Math.min(10, indent)))
  const parts: string[] = []
  const stack: Frame[] = []
  const emit = (raw: unknown, key: string, depth: number, inArray: boolean) => {
    const v = prepare(raw, key)
    if (omitted(v)) {
      parts.push(inArray ? 'null' : '')
      return
    }
    if (v === null || typeof v !== 'object') {
      const s = JSON.stringify(v)
      parts.push(s === undefined ? 'null' : s)
      return
    }
    let entries: [string | null, unknown][]
    if (Array.isArray(v)) {
      entries = v.map((x) => [null, x])
      parts.push('[')
      stack.push({ close: ']', entries, i: 0, depth })
    } else {
      entries = []
      for (const k of Object.keys(v)) {
        const x = prepare((v as Record<string, unknown>)[k], k)
        if (!omitted(x)) entries.push([k, x])
      }
      parts.push('{')
      stack.push({ close: '}', entries, i: 0, depth })
    }
  }
  emit(root, '', 0, false)
  while (stack.length > 0) {
    const f = stack[stack.length - 1]
    const pretty = gap !== '' && f.depth < COMPACT_BELOW
    if (f.i < f.entries.length) {
      const [key, v] = f.entries[f.i]
      if (f.i > 0) parts.push(',')
      f.i++
      if (pretty) parts.push(`\n${gap.repeat(f.depth + 1)}`)
      if (key !== null) parts.push(`${JSON.stringify(key)}:${pretty ? ' ' : ''}`)
      emit(v, key ?? String(f.i - 1), f.depth + 1, key === null)
    } else {
      stack.pop()
      if (pretty && f.entries.length > 0) parts.push(`\n${gap.repeat(f.depth)}`)
      parts.push(f.close)
    }
  }
  return parts.join('')
}
