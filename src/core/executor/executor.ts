import { type ChildProcess, spawn } from 'node:child_process'
import { valid } from '../go/encoding/json/scanner.js'
import { fromBuffer, type GoString, toBuffer, toText, trimSpace } from '../go/gostring.js'
import { errnoFromNode } from '../go/os/errors.js'
import { isAbs } from '../go/path/filepath/path.js'
import { quote } from '../go/strconv/quote.js'
import { durationString } from '../go/time/duration.js'
import { entryPreflight, startFailureMessage } from './entry-preflight.js'
import { execFormatError } from './exec-format.js'

/** stdout kept in memory (MaxSubprocessStdout); the rest is dropped silently. */
export const MAX_STDOUT = 16 * 1024 * 1024
/** Trailing stderr bytes quoted in error texts (MaxSubprocessStderrTail). */
export const MAX_STDERR_TAIL = 4 * 1024
/** stderr kept in memory: the manager's writer is capped at 4 × the tail. */
export const MAX_STDERR = MAX_STDERR_TAIL * 4
/** cmd.WaitDelay: how long pipes may outlive the process (or the kill on timeout). */
export const WAIT_DELAY_MS = 1000

/** SubprocessSkill.Execute's text when its deadline (or its caller's) passed: the skill's own timeout. */
export function timedOutText(key: GoString, timeoutNs: bigint): GoString {
  return `subprocess skill ${key}: timed out after ${durationString(timeoutNs)}`
}

/** What the executor needs of a registered skill. */
export interface ExecSkill {
  key: GoString
  entry: GoString
  envAllow: GoString[] | null
  timeoutNs: bigint
}

export interface ExecuteOptions {
  /** The environment allowed names are taken from (the manager's own environment). */
  environ: Record<string, string | undefined>
  /** Every stderr chunk as it arrives (the manager keeps only the first 16 KiB). */
  onStderr?: (chunk: Buffer) => void
  /** Called once the child is running. */
  onStart?: (pid: number) => void
  /** Aborting kills the process group, as a cancelled request context does in the manager. */
  signal?: AbortSignal
  /**
   * Called after every 16 MiB of output dropped past a cap: dropped pipe reads are off-heap and
   * pile up until a collection, which the host may force here (the CLI does: cli/gc.ts). The
   * executor itself changes nothing process-wide.
   */
  collectGarbage?: () => void
  /**
   * A command to spawn in place of the entry, which runs the entry itself (its path the last
   * argument) with the same environment, descriptors and process group: strace for `--trace`
   * (core/trace/strace-run.ts). Everything else is as without it.
   */
  launch?: { file: string; args: readonly string[] }
}

export interface ExecuteResult {
  ok: boolean
  /** On success, the child's stdout verbatim; otherwise what was captured (≤ 16 MiB). */
  stdout: Buffer
  /** The manager's error text, or null on success. */
  error: GoString | null
  /** The child's exit code (-1 when killed by a signal); null when it never started. */
  exitCode: number | null
  timedOut: boolean
  durationMs: number
  /** The stderr the manager keeps (≤ 16 KiB). */
  stderr: Buffer
  /** The params as sent on stdin (after the empty → `{}` default). */
  params: GoString
}

/** tailString: at most n trailing bytes, TrimSpace'd, with `...` when cut (bytes, not runes). */
export function tailString(b: Buffer, n: number): GoString {
  if (n <= 0) return '' // nothing (b empty) falls through to '' below
  if (b.length <= n) return trimSpace(fromBuffer(b))
  return `...${trimSpace(fromBuffer(b.subarray(b.length - n)))}`
}

/**
 * buildSubprocessEnv: only allowed names present in the environment (empty values count).
 * Go's os.LookupEnv matches whole names of environ entries (the text before the first `=`),
 * so a name holding `=` or NUL is never found — whereas getenv(3), behind process.env, would
 * split or cut it — and inherited properties (`constructor`, `__proto__`) are not variables.
 */
export function buildSubprocessEnv(
  allow: readonly GoString[] | null,
  environ: Record<string, string | undefined>,
): Record<string, string> {
  const env: Record<string, string> = Object.create(null)
  for (const raw of allow ?? []) {
    const trimmed = trimSpace(raw)
    if (trimmed === '' || trimmed.includes('=') || trimmed.includes('\0')) continue
    const name = toText(trimmed)
    if (!Object.hasOwn(environ, name)) continue
    const v = environ[name]
    if (typeof v !== 'string') continue
    env[name] = v
  }
  return env
}

/** A capture larger than this moves into one flat buffer of its cap (CappedBuffer). */
export const FLAT_AFTER = 1024 * 1024
/** collectGarbage is called after every this many bytes dropped past a cap. */
export const COLLECT_EVERY = 16 * 1024 * 1024

