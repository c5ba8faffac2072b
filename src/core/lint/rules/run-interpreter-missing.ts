import { closeSync, lstatSync, openSync, readSync } from 'node:fs'
import { fromBuffer, fromText, type GoString, toBuffer, toText } from '../../go/gostring.js'
import { pack } from '../rule-kit/examples.js'
import { entryProblemRule } from '../rule-kit/families.js'
import type { Fix, TextEdit } from '../types.js'

/**
 * Pure fixer: the edit that removes the CR ending a file's `#!` line (a script saved with CRLF:
 * the kernel takes the CR as part of the interpreter's name or argument), or null. `head`: the
 * file's first bytes, the `#!` line whole.
 */
export function fixShebangCr(head: GoString): TextEdit | null {
  if (!head.startsWith('#!')) return null
  const nl = head.indexOf('\n')
  if (nl < 1 || head[nl - 1] !== '\r') return null
  return { range: [nl - 1, nl], text: '' }
}

/** The CR fix of an entry, a regular file reached by its own name whose `#!` line ends in CR. */
export function entryCrFix(entry: GoString): Fix | null {
  const file = toText(entry)
  if (fromText(file) !== entry) return null
  try {
    if (!lstatSync(toBuffer(entry)).isFile()) return null
    const fd = openSync(toBuffer(entry), 'r')
    try {
      const buf = Buffer.alloc(256)
      const edit = fixShebangCr(fromBuffer(buf.subarray(0, readSync(fd, buf, 0, 256, 0))))
      return edit ? { file, edits: [edit] } : null
    } finally {
      closeSync(fd)
    }
  } catch {
    return null
  }
}

export default entryProblemRule({
  id: 'run/interpreter-missing',
  severity: 'warn',
  docs: 'The `#!` interpreter is missing (or not executable) on this machine: every run here would fail to start; the manager’s host may differ.',
  why: 'A script saved with CRLF line ends fails on every host, not only here: its `#!` line names `sh\\r`.',
  fixSafety: {
    safe: true,
    because:
      'a `#!` line ending in CR names an interpreter that exists nowhere (`/bin/sh\\r`); the fix removes only that CR.',
  },
  examples: {
    bad: [
      { files: pack({}, { 'run.sh': { exec: '#!/opt/no/such/python3\nprint("{}")\n' } }) },
      { files: pack({}, { 'run.sh': { exec: "#!/bin/sh\r\necho '{}'\r\n" } }) },
    ],
    good: [{ files: pack() }],
  },
  problem: 'interpreter',
  hint: (p) =>
    p.interpreter.endsWith('\r')
      ? 'the #! line ends in a CR (the file was saved with CRLF line ends): the kernel looks for an interpreter whose name ends in CR; save it with LF line ends.'
      : `${toText(p.interpreter)} ${p.missing ? 'does not exist' : 'is not executable'} on this machine; check that the manager's host has it.`,
  fix: ['text', (ctx, p) => (ctx.skill && p.interpreter.endsWith('\r') ? entryCrFix(ctx.skill.entry) : null)],
})
