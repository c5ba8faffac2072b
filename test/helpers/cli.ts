import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { checkJsonOutput } from './json-output.js'

/** The repository root (no trailing slash): the tests run from build/test/…. */
export const REPO = fileURLToPath(new URL('../../../', import.meta.url)).replace(/\/$/, '')
/** The launcher users start: the built CLI. */
export const BIN = `${REPO}/bin/run.js`

/**
 * Variables of the machine or the CI job that change what the CLI prints (colour, CI mode for
 * live views, GitHub paths, the manager's dirs and audit store, debug output). A child never
 * inherits them: a test that depends on one sets it in `env`, so it passes the same way with
 * CI=true and without.
 */
const AMBIENT = [
  'CI',
  'CONTINUOUS_INTEGRATION',
  'NO_COLOR',
  'FORCE_COLOR',
  'GITHUB_ACTIONS',
  'GITHUB_WORKSPACE',
  'ONGRID_SKILLS_EXTERNAL_DIRS',
  'ONGRID_DB_DIALECT',
  'ONGRID_DB_DSN',
  'ONGRID_DB_PATH',
  'DEBUG',
  'ONGRID_MANAGER_VERSION',
]

/** This process's environment without AMBIENT, then `over` (undefined removes a variable). */
export function cliEnv(over: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env }
  for (const k of AMBIENT) delete env[k]
  for (const [k, v] of Object.entries(over)) {
    if (v === undefined) delete env[k]
    else env[k] = v
  }
  return env
}

export interface CliOptions {
  /** Set (or, with undefined, unset) on top of cliEnv's. */
  env?: Record<string, string | undefined>
  cwd?: string
  /** Written to stdin, which is then closed; stdin is empty (closed at once) without it. */
  input?: string | Buffer
  /** 'ignore': no stdin at all; 'open': a pipe never written nor closed. */
  stdin?: 'ignore' | 'open'
  /** Killed with SIGKILL after this long (`hung` is then true); no limit without it. */
  timeoutMs?: number
  /** How stdout and stderr are decoded into the string fields (the Buffers are the bytes). */
  encoding?: 'utf8' | 'latin1'
  /** Node options before the launcher (`['--import', hook]`). */
  node?: string[]
  /** Started as a program (through its `#!` line) instead of `node LAUNCHER`. */
  program?: boolean
  /** Another launcher than bin/run.js (bin/dev.js). */
  bin?: string
  /** Through `/bin/sh -c SH` with "$0" "$@" the command (for arguments Node cannot pass: bytes). */
  sh?: string
  /** On a pseudo-terminal (util-linux `script -qec`); what the terminal shows comes on stdout. */
  tty?: boolean
  /** With `tty`: the terminal's size, columns x 40 rows (unset, the pseudo-terminal says 0 x 0). */
  columns?: number
}

export interface CliResult {
  code: number | null
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
  stdoutBytes: Buffer
  stderrBytes: Buffer
  /** Killed at `timeoutMs`. */
  hung: boolean
}

const sq = (a: string) => `'${a.replaceAll("'", "'\\''")}'`

/** The command line for ARGS under these options: [file, argv]. */
function command(args: string[], o: CliOptions): [string, string[]] {
  const bin = o.bin ?? BIN
  let argv = o.program ? [bin, ...args] : [process.execPath, ...(o.node ?? []), bin, ...args]
  if (o.sh !== undefined) argv = ['/bin/sh', '-c', o.sh, ...argv]
  if (o.tty) {
    const size = o.columns === undefined ? '' : `stty cols ${o.columns} rows 40; exec `
    argv = ['script', '-qec', size + argv.map(sq).join(' '), '/dev/null']
  }
  return [argv[0] as string, argv.slice(1)]
}

function result(
  args: readonly string[],
  code: number | null,
  signal: NodeJS.Signals | null,
  out: Buffer,
  err: Buffer,
  hung: boolean,
  o: CliOptions,
): CliResult {
  const enc = o.encoding ?? 'utf8'
  // Every --json document is checked against its schema, whatever the test asks of it.
  if (!o.tty && !hung) checkJsonOutput(args, code, out.toString('utf8'))
  return {
    code,
    signal,
    stdout: out.toString(enc),
    stderr: err.toString(enc),
    stdoutBytes: out,
    stderrBytes: err,
    hung,
  }
}

/** Runs the built CLI with ARGS and waits for it (synchronously). */
export function runCliSync(args: string[], o: CliOptions = {}): CliResult {
  const [file, argv] = command(args, o)
  const r = spawnSync(file, argv, {
    cwd: o.cwd,
    env: cliEnv(o.env),
    input: o.input,
    stdio: [o.stdin === 'ignore' ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    timeout: o.timeoutMs,
    killSignal: 'SIGKILL',
    maxBuffer: 256 * 1024 * 1024,
  })
  const hung = (r.error as NodeJS.ErrnoException | undefined)?.code === 'ETIMEDOUT'
  if (r.error && !hung) throw r.error
  return result(args, r.status, r.signal, r.stdout, r.stderr, hung, o)
}

/** Starts the built CLI with ARGS, stdout and stderr piped; stdin as `o` says (null with 'ignore'). */
export function startCli(args: string[], o: CliOptions = {}): ChildProcessWithoutNullStreams {
  const [file, argv] = command(args, o)
  const child = spawn(file, argv, {
    cwd: o.cwd,
    env: cliEnv(o.env),
    stdio: [o.stdin === 'ignore' ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  }) as ChildProcessWithoutNullStreams
  if (o.stdin !== 'ignore' && o.stdin !== 'open') {
    child.stdin.on('error', () => {})
    child.stdin.end(o.input ?? '')
  }
  return child
}

/** Runs the built CLI with ARGS; `onStderr` sees the child and all stderr so far (latin1), per chunk. */
export function runCli(
  args: string[],
  o: CliOptions & { onStderr?: (child: ChildProcessWithoutNullStreams, text: string) => void } = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = startCli(args, o)
    let hung = false
    const limit =
      o.timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            hung = true
            child.kill('SIGKILL')
          }, o.timeoutMs)
    const out: Buffer[] = []
    const err: Buffer[] = []
    child.stdout.on('data', (c: Buffer) => out.push(c))
    child.stderr.on('data', (c: Buffer) => {
      err.push(c)
      o.onStderr?.(child, Buffer.concat(err).toString('latin1'))
    })
    child.on('error', reject)
    child.on('close', (code, signal) => {
      clearTimeout(limit)
      try {
        resolve(result(args, code, signal, Buffer.concat(out), Buffer.concat(err), hung, o))
      } catch (e) {
        reject(e)
      }
    })
  })
}

/**
 * Runs the CLI in `cwd` on a pseudo-terminal (util-linux `script`): what a user's terminal would
 * show, stdout and stderr together, CRLF as LF.
 */
export async function runOnTty(
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<CliResult> {
  const r = await runCli(args, {
    tty: true,
    env: { CI: '1', NO_COLOR: '1', FORCE_COLOR: '0', ...env },
    cwd,
    stdin: 'ignore',
    timeoutMs: 20_000,
  })
  const text = Buffer.concat([r.stdoutBytes, r.stderrBytes]).toString('latin1').replaceAll('\r\n', '\n')
  return { ...r, stdout: text, stderr: '' }
}
