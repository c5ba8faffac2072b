import { fromText, type GoString } from '../../go/gostring.js'
import { type JNode, nodeAt } from '../../json-tree.js'
import { distance } from '../../suggest.js'
import { CASE_KEYS, EXPECT_KEYS } from '../../testcases/cases.js'
import { renameKey } from '../fix.js'
import { CASE_OK, pack } from '../rule-kit/examples.js'
import { caseProblemRule } from '../rule-kit/families.js'
import type { TextEdit } from '../types.js'

/** The one known key within a slip of `key` (1 edit up to 4 chars, else 2) that `taken` lacks, or null. */
export function oneNearMatch(
  key: string,
  known: readonly string[],
  taken: ReadonlySet<string>,
): string | null {
  const limit = key.length <= 4 ? 1 : 2
  const near = known.filter((k) => !taken.has(k) && distance(key.toLowerCase(), k, false) <= limit)
  return near.length === 1 ? near[0] : null
}

/**
 * Pure fixer: in a case file's bytes (and its tree), the edit that renames the unknown key at a
 * JSON pointer to the one known key near it (a case's keys, or `expect`'s), or null (no single
 * near match, the key given twice, the known key already there).
 */
export function fixCaseKey(raw: GoString, tree: JNode, pointer: string): TextEdit | null {
  const cut = pointer.lastIndexOf('/')
  if (cut < 0) return null
  const parentPointer = pointer.slice(0, cut)
  const key = pointer
    .slice(cut + 1)
    .replace(/~1/g, '/')
    .replace(/~0/g, '~')
  const parent = nodeAt(tree, parentPointer)?.node
  if (parent?.kind !== 'object') return null
  const bytes = fromText(key)
  const same = parent.members.filter((m) => m.key === bytes)
  if (same.length !== 1) return null
  const known: readonly string[] = parentPointer.endsWith('/expect') ? EXPECT_KEYS : CASE_KEYS
  const want = oneNearMatch(key, known, new Set(parent.members.map((m) => m.key)))
  return want === null ? null : renameKey(raw, same[0].keyStart, want)
}

export default caseProblemRule({
  id: 'tests/unknown-key',
  severity: 'error',
  docs: 'A key a case (or its `expect`) does not know: a typo that would silently assert nothing.',
  why: 'An unknown key is ignored by `test`: a misspelt `expect` field asserts nothing, and the case passes whatever the skill does.',
  fixSafety: {
    safe: false,
    because:
      'the key is renamed to the one known key near it, which then starts asserting: a case that passed may fail, and the near key may not be the one meant.',
  },
  examples: {
    bad: [
      {
        files: pack(
          {},
          { 'tests/root.json': '{\n  "name": "root",\n  "expect": {"ok": true, "stdout": "x"}\n}\n' },
        ),
      },
      {
        files: pack(
          {},
          { 'tests/root.json': '{\n  "name": "root",\n  "expect": {"ok": true, "timedout": false}\n}\n' },
        ),
      },
    ],
    good: [{ files: pack({}, { 'tests/root.json': CASE_OK }) }],
  },
  problem: 'unknown-key',
  fix(c, p) {
    const tree = c.tree()
    const edit = tree ? fixCaseKey(c.raw, tree, p.pointer) : null
    return edit ? { edits: [edit] } : null
  },
})