/** CappedBuffer's representation (stats()): what it holds in memory. */
export interface CaptureStats {
  /** Bytes kept. */
  size: number
  /** Chunks held as they came (small captures). */
  chunks: number
  /** The length of the flat buffer (the cap), or null while the capture is chunks. */
  flat: number | null
  /** Bytes dropped since collectGarbage was last called. */
  dropped: number
}

/**
 * The manager's cappedWriter: keeps the first `max` bytes and drops the rest silently.
 * Its memory is the point of this class: small outputs stay as chunks; past 1 MiB the bytes
 * move into one buffer of `max` bytes so that no second copy is needed at the end (a capture
 * capped at 1 MiB or less never moves). While output is being dropped, `collectGarbage` is
 * called after every 16 MiB of it (ExecuteOptions.collectGarbage).
 */
export class CappedBuffer {
  private chunks: Buffer[] = []
  private flat: Buffer | null = null
  private size = 0
  private dropped = 0
  constructor(
    private readonly max: number,
    private readonly collectGarbage?: () => void,
  ) {}
  push(chunk: Buffer): void {
    if (this.size >= this.max) {
      this.dropped += chunk.length
      if (this.dropped >= COLLECT_EVERY) {
        this.dropped = 0
        this.collectGarbage?.()
      }
      return
    }
    // The whole chunk (a view of it) when it fits.
    const part = chunk.subarray(0, this.max - this.size)
    if (this.flat === null && this.size + part.length > FLAT_AFTER) {
      this.flat = Buffer.allocUnsafe(this.max)
      let at = 0
      for (const c of this.chunks) at += c.copy(this.flat, at)
      this.chunks = []
    }
    if (this.flat !== null) part.copy(this.flat, this.size)
    else this.chunks.push(part)
    this.size += part.length
  }
  bytes(): Buffer {
    return this.flat !== null ? this.flat.subarray(0, this.size) : Buffer.concat(this.chunks, this.size)
  }
  stats(): CaptureStats {
    return {
      size: this.size,
      chunks: this.chunks.length,
      flat: this.flat === null ? null : this.flat.length,
      dropped: this.dropped,
    }
  }
}

/** Monotonic milliseconds (process.hrtime: the `performance` global loads perf_hooks' modules). */
function nowMs(): number {
  return Number(process.hrtime.bigint()) / 1e6
}

/**
 * SubprocessSkill.Execute: the entry checks, params defaulting and validation, the filtered
 * environment, its own process group killed whole on timeout, capped capture, the WaitDelay,
 * and the manager's result checks with its exact error texts.
 */
