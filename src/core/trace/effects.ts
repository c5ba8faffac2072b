/**
 * System call records into what a run did to the host: files created, written, truncated, deleted,
 * renamed, re-moded or re-owned; processes started; signals sent to processes the run did not
 * start; connections made; privilege and namespace changes. What is not host state is left out:
 * `/dev/null` and the like, the run's own pipes, sockets and terminals, and the scratch the run
 * made and removed itself (a file it created new, or a dir it made, then deleted before its end).
 */

import { posix } from 'node:path'
import { cString, decoration, type SyscallRecord, stringArray } from './strace-line.js'

export const EFFECT_KINDS = [
  'create',
  'write',
  'truncate',
  'delete',
  'rename',
  'chmod',
  'chown',
  'exec',
  'signal',
  'connect',
  'privilege',
] as const
export type EffectKind = (typeof EFFECT_KINDS)[number]

export interface Effect {
  kind: EffectKind
  /** The system call that did it. */
  syscall: string
  /** The process (as the trace numbers it) that made the call. */
  pid: number
  /** Milliseconds since the run's first traced call. */
  time_ms: number
  /** The errno when the host refused the attempt (EACCES, EPERM, EROFS; any for a connect), else null. */
  error: string | null
  /** Files: the path; exec: the program. */
  path?: string
  /** rename: the new path. */
  to?: string
  /** chmod: the mode as given (octal). */
  mode?: string
  /** exec: the arguments (`argv_cut` when strace shortened them). */
  argv?: string[]
  argv_cut?: boolean
  /** signal: the target as given to kill(2) (a negative one is a process group), and the signal. */
  target?: number
  signal?: string
  /** connect: the family, the address (an IP, or a unix socket's path) and the port. */
  family?: 'inet' | 'inet6' | 'unix'
  address?: string
  port?: number
}

/** Device files and descriptors that are not host state when written. */
const NOT_HOST = [
  /^\/dev\/(null|zero|full|tty|stdin|stdout|stderr|ptmx|random|urandom)$/,
  /^\/dev\/(pts|fd)\//,
  /^\/proc\/(self|thread-self|\d+)\/fd\//,
  /^(pipe|socket|anon_inode):/,
]

function notHost(path: string): boolean {
  return NOT_HOST.some((r) => r.test(path))
}

/** Attempts the host refused, kept as effects with their errno: the run tried. */
const REFUSED = new Set(['EACCES', 'EPERM', 'EROFS'])

const PRIVILEGE = new Set([
  'setuid',
  'setgid',
  'setreuid',
  'setregid',
  'setresuid',
  'setresgid',
  'setfsuid',
  'setfsgid',
  'setgroups',
  'capset',
  'mount',
  'umount',
  'umount2',
  'unshare',
  'setns',
  'pivot_root',
  'chroot',
  'mount_setattr',
  'move_mount',
  'fsmount',
])

const FORKS = new Set(['clone', 'clone3', 'fork', 'vfork'])
const KILLS = new Set([
  'kill',
  'tkill',
  'tgkill',
  'rt_sigqueueinfo',
  'rt_tgsigqueueinfo',
  'pidfd_send_signal',
])

/** The system calls the trace asks strace for: all that effects() reads, and no more. */
export const TRACED_SYSCALLS = [
  'open',
  'openat',
  'openat2',
  'creat',
  'truncate',
  'ftruncate',
  'unlink',
  'unlinkat',
  'rmdir',
  'rename',
  'renameat',
  'renameat2',
  'mkdir',
  'mkdirat',
  'mknod',
  'mknodat',
  'link',
  'linkat',
  'symlink',
  'symlinkat',
  'chmod',
  'fchmod',
  'fchmodat',
  'chown',
  'fchown',
  'lchown',
  'fchownat',
  'execve',
  'execveat',
  'connect',
  'chdir',
  'fchdir',
  ...FORKS,
  ...KILLS,
  ...PRIVILEGE,
] as const

