import { closeSync, openSync, readSync } from 'node:fs'
import { type GoString, toBuffer, toText } from '../go/gostring.js'
import { stat } from '../go/os/file.js'

export type RunProblemKind = 'stat' | 'directory' | 'not-executable' | 'no-shebang'

export interface RunProblem {
  kind: RunProblemKind
  /** A sentence for humans. */
  hint: string
}

/**
 * Why an entry that the loader accepts would fail on every run (spec section 6):
 * the executor's stat and mode checks, and the kernel refusing a file that is
 * neither a `#!` script nor an ELF binary (exec format error; Go never falls back to /bin/sh).
 */
export function entryRunProblem(entry: GoString): RunProblem | null {
  const info = stat(entry)
  if (!info.ok) return { kind: 'stat', hint: `cannot stat the entry: ${toText(info.err.error())}` }
  if (info.value.isDir()) return { kind: 'directory', hint: `the entry ${toText(entry)} is a directory.` }
  if ((info.value.mode & 0o111) === 0) {
    return { kind: 'not-executable', hint: `the entry ${toText(entry)} is not executable (chmod +x it).` }
  }
  const head = readHead(entry, 4)
  if (head !== null && !head.startsWith('#!') && head !== '\x7fELF') {
    return {
      kind: 'no-shebang',
      hint: `the entry ${toText(entry)} has no "#!" line and is not an ELF binary: exec fails with "exec format error".`,
    }
  }
  return null
}

function readHead(path: GoString, n: number): string | null {
  try {
    const fd = openSync(toBuffer(path), 'r')
    try {
      const buf = Buffer.alloc(n)
      const got = readSync(fd, buf, 0, n, 0)
      return buf.subarray(0, got).toString('latin1')
    } finally {
      closeSync(fd)
    }
  } catch {
    return null
  }
}
