/**
 * Running an entry under strace, and with --sandbox inside bubblewrap: the tools found on PATH, the
 * command line the executor spawns instead of the entry (ExecuteOptions.launch), and the trace
 * read back. The entry sees what it sees without a trace: strace passes the environment, the
 * arguments, the working dir and the descriptors on as they are, stays in the entry's process
 * group (so a timeout or a stop kills it with the entry), and exits as the entry did (its status,
 * or its signal). The trace goes through a pipe strace opens itself (close-on-exec: the entry does
 * not see it) into `dd` with a byte count, so a run that makes endless calls costs at most MAX_TRACE_BYTES on
 * disk, in a private dir removed afterwards.
 */

import { spawnSync } from 'node:child_process'
import { accessSync, constants, mkdtempSync, realpathSync, rmSync, statSync } from 'node:fs'
import { constants as osConstants } from 'node:os'
import { delimiter, dirname, join } from 'node:path'
import { startFailureMessage } from '../executor/entry-preflight.js'
import type { ExecuteResult } from '../executor/executor.js'
import type { GoString } from '../go/gostring.js'
import { errnoValue } from '../go/os/errors.js'
import { readFileBounded } from '../read-bounded.js'
import { tempBase } from '../user-dirs.js'
import { type Effect, effects, TRACED_SYSCALLS } from './effects.js'
import { parseTrace } from './strace-line.js'

/** The most of a trace kept (the rest of a longer one is dropped, and the report says so). */
export const MAX_TRACE_BYTES = 32 * 1024 * 1024
/** Strings (paths, argv elements) printed up to this length: PATH_MAX. */
export const TRACE_STRING_MAX = 4096

/** What to install, one line each (Debian's packages). */
export const INSTALL = {
  /** `by`: what asked for the trace (`--trace`, or a case's expect.effects). */
  strace: (by = '--trace') => `${by} needs strace, which is not installed: apt-get install strace`,
  bwrap: '--sandbox needs bubblewrap (bwrap), which is not installed: apt-get install bubblewrap',
} as const

export interface TraceTools {
  strace: string
  dd: string
  cat: string
  bwrap: string | null
}

/** The command the executor spawns in place of the entry: the entry's path is its last argument. */
export interface Launch {
  file: string
  args: string[]
}

export interface TraceReport {
  sandbox: boolean
  allow_net: boolean
  effects: Effect[]
  /** Bytes of trace read; `truncated` when the bound cut it (later effects are missing). */
  bytes: number
  truncated: boolean
  /** Trace lines that could not be read. */
  unreadable: number
  /**
   * The errno name (`ENOENT`) when the entry itself could not be started (a missing interpreter):
   * strace then exits 1 with its own line, where the manager's executor reports a start failure.
   */
  startError: string | null
}

/** An executable file named `name` in the dirs of PATH, or null. */
export function which(name: string, pathEnv: string | undefined = process.env.PATH): string | null {
  for (const dir of (pathEnv ?? '/usr/local/bin:/usr/bin:/bin').split(delimiter)) {
    if (dir === '') continue
    const p = join(dir, name)
    try {
      if (!statSync(p).isFile()) continue
      accessSync(p, constants.X_OK)
      return p
    } catch {}
  }
  return null
}

export type ToolsFound =
  | { ok: true; tools: TraceTools }
  | { ok: false; tool: 'strace' | 'bwrap'; line: string }

/** strace (and bwrap for a sandbox), with the coreutils the trace's bound uses. */
export function findTools(
  sandbox: boolean,
  pathEnv: string | undefined = process.env.PATH,
  by?: string,
): ToolsFound {
  const strace = which('strace', pathEnv)
  if (strace === null) return { ok: false, tool: 'strace', line: INSTALL.strace(by) }
  const dd = which('dd', pathEnv) ?? '/bin/dd'
  const cat = which('cat', pathEnv) ?? '/bin/cat'
  let bwrap: string | null = null
  if (sandbox) {
    bwrap = which('bwrap', pathEnv)
    if (bwrap === null) return { ok: false, tool: 'bwrap', line: INSTALL.bwrap }
  }
  return { ok: true, tools: { strace, dd, cat, bwrap } }
}

/** Dirs the sandbox replaces with an empty tmpfs: the writable layer thrown away after the run. */
export const SANDBOX_SCRATCH = ['/tmp', '/var/tmp', '/run'] as const

/**
 * bwrap's arguments for the sandbox: the host read-only (`--ro-bind / /`), fresh /dev and /proc,
 * an empty tmpfs over SANDBOX_SCRATCH (with the dirs the run needs from them, the entry's and the
 * working dir, bound back read-only from their first level below it, and the trace's own dir
 * writable), its own user, PID, IPC, UTS and cgroup namespaces (root inside
 * has no power over the host's mounts), and no network unless allowed. bubblewrap 0.8 has no
 * overlay (`--tmp-overlay` came in 0.10): writes outside the tmpfs dirs fail with EROFS, and are
 * reported as attempts.
 */
