import { readdirSync, realpathSync, statSync, unlinkSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { cacheDir, readCacheFile, writeCacheFile } from '../../cache/store.js'
import { firstLine } from '../../errors.js'
import { readRegularSized } from '../../read-bounded.js'
import type { ManifestContext } from '../context.js'
import { entryCode, MAX_ENTRY_BYTES } from '../rule-kit/entry-code.js'
import { pack } from '../rule-kit/examples.js'
import type { ManifestRule } from '../rule-kit/util.js'
import type { Severity } from '../types.js'

/** The shells ShellCheck reads (its `--shell`); a zsh entry is not given to it. */
const SHELLCHECK_SHELLS = new Set(['sh', 'bash', 'dash', 'ksh', 'busybox'])
/** How long one entry may take, and how much ShellCheck may say about it. */
export const SHELLCHECK_TIMEOUT_MS = 20_000
export const SHELLCHECK_MAX_OUTPUT = 8 * 1024 * 1024

/** ShellCheck's levels as our severities: style notes are advice, as its info ones are. */
export const LEVEL_SEVERITY: Readonly<Record<string, Severity>> = {
  error: 'error',
  warning: 'warn',
  info: 'info',
  style: 'info',
}

export interface ShellcheckComment {
  line: number
  column: number
  level: string
  code: number
  message: string
}

type Outcome =
  | { kind: 'checked'; file: string; comments: ShellcheckComment[] }
  | { kind: 'missing' }
  | { kind: 'failed'; reason: string }

const outcomes = new WeakMap<ManifestContext, Promise<Outcome | null>>()

/** What ShellCheck's results are cached by, besides the script: bump when what is stored changes. */
const CACHE_FORMAT = 1
/** How many results the cache keeps before its oldest half is removed. */
const CACHE_MAX_ENTRIES = 4096
/** A stored result larger than this is not read (ShellCheck's output and the script, as JSON). */
const CACHE_MAX_BYTES = SHELLCHECK_MAX_OUTPUT + 8 * MAX_ENTRY_BYTES
/** A .shellcheckrc larger than this is keyed by its size and time, not its bytes. */
const RC_MAX_BYTES = 64 * 1024

/**
 * The `shellcheck` a child process would run: the first regular, executable file of that name in
 * PATH's dirs (execvp's search), by its real path, size, inode and time; null when there is none.
 */
let programMemo: { path: string; atMs: number; id: string | null } | null = null
function shellcheckProgram(): string | null {
  // Looked up again when PATH changes, and after a few seconds (a server runs for hours).
  const path = process.env.PATH ?? ''
  const now = Date.now()
  if (programMemo?.path === path && now - programMemo.atMs < 5000) return programMemo.id
  programMemo = { path, atMs: now, id: null }
  for (const d of path.split(':')) {
    const p = join(d === '' ? '.' : d, 'shellcheck')
    try {
      const st = statSync(p)
      if (!st.isFile() || (st.mode & 0o111) === 0) continue
      programMemo.id = JSON.stringify([realpathSync(p), st.size, st.ino, st.dev, st.mtimeMs])
      break
    } catch {}
  }
  return programMemo.id
}

/** A file's bytes for a key (its size and time when large), or null when it is missing. */
function keyBytes(path: string): string | null {
  let st: import('node:fs').Stats
  try {
    st = statSync(path)
  } catch {
    return null
  }
  if (!st.isFile()) return `not a file ${st.mode}`
  if (st.size > RC_MAX_BYTES) return `${st.size} ${st.mtimeMs} ${st.ino}`
  try {
    return readRegularSized(path, RC_MAX_BYTES).toString('latin1')
  } catch (e) {
    return `unreadable ${(e as Error).message}`
  }
}

/**
 * The rc files ShellCheck would read for a script (`.shellcheckrc` or `shellcheckrc` in its dir
 * and each parent up to the first found, then the home ones), and SHELLCHECK_OPTS, as key text.
 */
function rcKey(file: string): unknown[] {
  // Read again after a few seconds: a server sees an rc file edited while it runs.
  if (Date.now() - rcAtMs > 5000) {
    rcDirs.clear()
    rcAtMs = Date.now()
  }
  const home = process.env.HOME
  const xdg = process.env.XDG_CONFIG_HOME || (home ? join(home, '.config') : null)
  return [
    process.env.SHELLCHECK_OPTS ?? null,
    rcUp(dirname(file)),
    home ? keyBytes(join(home, '.shellcheckrc')) : null,
    xdg ? keyBytes(join(xdg, 'shellcheckrc')) : null,
  ]
}

/** The rc files from dir `d` up to the first that holds one (once per dir and run: packs share parents). */
const rcDirs = new Map<string, unknown[]>()
let rcAtMs = 0
function rcUp(d: string): unknown[] {
  let got = rcDirs.get(d)
  if (got === undefined) {
    const found = ['.shellcheckrc', 'shellcheckrc'].map((n) => keyBytes(join(d, n)))
    got = found.some((x) => x !== null) || dirname(d) === d ? [found] : [found, ...rcUp(dirname(d))]
    rcDirs.set(d, got)
  }
  return got
}

/**
 * A stored result's file name: a 53-bit hash of its key (cyrb53; node:crypto is not loaded for a
 * lint), which is stored with it and compared whole when read, so two keys of one name only miss.
 */
function nameOf(key: string): string {
  let h1 = 0xdeadbeef
  let h2 = 0x41c6ce57
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i)
    h1 = Math.imul(h1 ^ c, 2654435761)
    h2 = Math.imul(h2 ^ c, 1597334677)
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909)
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909)
  const n = 4294967296 * (2097151 & h2) + (h1 >>> 0)
  return `${n.toString(16).padStart(14, '0')}-${key.length}.json`
}

