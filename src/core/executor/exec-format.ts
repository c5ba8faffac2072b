import { accessSync, closeSync, constants, fstatSync, openSync, readSync } from 'node:fs'
import { type GoString, toBuffer } from '../go/gostring.js'
import { type Errno, errnoValue } from '../go/os/errors.js'
import { stat } from '../go/os/file.js'

const ENOEXEC = errnoValue(8)
const ELOOP = errnoValue(40)
/** The kernel reads this much of a file to pick a binary format (BINPRM_BUF_SIZE). */
const BINPRM_BUF_SIZE = 256
/**
 * exec_binprm's limit: the file itself is depth 0 and each `#!` interpreter one more; a
 * depth above 5 is ELOOP (so five nested scripts ending in a binary still run).
 */
const MAX_INTERPRETER_DEPTH = 5

const ELF_MACHINE: Record<string, number> = {
  x64: 62,
  arm64: 183,
  ia32: 3,
  arm: 40,
  riscv64: 243,
  ppc64: 21,
  s390x: 22,
}

/**
 * Would execve(2) refuse this file with ENOEXEC?
 *
 * Go's os/exec calls execve directly, so a script without a `#!` line fails to start with
 * `exec format error`. Node's libuv instead retries such a file through /bin/sh (the execvp
 * fallback), which would run it. So before spawning we decide as the kernel does: an ELF
 * binary for this machine, or a `#!` script whose interpreter is itself runnable; anything
 * else is ENOEXEC. Files we cannot read are left to the real execve. (binfmt_misc
 * registrations are not consulted: on a host that has them, such files would start.)
 */
export function execFormatError(path: GoString, depth = 0): Errno | null {
  if (depth > MAX_INTERPRETER_DEPTH) return ELOOP
  const head = readHead(path)
  if (head === null) return null
  if (head.length >= 4 && head[0] === 0x7f && head[1] === 0x45 && head[2] === 0x4c && head[3] === 0x46) {
    return elfRunsHere(head) ? null : ENOEXEC
  }
  if (head.length >= 2 && head[0] === 0x23 && head[1] === 0x21) {
    const interp = shebangInterpreter(head)
    if (interp === null || interp === '') return ENOEXEC
    // A missing or unrunnable interpreter (open_exec fails: ENOENT, EACCES for a directory or
    // a file without execute permission…) is reported by the real execve, which libuv does not
    // retry through /bin/sh.
    const info = stat(interp)
    if (!info.ok || info.value.isDir() || !executable(interp)) return null
    return execFormatError(interp, depth + 1)
  }
  return ENOEXEC
}

function executable(path: GoString): boolean {
  try {
    accessSync(toBuffer(path), constants.X_OK)
    return true
  } catch {
    return false
  }
}

/**
 * The first bytes of a regular file; null for anything else. The open does not wait (a FIFO
 * would block it until a writer came): execve refuses every non-regular file with EACCES,
 * which the real spawn then reports.
 */
function readHead(path: GoString): Buffer | null {
  let fd: number
  try {
    fd = openSync(toBuffer(path), constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY)
  } catch {
    return null
  }
  try {
    if (!fstatSync(fd).isFile()) return null
    const buf = Buffer.alloc(BINPRM_BUF_SIZE)
    const n = readSync(fd, buf, 0, BINPRM_BUF_SIZE, 0)
    return buf.subarray(0, n)
  } catch {
    return null
  } finally {
    closeSync(fd)
  }
}

function elfRunsHere(h: Buffer): boolean {
  if (h.length < 20) return false
  const is64 = h[4] === 2
  const little = h[5] === 1
  const type = little ? h.readUInt16LE(16) : h.readUInt16BE(16)
  const machine = little ? h.readUInt16LE(18) : h.readUInt16BE(18)
  if (type !== 2 && type !== 3) return false
  const want = ELF_MACHINE[process.arch]
  if (want === undefined) return true
  if (machine === want) return (is64 ? 8 : 4) === (process.arch === 'ia32' || process.arch === 'arm' ? 4 : 8)
  return false
}

/**
 * The interpreter path of a `#!` line as binfmt_script reads it: blanks after `#!` skipped,
 * the name ends at a blank, newline or NUL. A line that does not end within the buffer and
 * whose name runs to its end is truncated: null (ENOEXEC).
 */
function shebangInterpreter(h: Buffer): GoString | null {
  let i = 2
  while (i < h.length && (h[i] === 0x20 || h[i] === 0x09)) i++
  let j = i
  while (j < h.length && h[j] !== 0x20 && h[j] !== 0x09 && h[j] !== 0x0a && h[j] !== 0x00) j++
  if (j === h.length && h.length === BINPRM_BUF_SIZE && !h.includes(0x0a)) return null
  return h.subarray(i, j).toString('latin1')
}
