import { closeSync, openSync, readSync } from 'node:fs'
import { entryPreflight, startFailureMessage } from '../executor/entry-preflight.js'
import { execFormatError } from '../executor/exec-format.js'
import type { GoError } from '../go/errors.js'
import { type GoString, toBuffer, trimSpace } from '../go/gostring.js'
import { ENOENT, isNotExist } from '../go/os/errors.js'
import { stat } from '../go/os/file.js'
import { base, join } from '../go/path/filepath/path.js'

/**
 * What the entry checks remember within one check (a lint or validate run), which many packs
 * share: the files' first bytes, the kernel's verdict per `#!` interpreter, os.Stat of
 * interpreters and programs. One per run, so that a file changed between two runs in one
 * process is read again.
 */
export interface EntryCache {
  /** The first 256 bytes of each file read (the kernel's BINPRM_BUF_SIZE). */
  heads: Map<GoString, Buffer | null>
  /** execFormatError per `#!` interpreter. */
  byInterpreter: Map<GoString, GoError | null>
  stats: Map<GoString, ReturnType<typeof stat>>
}

export function newEntryCache(): EntryCache {
  return { heads: new Map(), byInterpreter: new Map(), stats: new Map() }
}

/** What every run of a registered skill would hit (spec section 6), first problem only. */
export type EntryProblem =
  | { kind: 'stat' | 'directory' | 'not-executable' | 'exec-format'; message: GoString }
  | { kind: 'interpreter'; message: GoString; interpreter: GoString; missing: boolean }

/**
 * The executor's checks in its order, with its messages (`entryPreflight`): os.Stat, directory, execute bits,
 * then what execve would answer (exec format error: no `#!` and not an ELF binary for this
 * machine; a `#!` interpreter that is missing or not executable here).
 */
export function entryProblem(
  key: GoString,
  entry: GoString,
  cache: EntryCache = newEntryCache(),
): EntryProblem | null {
  const pre = entryPreflight(entry)
  if (!pre.ok) return { kind: pre.kind, message: pre.message }
  const start = (err: GoError | string) =>
    startFailureMessage(key, entry, typeof err === 'string' ? err : err.error())
  // execve refuses anything but a regular file (EACCES); reading a FIFO here would block.
  if (!pre.info.isRegular()) return { kind: 'exec-format', message: start('permission denied') }
  const sb = shebang(entry, cache)
  const noExec = formatVerdict(entry, sb, cache)
  if (noExec) return { kind: 'exec-format', message: start(noExec) }
  if (sb !== null && sb.interpreter !== '') {
    const i = cachedStat(sb.interpreter, cache)
    if (!i.ok) {
      const missing = isNotExist(i.err)
      return {
        kind: 'interpreter',
        message: start(missing ? ENOENT.error() : i.err.error().replace(/^.*: /, '')),
        interpreter: sb.interpreter,
        missing,
      }
    }
    if (i.value.isDir() || (i.value.mode & 0o111) === 0) {
      return {
        kind: 'interpreter',
        message: start('permission denied'),
        interpreter: sb.interpreter,
        missing: false,
      }
    }
  }
  return null
}

function readHead(path: GoString, { heads }: EntryCache): Buffer | null {
  const cached = heads.get(path)
  if (cached !== undefined) return cached
  let head: Buffer | null = null
  try {
    const fd = openSync(toBuffer(path), 'r')
    try {
      const buf = Buffer.alloc(256)
      head = buf.subarray(0, readSync(fd, buf, 0, 256, 0))
    } finally {
      closeSync(fd)
    }
  } catch {
    head = null
  }
  heads.set(path, head)
  return head
}

export interface Shebang {
  interpreter: GoString
  /** The rest of the line, which the kernel passes as ONE argument. */
  arg: GoString | null
  /** Whether the line ends within the 256 bytes the kernel reads. */
  complete: boolean
}

/** The `#!` line as the kernel reads it, or null when the file does not start with `#!`. */
export function shebang(path: GoString, cache: EntryCache = newEntryCache()): Shebang | null {
  const head = readHead(path, cache)
  if (head === null || head.length < 2 || head[0] !== 0x23 || head[1] !== 0x21) return null
  let nl = head.indexOf(0x0a)
  const complete = nl !== -1
  if (nl === -1) nl = head.length
  const line = head.subarray(2, nl).toString('latin1').replace(/\0.*$/s, '')
  const m = /^[ \t]*([^ \t]*)[ \t]*(.*?)[ \t]*$/s.exec(line)
  if (!m) return null
  return { interpreter: m[1], arg: m[2] === '' ? null : m[2], complete }
}

/**
 * execFormatError(entry), remembered per `#!` interpreter: for a script whose line ends in
 * the first 256 bytes the kernel's answer depends on the interpreter alone, and a thousand
 * packs share a handful of interpreters.
 */
function formatVerdict(entry: GoString, sb: Shebang | null, { byInterpreter }: EntryCache): GoError | null {
  if (sb === null || !sb.complete || sb.interpreter === '') return execFormatError(entry)
  const cached = byInterpreter.get(sb.interpreter)
  if (cached !== undefined) return cached
  const v = execFormatError(entry)
  byInterpreter.set(sb.interpreter, v)
  return v
}

/** os.Stat of interpreters and programs, which many packs share, once per run. */
function cachedStat(p: GoString, { stats }: EntryCache): ReturnType<typeof stat> {
  let s = stats.get(p)
  if (s === undefined) {
    s = stat(p)
    stats.set(p, s)
  }
  return s
}

/** glibc's execvp search path when PATH is unset (confstr _CS_PATH). */
export const DEFAULT_EXEC_PATH = ['/bin', '/usr/bin']

/**
 * `#!/usr/bin/env CMD` with PATH not in env_allow: the manager starts the entry with only the
 * allowed variables, so env searches glibc's default path. Returns what would go wrong, or null.
 */
export function envLookupProblem(
  entry: GoString,
  envAllow: GoString[] | null,
  cache: EntryCache = newEntryCache(),
): string | null {
  const sb = shebang(entry, cache)
  if (sb === null || base(sb.interpreter) !== 'env' || sb.arg === null) return null
  const arg = sb.arg
  if (arg.startsWith('-')) return null
  if (/[ \t]/.test(arg)) {
    return `the #! line passes "${arg}" to env as ONE argument (Linux does not split it), so env looks for a program named "${arg}"; use #!/usr/bin/env -S ${arg}, or the interpreter's absolute path`
  }
  if (arg.includes('=') || arg.includes('/')) return null
  if ((envAllow ?? []).some((n) => trimSpace(n) === 'PATH')) return null
  for (const d of DEFAULT_EXEC_PATH) {
    const s = cachedStat(join(d, arg), cache)
    if (s.ok && !s.value.isDir() && (s.value.mode & 0o111) !== 0) return null
  }
  return `PATH is not in env_allow, so the manager starts the entry without PATH and env searches ${DEFAULT_EXEC_PATH.join(':')} (glibc's default), where "${arg}" is not found on this machine: every run would exit 127. Add "PATH" to env_allow or use the interpreter's absolute path`
}
