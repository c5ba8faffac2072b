/**
 * `lint --fix` and `--fix-dry-run`: the fixes the findings carry, applied pass after pass (the
 * files checked again after each) or shown as one pass's diff. Loaded only for those flags.
 */
import { fromText, toBuffer } from '../../core/go/gostring.js'
import type { CheckResult } from '../../core/lint/engine.js'
import { planFixes } from '../../core/lint/fix.js'
import { ChangeGuard, type FileFixed, type FileLeft, fixFile } from '../../core/lint/fix-files.js'
import type { Category, Finding } from '../../core/lint/types.js'
import { fileDiff } from '../../core/lint/unified-diff.js'
import { didYouMean, meanHint } from '../../core/suggest.js'
import { displayPath, plural } from '../../ui/lint/model.js'
import { terminalBytes, terminalLineText } from '../../ui/terminal.js'
import { UserError } from '../errors.js'
import { onStopSignals } from '../signals.js'

const CATEGORIES: readonly Category[] = ['manager', 'best-practice', 'tests']

/** At most this many passes (each fix removes its finding; a chain of fixes is short). */
const MAX_PASSES = 10

/** --fix-type values (repeatable, or comma-separated) as a set; all categories when none. */
export function parseFixTypes(values: readonly string[] | undefined): ReadonlySet<Category> {
  if (!values || values.length === 0) return new Set(CATEGORIES)
  const out = new Set<Category>()
  for (const v of values.flatMap((x) => x.split(','))) {
    const t = v.trim()
    if (!(CATEGORIES as readonly string[]).includes(t))
      throw new UserError(
        `--fix-type ${v}: expected ${CATEGORIES.join(', ')}`,
        undefined,
        meanHint(didYouMean(t, CATEGORIES)),
      )
    out.add(t as Category)
  }
  return out
}

export interface FixRun {
  /** The last check: the findings left (after --fix), or the first one (dry run). */
  result: CheckResult
  /** For a dry run: the findings whose fix the diff holds (they count as gone). */
  fixedInDiff: ReadonlySet<Finding>
  /** How many files the fixes changed (or would change). */
  filesFixed: number
  /** How many fixes were not applied because their file is not a regular file (Finding.unfixable). */
  refused: number
}

/** What --fix has written so far: the summary's counts, for a stop signal too. */
export interface FixProgress {
  problems: number
  files: Set<string>
}

const summary = (verb: string, p: FixProgress) =>
  `${verb} ${plural(p.problems, 'problem')} in ${plural(p.files.size, 'file')}`

/**
 * Ends `lint --fix` at a stop signal, from its first check to its last (call the result once the
 * run is over). Files are written one at a time with a turn of the event loop between them, and a
 * signal is handled only at such a turn: never while a file is written. So the handler exits at
 * once, 128 + n, saying how many files were written before the stop; nothing further is.
 */
export function stopFixesOnSignal(progress: FixProgress): () => void {
  return onStopSignals((signal, code) => {
    process.stderr.write(
      `ongrid-skill: stopped by ${signal}: ${summary('fixed', progress)}, nothing further written\n`,
    )
    process.exit(code)
  })
}

/** One turn of the event loop: a stop signal that came meanwhile is handled in it. */
const turn = () => new Promise<void>((r) => setImmediate(r))

/**
 * Runs the fixes over a check's result: `recheck` checks the same PATHs again. `startedMs`: when
 * the run began (a file modified after it is left alone). Writes the diff (dry run) on stdout and
 * what was done on stderr; `progress` counts what was written (or would be).
 */
export async function runFixes(
  first: CheckResult,
  recheck: () => Promise<CheckResult>,
  opts: {
    types: ReadonlySet<Category>
    dryRun: boolean
    startedMs: number
    progress?: FixProgress
    suggestions?: boolean
  },
): Promise<FixRun> {
  const guard = new ChangeGuard(opts.startedMs)
  const cwd = process.cwd()
  const tty = process.stderr.isTTY === true
  const stdoutTTY = process.stdout.isTTY === true
  const say = (file: string, text: string) =>
    process.stderr.write(`${terminalLineText(displayPath(file, cwd), tty)}: ${terminalLineText(text, tty)}\n`)
  let result = first
  const progress = opts.progress ?? { problems: 0, files: new Set<string>() }
  const fixedInDiff = new Set<Finding>()
  const leftAlone = new Set<string>()
  // Fixes the rules have but not offered (a symlinked file): each said, and counted.
  const firstCategory = new Map(first.rules.map((r) => [r.id, r.category]))
  const refused = first.files
    .filter((f) => !f.ignored)
    .flatMap((f) => f.findings)
    .filter((x) => x.unfixable !== undefined && opts.types.has(firstCategory.get(x.ruleId) as Category))
  for (const x of refused)
    say(x.file, `${opts.dryRun ? 'would not fix' : 'not fixed'} ${x.ruleId}: ${x.unfixable}`)
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const category = new Map(result.rules.map((r) => [r.id, r.category]))
    const found = result.files.filter((f) => !f.ignored).flatMap((f) => f.findings)
    // --fix-suggestions: a finding with no certain fix takes its first suggestion's.
    const suggested = new Map<Finding, string>()
    const findings = opts.suggestions
      ? found.map((x) => {
          const s = x.fix === undefined ? x.suggestions?.[0] : undefined
          if (s === undefined) return x
          const y = { ...x, fix: s.fix }
          suggested.set(y, s.message)
          return y
        })
      : found
    const plans = planFixes(findings, (x) => opts.types.has(category.get(x.ruleId) as Category))
    for (const f of leftAlone) plans.delete(f)
    if (plans.size === 0) break
    // Each suggestion is said before anything is written: it changes what the manager does.
    for (const p of plans.values()) {
      for (const x of p.findings) {
        const message = suggested.get(x)
        if (message !== undefined)
          say(x.file, `${opts.dryRun ? 'would apply' : 'applying'} suggestion (${x.ruleId}): ${message}`)
      }
    }
    let changed = 0
    for (const plan of plans.values()) {
      // A stop signal is handled here, between two files (stopFixesOnSignal).
      if (!opts.dryRun) await turn()
      const o: FileFixed | FileLeft = fixFile(plan, guard, opts.dryRun)
      if (o.kind === 'left') {
        leftAlone.add(o.file)
        say(o.file, o.reason)
        continue
      }
      if (o.fixed.length === 0) continue
      changed++
      progress.files.add(o.file)
      progress.problems += o.fixed.length
      if (opts.dryRun) {
        for (const x of o.fixed) fixedInDiff.add(x)
        // The diff is a byte string: the file's bytes, and the path's UTF-8 bytes. On a terminal,
        // their control characters are shown escaped (an OSC 52 in a skill.json is not obeyed).
        process.stdout.write(
          toBuffer(
            terminalBytes(fileDiff(fromText(displayPath(o.file, cwd)), o.before, o.edits, o.mode), stdoutTTY),
          ),
        )
      }
    }
    if (opts.dryRun || changed === 0) break
    result = await recheck()
  }
  const notApplied =
    refused.length === 0
      ? ''
      : `; ${plural(refused.length, 'fix', 'fixes')} ${opts.dryRun ? 'would not be' : 'not'} applied (said above)`
  process.stderr.write(`${summary(opts.dryRun ? 'would fix' : 'fixed', progress)}${notApplied}\n`)
  return { result, fixedInDiff, filesFixed: progress.files.size, refused: refused.length }
}
