import type { GoString } from '../../go/gostring.js'

/** A lower_snake suggestion for a name the loader refuses (ours; the manager suggests nothing). */
export function normalizeName(name: GoString): GoString {
  const s = name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '_')
    .replace(/^_+|_+$/g, '')
  return s === '' ? 'my_skill' : s
}
