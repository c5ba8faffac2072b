import { type GoString, trimSpace } from '../go/gostring.js'

// Its own module: lint's manager rules name it, and loading skill-md.ts (with the YAML decoder)
// for a run that checks no SKILL.md costs about 1 ms at start.

/** normalizeSnakeName: ToLower(TrimSpace), runs outside [a-z0-9_] → `_`, trim `_`, "" → "unnamed". */
export function normalizeSnakeName(name: GoString): GoString {
  let s = trimSpace(name)
  // strings.ToLower: only the runes that lower to ASCII matter, the rest becomes `_` anyway.
  s = s
    .replace(/\xc4\xb0/g, 'i')
    .replace(/\xe2\x84\xaa/g, 'k')
    .replace(/[A-Z]/g, (c) => c.toLowerCase())
  s = s.replace(/[^a-z0-9_]+/g, '_').replace(/^_+|_+$/g, '')
  return s === '' ? 'unnamed' : s
}