export async function execute(
  skill: ExecSkill,
  rawParams: GoString | null,
  opts: ExecuteOptions,
): Promise<ExecuteResult> {
  const started = nowMs()
  const key = skill.key
  let params = rawParams ?? ''
  const early = (error: GoString): ExecuteResult => ({
    ok: false,
    stdout: Buffer.alloc(0),
    error,
    exitCode: null,
    timedOut: false,
    durationMs: nowMs() - started,
    stderr: Buffer.alloc(0),
    params,
  })
  if (skill.entry === '') return early('subprocess skill: entry path required')
  if (!isAbs(skill.entry)) return early(`subprocess skill: entry ${quote(skill.entry)} must be absolute`)
  const pre = entryPreflight(skill.entry)
  if (!pre.ok) return early(pre.message)
  if (trimSpace(params) === '') params = '{}'
  else if (!valid(params)) return early('subprocess skill: invalid params JSON')

  const startFailure = (errText: GoString): ExecuteResult => ({
    ...early(startFailureMessage(key, skill.entry, errText)),
    params,
  })
  const noExec = execFormatError(skill.entry)
  if (noExec) return startFailure(noExec.error())

  const env = buildSubprocessEnv(skill.envAllow, opts.environ)
  let child: ChildProcess
  try {
    // Node takes paths as text: an entry whose path is not valid UTF-8 cannot be spawned exactly.
    const file = opts.launch?.file ?? toText(skill.entry)
    child = spawn(file, opts.launch?.args ?? [], {
      argv0: file,
      env,
      detached: true,
    })
  } catch (e) {
    // Node throws the errors it does not report as events: E2BIG (an environment too large)…
    return startFailure(errnoFromNode(e).error())
  }
  if (child.pid === undefined) {
    // …and reports the others on the next tick: ENOENT for a missing interpreter, EACCES… The
    // process never ran: nothing to wait for or kill.
    const failed = child
    return await new Promise<ExecuteResult>((resolve) => {
      failed.once('error', (e) => resolve(startFailure(errnoFromNode(e).error())))
    })
  }
  const pid = child.pid
  // The params copy's stream, taken out of Node's hands (below).
  const stdin = child.stdin!
  child.stdin = null
  return await new Promise<ExecuteResult>((resolve) => {
    const stdout = new CappedBuffer(MAX_STDOUT, opts.collectGarbage)
    const stderr = new CappedBuffer(MAX_STDERR, opts.collectGarbage)
    let exitCode: number | null = null
    let exited = false
    let timedOut = false
    let waitDelayExpired = false
    let openStreams = 3 // stdout, stderr, and the stdin copy
    let waitDelayTimer: NodeJS.Timeout | undefined
    let finished = false

    // Go's Cancel kills the group, and the process alone when that fails for another reason than
    // ESRCH. Here the child leads its own session, so its group exists while it does (a zombie
    // included), and kill(2) fails on a group only when no member could be signalled, the child
    // among them: a kill of the process alone would fail the same way.
    const killGroup = () => {
      try {
        process.kill(-pid, 'SIGKILL')
      } catch {}
    }
    const timeoutMs = Number(skill.timeoutNs / 1_000_000n)
    const deadline = nowMs() + timeoutMs
    // Once the process has been reaped, Go's watchCtx is gone: a deadline (or a cancel) after
    // that kills nothing — a background child keeps its pipes until the WaitDelay — and the
    // deadline only decides the final check below.
    const timeoutTimer =
      timeoutMs <= 2 ** 31 - 1
        ? setTimeout(() => {
            if (exited) return
            timedOut = true
            killGroup()
            startWaitDelay()
          }, timeoutMs)
        : undefined
    const onAbort = () => {
      if (exited) return
      killGroup()
      startWaitDelay()
    }
    // An AbortSignal fires once; the listener is removed when the run is over.
    opts.signal?.addEventListener('abort', onAbort)

    // Called on a kill (before the exit) and at the exit: the delay runs from the first, as Go's
    // timer does from the cancel. After the end nothing calls it: the timeout timer is cleared,
    // the abort listener removed, and the exit came before.
    function startWaitDelay() {
      if (waitDelayTimer !== undefined) return
      waitDelayTimer = setTimeout(() => {
        if (openStreams > 0) {
          waitDelayExpired = true
          child.stdout!.destroy()
          child.stderr!.destroy()
          stdin.destroy()
          openStreams = 0
        }
        maybeFinish()
      }, WAIT_DELAY_MS)
    }

    function streamDone() {
      openStreams--
      maybeFinish()
    }

    function maybeFinish() {
      if (finished || !exited || openStreams > 0) return
      finished = true
      clearTimeout(timeoutTimer)
      clearTimeout(waitDelayTimer)
      opts.signal?.removeEventListener('abort', onAbort)
      const out = stdout.bytes()
      const err = stderr.bytes()
      const base = {
        stdout: out,
        exitCode,
        timedOut: false,
        durationMs: nowMs() - started,
        stderr: err,
        params,
      }
      // Execute checks the deadline first, whatever else happened.
      if (timedOut || nowMs() >= deadline) {
        resolve({
          ...base,
          ok: false,
          timedOut: true,
          error: timedOutText(key, skill.timeoutNs),
        })
      } else if (exitCode !== 0) {
        resolve({
          ...base,
          ok: false,
          error: `subprocess skill ${key}: exit ${exitCode} (stderr: ${tailString(err, MAX_STDERR_TAIL)})`,
        })
      } else if (waitDelayExpired) {
        resolve({
          ...base,
          ok: false,
          error: `subprocess skill ${key}: exec: WaitDelay expired before I/O complete (stderr: ${tailString(err, MAX_STDERR_TAIL)})`,
        })
      } else if (!valid(fromBuffer(out))) {
        resolve({
          ...base,
          ok: false,
          error: `subprocess skill ${key}: stdout is not valid JSON (first 200B: ${tailString(out, 200)})`,
        })
      } else {
        resolve({ ...base, ok: true, error: null })
      }
    }

    opts.onStart?.(pid)

    child.stdout!.on('data', (c: Buffer) => stdout.push(c))
    child.stdout!.once('close', streamDone)
    child.stderr!.on('data', (c: Buffer) => {
      stderr.push(c)
      opts.onStderr?.(c)
    })
    child.stderr!.once('close', streamDone)
    // The params copy: EPIPE from a child that never reads stdin is ignored, as Go does. Node
    // destroys a child's stdin when the child exits; Go's copy goes on while anything holds
    // the pipe (a background child), so the stream is taken out of Node's hands and the copy
    // counts until it is done, or until the WaitDelay closes it.
    // The copy is done when its write is (handed to the kernel whole, or failed), as io.Copy's
    // goroutine is: not at the stream's later close, which a busy event loop may see after the
    // WaitDelay's timer. A stream calls a write's callback once, whatever happens (EPIPE, or
    // destroyed by the WaitDelay with the write pending).
    stdin.on('error', () => {})
    stdin.write(toBuffer(params), streamDone)
    stdin.end()

    child.once('exit', (code) => {
      exited = true
      // Node gives the code, or (killed by a signal) null and the signal: ExitCode() is then -1.
      exitCode = code ?? -1
      startWaitDelay()
      maybeFinish()
    })
  })
}
