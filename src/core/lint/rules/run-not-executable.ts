import { lstatSync } from 'node:fs'
import { fromText, type GoString, toBuffer, toText } from '../../go/gostring.js'
import { pack } from '../rule-kit/examples.js'
import { entryProblemRule } from '../rule-kit/families.js'
import type { Fix } from '../types.js'

/**
 * Pure fixer: the permission bits `chmod +x` gives a file of these bits (an execute bit for each
 * read bit, as the usual umask makes it; the owner's at least).
 */
export function executableMode(mode: number): number {
  const perm = mode & 0o7777
  const x = (perm & 0o444) >> 2
  return perm | (x === 0 ? 0o100 : x)
}

/** The mode fix of an entry (the resolved path the manager runs, inside the allow-list root): a regular file. */
export function entryModeFix(entry: GoString): Fix | null {
  const file = toText(entry)
  if (fromText(file) !== entry) return null
  try {
    const st = lstatSync(toBuffer(entry))
    if (!st.isFile()) return null
    return { file, edits: [], mode: executableMode(st.mode) }
  } catch {
    return null
  }
}

export default entryProblemRule({
  id: 'run/not-executable',
  severity: 'error',
  docs: 'The entry has no execute bit: every run fails (`subprocess skill: entry … not executable`).',
  fixSafety: {
    safe: true,
    because:
      'the manager cannot start the entry without an execute bit; the fix adds execute bits beside the read bits the file already has and changes nothing else.',
  },
  examples: {
    bad: [{ files: pack({}, { 'run.sh': "#!/bin/sh\necho '{}'\n" }) }],
    good: [{ files: pack() }],
  },
  problem: 'not-executable',
  hint: () => 'chmod +x it (and commit the mode: git update-index --chmod=+x).',
  fix: ['mode', (ctx) => (ctx.skill ? entryModeFix(ctx.skill.entry) : null)],
})