/** The stored result, when it is one this module wrote for this very key. */
function storedComments(data: Buffer | null, key: string): ShellcheckComment[] | null {
  if (data === null) return null
  try {
    const doc = JSON.parse(data.toString('utf8')) as { key?: unknown; comments?: unknown }
    if (doc.key !== key) return null
    const c = doc.comments
    if (!Array.isArray(c)) return null
    const ok = c.every(
      (x) =>
        x !== null &&
        typeof x === 'object' &&
        Number.isInteger(x.line) &&
        Number.isInteger(x.column) &&
        Number.isInteger(x.code) &&
        typeof x.level === 'string' &&
        typeof x.message === 'string',
    )
    return ok ? (c as ShellcheckComment[]) : null
  } catch {
    return null
  }
}

/** Keeps the cache's dir to CACHE_MAX_ENTRIES results: the oldest half goes when it is over. */
function trim(dir: string): void {
  let names: string[]
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.json'))
  } catch {
    return
  }
  if (names.length <= CACHE_MAX_ENTRIES) return
  const aged = names
    .map((n) => {
      try {
        return { n, t: statSync(join(dir, n)).mtimeMs }
      } catch {
        return { n, t: 0 }
      }
    })
    .sort((a, b) => a.t - b.t)
  for (const { n } of aged.slice(0, aged.length - CACHE_MAX_ENTRIES / 2)) {
    try {
      unlinkSync(join(dir, n))
    } catch {}
  }
}

/** The same script with the same options checked at once (packs sharing a script): ShellCheck once. */
const running = new Map<string, Promise<Outcome>>()

/**
 * `shellcheck -f json1` on a shell entry, as a child process with a time and output bound. Its
 * own `.shellcheckrc` files apply (an author's disabled codes stay disabled); sourced files are
 * not followed. A zsh entry, or one ShellCheck does not read, is not run. Its findings are kept in
 * this user's cache (`$XDG_CACHE_HOME/ongrid-skill/shellcheck/`), keyed by the script's bytes, the
 * options, the rc files and SHELLCHECK_OPTS it would read and the program itself (path, size,
 * inode, time): a script seen before is not checked again.
 */
function runShellcheck(ctx: ManifestContext): Promise<Outcome | null> {
  const code = entryCode(ctx)
  if (code === null || code.language !== 'shell') return Promise.resolve(null)
  if (code.shell !== null && !SHELLCHECK_SHELLS.has(code.shell)) return Promise.resolve(null)
  // Without a #! line ShellCheck would refuse to guess: the name says sh, bash or ksh.
  const dialect =
    code.shell === null
      ? /\.bash$/.test(code.file)
        ? 'bash'
        : /\.ksh$/.test(code.file)
          ? 'ksh'
          : 'sh'
      : null
  const options = ['-f', 'json1', ...(dialect ? ['--shell', dialect] : [])]
  const program = shellcheckProgram()
  // Not found by this search: the spawn itself says whether it is missing; nothing is kept.
  if (program === null)
    return spawnShellcheck([...options, '--', code.file]).then((o) => withFile(o, code.file))
  const key = `${JSON.stringify([CACHE_FORMAT, program, options, rcKey(code.file)])}\0${code.raw}`
  let p = running.get(key)
  if (p === undefined) {
    p = cachedShellcheck(key, [...options, '--', code.file]).finally(() => running.delete(key))
    running.set(key, p)
  }
  return p.then((o) => withFile(o, code.file))
}

const withFile = (o: Outcome, file: string): Outcome => (o.kind === 'checked' ? { ...o, file } : o)

function cachedShellcheck(key: string, args: string[]): Promise<Outcome> {
  const dir = cacheDir('shellcheck')
  const name = nameOf(key)
  const stored = dir === null ? null : storedComments(readCacheFile(dir, name, CACHE_MAX_BYTES), key)
  if (stored !== null) return Promise.resolve({ kind: 'checked', file: '', comments: stored })
  return spawnShellcheck(args).then((outcome) => {
    if (dir !== null && outcome.kind === 'checked') {
      writeCacheFile(dir, name, JSON.stringify({ key, comments: outcome.comments }))
      trim(dir)
    }
    return outcome
  })
}

