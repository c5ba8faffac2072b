/**
 * `lint --baseline`, `--update-baseline`, `--prune-baseline` (core/lint/baseline.ts): which
 * file, matching the run's findings against it, and rewriting it. Loaded only when a baseline
 * is in play.
 */

import { lstatSync } from 'node:fs'
import { relative, resolve } from 'node:path'
import { type FileIdentity, identityOf, writeFileAtomic } from '../../core/atomic-write.js'
import {
  applyBaseline,
  BASELINE_NAME,
  type Baseline,
  type BaselineOutcome,
  baselineCount,
  baselineText,
  findBaseline,
  readBaseline,
} from '../../core/lint/baseline.js'
import type { CheckResult } from '../../core/lint/engine.js'
import { writeRefusal } from '../../core/lint/write-refusal.js'
import { plural, repoRoot } from '../../ui/lint/model.js'
import { terminalLineText } from '../../ui/terminal.js'
import { UserError } from '../errors.js'
import { onStopSignals } from '../signals.js'

export interface BaselineFlags {
  baseline?: string
  update: boolean
  prune: boolean
}

export interface BaselineUsed {
  /** As shown: relative to the working dir. */
  shown: string
  outcome: BaselineOutcome
}

const shownPath = (p: string, cwd: string) => relative(cwd, p) || '.'

/**
 * The baseline of a lint run, matched against its findings, and rewritten first when asked
 * (the outcome is then that of the file written). Null when there is none: no --baseline and no
 * `.ongrid-skill-baseline.json` from the working dir up to the repository root.
 */
export function lintBaseline(
  flags: BaselineFlags,
  paths: readonly string[],
  result: CheckResult,
  cwd: string = process.cwd(),
): BaselineUsed | null {
  const writing = flags.update || flags.prune
  let path: string | null =
    flags.baseline === undefined ? findBaseline(cwd, repoRoot(cwd)) : resolve(cwd, flags.baseline)
  if (path === null) {
    if (flags.prune)
      throw new UserError(`--prune-baseline: no ${BASELINE_NAME} here or above, up to the repository root`)
    if (!flags.update) return null
    path = resolve(repoRoot(cwd), BASELINE_NAME)
  }
  const shown = flags.baseline ?? shownPath(path, cwd)
  // Never written through a link, nor when read-only (core/lint/write-refusal.ts); what was read must
  // still be there when written.
  let expect: FileIdentity | undefined
  let base: Baseline
  const exists = lstatSync(path, { throwIfNoEntry: false })
  if (exists === undefined && flags.update) base = { path, files: new Map() }
  else {
    if (exists !== undefined && writing) {
      const refused = writeRefusal(exists)
      if (refused !== null)
        throw new UserError(
          `--${flags.update ? 'update' : 'prune'}-baseline: ${shown} ${refused}`,
          undefined,
          exists.isSymbolicLink() ? 'give --baseline the file itself to update it' : undefined,
        )
      expect = identityOf(exists)
    }
    base = readBaseline(path, shown)
  }
  // The manager's verdict is never baselined; what it does not refuse (schemas) can be.
  const never = new Set(
    result.rules.filter((r) => r.category === 'manager' && !r.notRefused).map((r) => r.id),
  )
  const run = {
    reports: result.files,
    scope: (paths.length > 0 ? paths : ['.']).map((p) => resolve(cwd, p)),
    never,
  }
  let outcome = applyBaseline({ ...run, baseline: base })
  if (!writing) return { shown, outcome }

  const files = flags.update ? outcome.updated : outcome.pruned
  const text = baselineText(files, base.schema)
  const say = (s: string) => process.stderr.write(`${terminalLineText(s, process.stderr.isTTY === true)}\n`)
  const what = plural(baselineCount(files), 'finding')
  if (text === base.text) {
    say(`baseline ${shown}: unchanged (${what})`)
  } else {
    // A stop signal during the write is held until it is done (renamed or discarded): no temp
    // file is left behind, and the run then ends 128 + n.
    const off = onStopSignals(() => {})
    let done: ReturnType<typeof writeFileAtomic>
    try {
      done = writeFileAtomic(path, text, { expect })
    } finally {
      off()
    }
    if (!done.written) throw new UserError(`baseline ${shown} changed during the run: left alone`)
    if (flags.update) say(`baseline ${shown}: ${what} recorded`)
    else {
      const gone = outcome.fixed.reduce((n, e) => n + e.count, 0)
      say(`baseline ${shown}: ${plural(gone, 'fixed finding')} pruned, ${what} left`)
    }
  }
  outcome = applyBaseline({ ...run, baseline: { path, files } })
  return { shown, outcome }
}
