import { existsSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { toText } from '../../core/go/gostring.js'
import type { FixedEntry } from '../../core/lint/baseline.js'
import type { FileReport } from '../../core/lint/engine.js'
import type { RootUsed } from '../../core/lint/targets.js'
import { type Finding, type RuleMeta, type Severity, severityRank } from '../../core/lint/types.js'
import type { Release } from '../../core/releases/release.js'

/** What every format renders: the files checked (ignored ones dropped), findings already filtered by --quiet. */
export interface LintOutput {
  command: 'validate' | 'lint' | 'marketplace check' | 'marketplace verify'
  files: FileReport[]
  rules: RuleMeta[]
  ignored: number
  /** Directory paths are shown relative to. */
  cwd: string
  /** The repository root, that GitHub annotations and SARIF locations are relative to (see repoRoot). */
  repo: string
  failSeverity: Severity
  /**
   * Shown on a terminal: paths, messages and hints (which quote what packs hold) have their
   * control characters escaped as %q would (stylish and github; in stylish a newline
   * too); off a terminal they are byte-exact.
   */
  terminal?: boolean
  /** validate and lint: the dirs the walk left out by default (targets.ts), how many of each. */
  leftOut?: ReadonlyMap<string, number>
  /** validate and lint: the allow-list roots used. */
  roots?: readonly RootUsed[]
  /** validate and lint: the manager release answered for (said when it is not the default). */
  release?: Release
  /** The exit code the command ends with (the json document's `exit_code`; 0 when not given). */
  exitCode?: number
  /** Why that code is not 0 (the json document's `error.message`). */
  failure?: string
  /** lint with a baseline (core/lint/baseline.ts). */
  baseline?: BaselineShown
  /** lint --statistics: the findings per rule (statistics.ts) instead of each (stylish) or beside them (json). */
  statistics?: boolean
}

/** What the formats say of the baseline: which findings it accepts, which of its entries are gone. */
export interface BaselineShown {
  /** The file, as shown (relative to the working dir). */
  path: string
  /** The findings it accepts: listed by json, junit and SARIF (as suppressed), counted by the others. */
  findings: ReadonlySet<Finding>
  /** Entries of the files checked that no finding matched any more: prune them. */
  fixed: readonly FixedEntry[]
}

/** Whether the baseline accepts this finding (it then neither fails the run nor is counted as a problem). */
export function isBaselined(o: LintOutput, f: Finding): boolean {
  return o.baseline?.findings.has(f) === true
}

/** The findings the user is to act on: not those the baseline accepts. */
export function newFindings(o: LintOutput, findings: readonly Finding[]): Finding[] {
  return o.baseline ? findings.filter((f) => !o.baseline?.findings.has(f)) : [...findings]
}

/** The roots as the summaries give them: absolute text, and whether each was assumed. */
export function rootsShown(o: LintOutput): { path: string; assumed: boolean }[] {
  return (o.roots ?? []).map((r) => ({ path: toText(r.path), assumed: r.assumed }))
}

export interface Counts {
  files: number
  /** The skill.json files among them: every one the manager's walk finds under the PATHs. */
  manifests: number
  errors: number
  warnings: number
  infos: number
  ignored: number
  /** With a baseline: the findings it accepts (not counted above) and its entries now fixed. */
  baselined?: number
  fixed?: number
}

export function counts(o: LintOutput): Counts {
  const c: Counts = {
    files: o.files.filter((f) => f.kind !== 'dir').length,
    manifests: o.files.filter((f) => f.kind === 'manifest').length,
    errors: 0,
    warnings: 0,
    infos: 0,
    ignored: o.ignored,
  }
  if (o.baseline) {
    c.baselined = 0
    c.fixed = o.baseline.fixed.reduce((n, e) => n + e.count, 0)
  }
  for (const f of o.files) {
    for (const x of f.findings) {
      if (c.baselined !== undefined && isBaselined(o, x)) c.baselined++
      else if (x.severity === 'error') c.errors++
      else if (x.severity === 'warn') c.warnings++
      else c.infos++
    }
  }
  return c
}

/** A path as shown: relative to the working dir, `/`-separated. */
export function displayPath(file: string, cwd: string): string {
  const r = relative(cwd, file)
  return r === '' ? '.' : r
}

export function fails(f: Finding, failSeverity: Severity): boolean {
  return severityRank(f.severity) >= severityRank(failSeverity)
}

export function plural(n: number, word: string, many = `${word}s`): string {
  return `${n} ${n === 1 ? word : many}`
}

/**
 * The repository root CI tools resolve paths against: GITHUB_WORKSPACE, else the git top level
 * (the nearest dir above cwd holding `.git`, a dir or a worktree's file), else cwd. A job with
 * `working-directory:` still annotates the right file.
 */
export function repoRoot(cwd: string, env: NodeJS.ProcessEnv = process.env): string {
  const ws = env.GITHUB_WORKSPACE
  if (ws !== undefined && ws !== '') return resolve(cwd, ws)
  for (let d = cwd; ; d = dirname(d)) {
    if (existsSync(join(d, '.git'))) return d
    if (dirname(d) === d) return cwd
  }
}

/** The line stylish puts above the findings of a tolerant read (Finding.tolerant). */
export const TOLERANT_NOTE = "read tolerantly past the manager's error (the manager stops there)"

/** Said of each finding of a tolerant read where a format has no field for it. */
export const TOLERANT_FINDING = "found by a tolerant read past the manager's error (the manager stops there)"

/** A finding's text with its hint (a line under it) and, for a tolerant read's, a line saying so. */
export function messageWithHint(x: { message: string; hint?: string; tolerant?: true }): string {
  return `${x.message}${x.hint ? `\n${x.hint}` : ''}${x.tolerant ? `\n${TOLERANT_FINDING}` : ''}`
}