function spawnShellcheck(args: string[]): Promise<Outcome> {
  // Loaded only for a shell entry ShellCheck has not seen (no other lint pays for it), and at
  // once: the process starts while the other rules of the pack run.
  const { execFile } = process.getBuiltinModule('node:child_process')
  return new Promise((resolve) => {
    execFile(
      'shellcheck',
      args,
      {
        timeout: SHELLCHECK_TIMEOUT_MS,
        maxBuffer: SHELLCHECK_MAX_OUTPUT,
        killSignal: 'SIGKILL',
        encoding: 'utf8',
      },
      (err, stdout, stderr) => {
        const e = err as (NodeJS.ErrnoException & { killed?: boolean; signal?: string }) | null
        if (e?.code === 'ENOENT') return resolve({ kind: 'missing' })
        if (e?.killed || e?.signal)
          return resolve({
            kind: 'failed',
            reason: `shellcheck did not finish within ${SHELLCHECK_TIMEOUT_MS / 1000} s`,
          })
        if (e?.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER')
          return resolve({
            kind: 'failed',
            reason: `shellcheck said more than ${SHELLCHECK_MAX_OUTPUT} bytes`,
          })
        try {
          const doc = JSON.parse(stdout) as { comments?: ShellcheckComment[] }
          const comments = (doc.comments ?? [])
            .filter(
              (c) => Number.isInteger(c.line) && Number.isInteger(c.code) && typeof c.message === 'string',
            )
            .map((c) => ({
              line: c.line,
              column: Number.isInteger(c.column) ? c.column : 1,
              level: typeof c.level === 'string' ? c.level : 'info',
              code: c.code,
              message: c.message,
            }))
          resolve({ kind: 'checked', file: '', comments })
        } catch {
          const why = firstLine(stderr.trim() || stdout.trim() || (e?.message ?? 'no output'))
          resolve({ kind: 'failed', reason: `shellcheck failed: ${why}` })
        }
      },
    )
  })
}

const SC_ID = /^entry\/SC[1-9][0-9]{3}$/
const resolved = new WeakMap<ManifestContext, Outcome | null>()

const rule: ManifestRule = {
  id: 'entry/shellcheck',
  readsBeyondPack: 'the ShellCheck installed and its rc files (its results have a cache of their own)',
  severity: 'info',
  category: 'best-practice',
  kind: 'manifest',
  docs: "ShellCheck's findings on a shell entry (a `#!` line naming sh, bash, dash, ksh or busybox, else a name ending in .sh, .bash or .ksh), each under its own id `entry/SC<code>` at its line in the entry, at ShellCheck's level (error → error, warning → warn, info and style → info). Each `entry/SC<code>` may be set on its own; this id sets them all. Without `shellcheck` installed (Debian: `apt-get install shellcheck`), one info line says the entry was not checked. Its results are kept in this user's cache (`$XDG_CACHE_HOME/ongrid-skill/shellcheck/`), keyed by the script's bytes, the options, the rc files ShellCheck reads, `SHELLCHECK_OPTS` and the program: an unchanged script is not checked again.",
  examples: {
    bad: [{ files: pack({}, { 'run.sh': { exec: '#!/bin/sh\nls $1\n' } }) }],
    good: [{ files: pack({}, { 'run.sh': { exec: '#!/bin/sh\nls -- "$1"\n' } }) }],
  },
  subIds: {
    pattern: SC_ID,
    schemaPattern: '^entry/SC[1-9][0-9]{3}$',
    meta: (id) => {
      const code = id.slice('entry/'.length)
      return {
        docs: `ShellCheck ${code} on a shell entry (entry/shellcheck).`,
        helpUri: `https://www.shellcheck.net/wiki/${code}`,
      }
    },
  },
  async prepare(ctx) {
    let p = outcomes.get(ctx)
    if (p === undefined) {
      p = runShellcheck(ctx)
      outcomes.set(ctx, p)
    }
    resolved.set(ctx, await p)
  },
  check(ctx, report) {
    const outcome = resolved.get(ctx)
    if (!outcome) return
    if (outcome.kind === 'missing') {
      report({
        at: ctx.keyAt('entry'),
        message:
          'shellcheck is not installed: the shell entry was not checked (Debian: apt-get install shellcheck)',
      })
      return
    }
    if (outcome.kind === 'failed') {
      report({ at: ctx.keyAt('entry'), message: `${outcome.reason}: the shell entry was not checked` })
      return
    }
    for (const c of outcome.comments) {
      report({
        at: null,
        file: outcome.file,
        fileKind: 'file',
        line: c.line,
        column: Math.max(1, c.column),
        ruleId: `entry/SC${c.code}`,
        severity: LEVEL_SEVERITY[c.level] ?? 'info',
        message: c.message,
      })
    }
  },
}
export default rule
