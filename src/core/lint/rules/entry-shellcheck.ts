import { execFile } from 'node:child_process'
import { firstLine } from '../../errors.js'
import type { ManifestContext } from '../context.js'
import { entryCode } from '../rule-kit/entry-code.js'
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

/**
 * `shellcheck -f json1` on a shell entry, as a child process with a time and output bound. Its
 * own `.shellcheckrc` files apply (an author's disabled codes stay disabled); sourced files are
 * not followed. A zsh entry, or one ShellCheck does not read, is not run.
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
  const args = ['-f', 'json1', ...(dialect ? ['--shell', dialect] : []), '--', code.file]
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
          const comments = (doc.comments ?? []).filter(
            (c) => Number.isInteger(c.line) && Number.isInteger(c.code) && typeof c.message === 'string',
          )
          resolve({ kind: 'checked', file: code.file, comments })
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
  severity: 'info',
  category: 'best-practice',
  kind: 'manifest',
  docs: "ShellCheck's findings on a shell entry (a `#!` line naming sh, bash, dash, ksh or busybox, else a name ending in .sh, .bash or .ksh), each under its own id `entry/SC<code>` at its line in the entry, at ShellCheck's level (error → error, warning → warn, info and style → info). Each `entry/SC<code>` may be set on its own; this id sets them all. Without `shellcheck` installed (Debian: `apt-get install shellcheck`), one info line says the entry was not checked.",
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