/**
 * A path argument resolved against its dir descriptor's decoration (`AT_FDCWD</cwd>`), or for the
 * calls without one (mkdir, unlink, rename…) against the process's working dir as last seen.
 */
function resolvePath(
  dirArg: string | undefined,
  pathArg: string | undefined,
  cwd: string | undefined,
): string | null {
  const p = pathArg === undefined ? null : cString(pathArg)
  if (p === null) return null
  if (p.startsWith('/')) return posix.normalize(p)
  const dir = (dirArg === undefined ? null : decoration(dirArg)) ?? cwd ?? null
  return dir === null ? p : posix.join(dir, p)
}

/** The flags of an open call, as names (`O_WRONLY|O_CREAT` → the set). */
function flagSet(arg: string | undefined): Set<string> {
  if (arg === undefined) return new Set()
  const m = /flags=([A-Z0-9_|]+)/.exec(arg)
  return new Set((m !== null ? m[1] : arg).split('|').map((f) => f.trim()))
}

function openKind(flags: Set<string>): EffectKind | null {
  if (flags.has('O_CREAT') && flags.has('O_EXCL')) return 'create'
  if (flags.has('O_TRUNC') && (flags.has('O_WRONLY') || flags.has('O_RDWR'))) return 'truncate'
  if (flags.has('O_WRONLY') || flags.has('O_RDWR') || flags.has('O_CREAT')) return 'write'
  return null
}

function sockaddr(arg: string | undefined): Pick<Effect, 'family' | 'address' | 'port'> | null {
  if (arg === undefined) return null
  const fam = /sa_family=(AF_[A-Z0-9]+)/.exec(arg)?.[1]
  if (fam === 'AF_INET') {
    const port = /sin_port=htons\((\d+)\)/.exec(arg)
    const addr = /sin_addr=inet_addr\("([^"]*)"\)/.exec(arg)
    return { family: 'inet', address: addr?.[1] ?? '?', port: port ? Number(port[1]) : undefined }
  }
  if (fam === 'AF_INET6') {
    const port = /sin6_port=htons\((\d+)\)/.exec(arg)
    const addr = /inet_pton\(AF_INET6, "([^"]*)"/.exec(arg)
    return { family: 'inet6', address: addr?.[1] ?? '?', port: port ? Number(port[1]) : undefined }
  }
  if (fam === 'AF_UNIX') {
    const m = /sun_path=(@?)("(?:[^"\\]|\\.)*")/.exec(arg)
    const path = m === null ? null : cString(m[2])
    return { family: 'unix', address: path === null ? '?' : `${m![1]}${path}` }
  }
  return null
}

/** Whether `path` is `dir` or below it. */
function under(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir.endsWith('/') ? dir : `${dir}/`)
}