export function sandboxArgs(opts: {
  allowNet: boolean
  keep: readonly string[]
  traceDir: string | null
}): string[] {
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc']
  for (const d of SANDBOX_SCRATCH) args.push('--tmpfs', d)
  // A dir the run needs below a tmpfs dir is bound back read-only from its first level down
  // (`/tmp/x` for `/tmp/x/pack/bin/entry`): the whole pack, whichever dir the entry is in.
  const bound = new Set<string>()
  for (const k of opts.keep) {
    const d = SANDBOX_SCRATCH.find((s) => k.startsWith(`${s}/`))
    if (d === undefined) continue
    const top = `${d}/${k.slice(d.length + 1).split('/')[0]}`
    if (!bound.has(top)) args.push('--ro-bind', top, top)
    bound.add(top)
  }
  if (opts.traceDir !== null) args.push('--bind', opts.traceDir, opts.traceDir)
  args.push('--unshare-user', '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try')
  if (!opts.allowNet) args.push('--unshare-net')
  args.push('--die-with-parent')
  return args
}

const probed = new Map<string, string | null>()

/** Whether bwrap can make the sandbox here (user namespaces allowed): null, or its one-line reason. */
export function probeSandbox(bwrap: string, allowNet: boolean): string | null {
  const key = `${bwrap}\0${allowNet}`
  const known = probed.get(key)
  if (known !== undefined) return known
  const r = spawnSync(
    bwrap,
    [...sandboxArgs({ allowNet, keep: [], traceDir: null }), '--', '/bin/sh', '-c', ':'],
    {
      encoding: 'utf8',
      timeout: 10_000,
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  )
  const why =
    r.status === 0
      ? null
      : `--sandbox: bubblewrap cannot make a sandbox here: ${(r.stderr ?? '').trim().split('\n')[0] || (r.error?.message ?? `exit ${r.status}`)} (are user namespaces allowed?)`
  probed.set(key, why)
  return why
}

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`
}

export interface TraceSession {
  launch: Launch
  /** Reads the trace into effects and removes its dir. */
  finish(): TraceReport
  /** Removes the trace's dir without reading it. */
  dispose(): void
}

/** Prepares a traced run of `entry` (its path as text): a private dir, and the command to spawn. */
export function startTrace(
  tools: TraceTools,
  entry: string,
  opts: { sandbox: boolean; allowNet: boolean; maxBytes?: number; cwd?: string },
): TraceSession {
  const max = opts.maxBytes ?? MAX_TRACE_BYTES
  // mkdtemp makes the dir 0700 and new: no one else can write or read the trace.
  const dir = mkdtempSync(join(tempBase(), 'ongrid-skill-trace-'))
  const file = join(dir, 'trace')
  // dd writes each read as it comes (head -c holds a buffer, lost when the group is killed), up
  // to the bound; cat then drains the rest so that strace never blocks on a full pipe.
  const sink = `exec >${shellQuote(file)} 2>/dev/null; ${shellQuote(tools.dd)} iflag=count_bytes count=${max} bs=65536 status=none; exec ${shellQuote(tools.cat)} >/dev/null`
  const straceArgs = [
    '-f',
    '-qq',
    '-y',
    '-ttt',
    '-s',
    String(TRACE_STRING_MAX),
    '-e',
    'signal=none',
    '-e',
    // `?`: a call this architecture lacks (open on arm64) is left out, not an error.
    `trace=${TRACED_SYSCALLS.map((s) => `?${s}`).join(',')}`,
    '-o',
    `|${sink}`,
    '--',
    entry,
  ]
  let launch: Launch
  if (opts.sandbox && tools.bwrap !== null) {
    const keep: string[] = []
    for (const p of [dirname(entry), opts.cwd ?? process.cwd()]) {
      try {
        keep.push(realpathSync(p))
      } catch {}
    }
    launch = {
      file: tools.bwrap,
      args: [
        ...sandboxArgs({ allowNet: opts.allowNet, keep, traceDir: dir }),
        '--',
        tools.strace,
        ...straceArgs,
      ],
    }
  } else launch = { file: tools.strace, args: straceArgs }
  const dispose = () => rmSync(dir, { recursive: true, force: true })
  return {
    launch,
    dispose,
    finish() {
      try {
        let text = ''
        try {
          text = readFileBounded(file, max + 1, { regularOnly: true }).toString('utf8')
        } catch {}
        const bytes = Buffer.byteLength(text)
        const truncated = bytes >= max
        // A cut trace ends in a partial line: left out.
        if (truncated) text = text.slice(0, text.lastIndexOf('\n') + 1)
        const { records, unreadable } = parseTrace(text)
        const first = records[0]
        const startError =
          first !== undefined && first.name === 'execve' && first.errno !== null ? first.errno : null
        return {
          startError,
          sandbox: opts.sandbox,
          allow_net: opts.allowNet,
          effects: effects(records),
          bytes,
          truncated,
          unreadable,
        }
      } finally {
        dispose()
      }
    },
  }
}

/**
 * The executor's result as the manager reports an entry that could not be started (cmd.Start's
 * error), when the trace says strace could not exec it; otherwise the result as it is.
 */
export function asStartFailure(
  r: ExecuteResult,
  report: TraceReport,
  key: GoString,
  entry: GoString,
): ExecuteResult {
  const n =
    report.startError === null ? undefined : (osConstants.errno as Record<string, number>)[report.startError]
  if (n === undefined || r.timedOut) return r
  return {
    ...r,
    ok: false,
    stdout: Buffer.alloc(0),
    stderr: Buffer.alloc(0),
    exitCode: null,
    error: startFailureMessage(key, entry, errnoValue(n).error()),
  }
}