/** The effects of a run, in the trace's order. */
export function effects(records: readonly SyscallRecord[]): Effect[] {
  if (records.length === 0) return []
  const t0 = records[0].time
  const rootPid = records[0].pid
  // Every process the trace saw is one the run started (strace -f follows them all).
  const own = new Set<number>()
  for (const r of records) {
    own.add(r.pid)
    if (FORKS.has(r.name) && /^\d+$/.test(r.ret)) own.add(Number(r.ret))
  }
  const out: Effect[] = []
  // Scratch: what the run created new and removed again.
  const createdNew = new Set<string>()
  const madeDirs = new Set<string>()
  const removed = new Set<string>()
  let rootExecSeen = false
  // Each process's working dir as last seen: from an AT_FDCWD decoration, chdir, or its parent.
  const cwds = new Map<number, string>()

  for (const r of records) {
    const atCwd = r.args.find((x) => x.startsWith('AT_FDCWD<'))
    if (atCwd !== undefined) {
      const d = decoration(atCwd)
      if (d !== null) cwds.set(r.pid, d)
    }
    const atPath = (dirArg: string | undefined, pathArg: string | undefined) =>
      resolvePath(dirArg, pathArg, cwds.get(r.pid))
    const ok = r.errno === null && r.ret !== '?'
    const base = { syscall: r.name, pid: r.pid, time_ms: Math.round((r.time - t0) * 1e6) / 1e3 }
    const err = ok ? null : r.errno
    const fileEffect = (kind: EffectKind, path: string | null, extra: Partial<Effect> = {}) => {
      if (path === null || notHost(path)) return
      if (!ok && (r.errno === null || !REFUSED.has(r.errno))) return
      out.push({ kind, ...base, error: err, path, ...extra })
    }
    const a = r.args
    switch (r.name) {
      case 'chdir': {
        const d = ok ? atPath(undefined, a[0]) : null
        if (d !== null) cwds.set(r.pid, d)
        break
      }
      case 'fchdir': {
        const d = ok ? decoration(a[0] ?? '') : null
        if (d !== null) cwds.set(r.pid, d)
        break
      }
      case 'open':
      case 'openat':
      case 'openat2':
      case 'creat': {
        const flags =
          r.name === 'creat'
            ? new Set(['O_WRONLY', 'O_CREAT', 'O_TRUNC'])
            : flagSet(r.name === 'open' ? a[1] : a[2])
        const kind = openKind(flags)
        if (kind === null) break
        const path =
          (ok ? decoration(r.ret) : null) ??
          (r.name === 'open' || r.name === 'creat' ? atPath(undefined, a[0]) : atPath(a[0], a[1]))
        if (ok && kind === 'create' && path !== null) createdNew.add(path)
        fileEffect(kind, path)
        break
      }
      case 'truncate':
        fileEffect('truncate', atPath(undefined, a[0]))
        break
      case 'ftruncate':
        fileEffect('truncate', decoration(a[0] ?? ''))
        break
      case 'unlink':
      case 'rmdir': {
        const p = atPath(undefined, a[0])
        if (ok && p !== null) removed.add(p)
        fileEffect('delete', p)
        break
      }
      case 'unlinkat': {
        const p = atPath(a[0], a[1])
        if (ok && p !== null) removed.add(p)
        fileEffect('delete', p)
        break
      }
      case 'rename':
        fileEffect('rename', atPath(undefined, a[0]), { to: atPath(undefined, a[1]) ?? undefined })
        break
      case 'renameat':
      case 'renameat2':
        fileEffect('rename', atPath(a[0], a[1]), { to: atPath(a[2], a[3]) ?? undefined })
        break
      case 'mkdir':
      case 'mkdirat': {
        const p = r.name === 'mkdir' ? atPath(undefined, a[0]) : atPath(a[0], a[1])
        if (ok && p !== null) madeDirs.add(p)
        fileEffect('create', p)
        break
      }
      case 'mknod':
      case 'symlink':
      case 'link':
        fileEffect('create', atPath(undefined, r.name === 'mknod' ? a[0] : a[1]))
        break
      case 'mknodat':
        fileEffect('create', atPath(a[0], a[1]))
        break
      case 'symlinkat':
        fileEffect('create', atPath(a[1], a[2]))
        break
      case 'linkat':
        fileEffect('create', atPath(a[2], a[3]))
        break
      case 'chmod':
        fileEffect('chmod', atPath(undefined, a[0]), { mode: a[1] })
        break
      case 'fchmod':
        fileEffect('chmod', decoration(a[0] ?? ''), { mode: a[1] })
        break
      case 'fchmodat':
        fileEffect('chmod', atPath(a[0], a[1]), { mode: a[2] })
        break
      case 'chown':
      case 'lchown':
        fileEffect('chown', atPath(undefined, a[0]))
        break
      case 'fchown':
        fileEffect('chown', decoration(a[0] ?? ''))
        break
      case 'fchownat':
        fileEffect('chown', atPath(a[0], a[1]))
        break
      case 'execve':
      case 'execveat': {
        if (!ok) break
        // The entry's own start is not one the run made.
        if (r.pid === rootPid && !rootExecSeen) {
          rootExecSeen = true
          break
        }
        const path = r.name === 'execve' ? cString(a[0] ?? '') : atPath(a[0], a[1])
        const argv = stringArray((r.name === 'execve' ? a[1] : a[2]) ?? '')
        out.push({
          kind: 'exec',
          ...base,
          error: null,
          path: path ?? '?',
          argv: argv.items,
          ...(argv.cut ? { argv_cut: true } : {}),
        })
        break
      }
      case 'connect': {
        const addr = sockaddr(a[1])
        if (addr === null) break
        // A unix socket that is not there, or where nothing listens, reached nothing.
        if (!ok && r.errno !== 'EINPROGRESS' && addr.family === 'unix' && !REFUSED.has(r.errno ?? '')) break
        out.push({
          kind: 'connect',
          ...base,
          error: r.errno === 'EINPROGRESS' ? null : err,
          ...addr,
        })
        break
      }
      default: {
        if (FORKS.has(r.name) && /^\d+$/.test(r.ret)) {
          const d = cwds.get(r.pid)
          if (d !== undefined && !cwds.has(Number(r.ret))) cwds.set(Number(r.ret), d)
        } else if (KILLS.has(r.name)) {
          const sig = r.name === 'tgkill' || r.name === 'rt_tgsigqueueinfo' ? a[2] : a[1]
          // Signal 0 only asks whether a process is there.
          if (sig === undefined || sig === '0') break
          const target = Number(a[0])
          if (r.name === 'pidfd_send_signal') {
            if (!ok && !REFUSED.has(r.errno ?? '')) break
            out.push({ kind: 'signal', ...base, error: err, signal: sig })
            break
          }
          if (!Number.isInteger(target)) break
          // Its own group (0), a process it started, or a group one of them leads.
          if (target === 0 || own.has(Math.abs(target))) break
          if (!ok && !REFUSED.has(r.errno ?? '')) break
          out.push({ kind: 'signal', ...base, error: err, target, signal: sig })
        } else if (PRIVILEGE.has(r.name)) {
          if (!ok && !REFUSED.has(r.errno ?? '')) break
          const path =
            r.name === 'mount' || r.name === 'chroot' || r.name === 'pivot_root'
              ? cString(a[r.name === 'mount' ? 1 : 0] ?? '')
              : null
          out.push({ kind: 'privilege', ...base, error: err, ...(path !== null ? { path } : {}) })
        }
      }
    }
  }

  // Leave out the scratch: new files and made dirs the run removed, and all below such a dir.
  const scratchDirs = [...madeDirs].filter((d) => removed.has(d))
  const scratch = (p: string | undefined) =>
    p !== undefined && ((createdNew.has(p) && removed.has(p)) || scratchDirs.some((d) => under(p, d)))
  return out.filter((e) => {
    if (e.kind === 'exec' || e.path === undefined) return true
    if (e.kind === 'rename') return !(scratch(e.path) && scratch(e.to))
    return !scratch(e.path)
  })
}

/** One line for an effect (`write /etc/motd (openat)`), for reports. */
export function effectLine(e: Effect): string {
  const what = (() => {
    switch (e.kind) {
      case 'rename':
        return `rename ${e.path} → ${e.to ?? '?'}`
      case 'chmod':
        return `chmod ${e.mode ?? ''} ${e.path}`
      case 'exec':
        return `exec ${(e.argv ?? []).join(' ')}${e.argv_cut ? ' …' : ''}`
      case 'signal':
        return `signal ${e.signal} to ${e.target ?? 'a pidfd'}`
      case 'connect':
        return `connect ${e.family === 'inet6' ? `[${e.address}]` : e.address}${e.port !== undefined ? `:${e.port}` : ''}`
      case 'privilege':
        return `privilege ${e.syscall}${e.path !== undefined ? ` ${e.path}` : ''}`
      default:
        return `${e.kind} ${e.path}`
    }
  })()
  return `${what} (${e.syscall}${e.error !== null ? ` → ${e.error}` : ''}, pid ${e.pid})`
}
