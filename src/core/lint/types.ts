import type { GoError } from '../go/errors.js'
import type { GoString } from '../go/gostring.js'

/** How much a finding matters; `off` (config only) disables a rule. */
export type Severity = 'error' | 'warn' | 'info'
export type Setting = Severity | 'off'

export const SEVERITIES: readonly Severity[] = ['error', 'warn', 'info']
export const SETTINGS: readonly Setting[] = ['off', 'info', 'warn', 'error']

/** A rule setting as written: off, info, warn (or `warning`, as other linters spell it), error. */
export function settingOf(text: string): Setting | undefined {
  const s = text === 'warning' ? 'warn' : text
  return (SETTINGS as readonly string[]).includes(s) ? (s as Setting) : undefined
}

/** error > warn > info. */
export function severityRank(s: Severity): number {
  return s === 'error' ? 3 : s === 'warn' ? 2 : 1
}

/**
 * `manager`: what the manager would refuse, or what every run would hit (the `validate` set).
 * `best-practice`: advice of ours (only `lint` runs these).
 * `tests`: the pack's own case files (`tests/*.json`, run by `test`); validate and lint run these.
 */
export type Category = 'manager' | 'best-practice' | 'tests'

/** What a file is: a subprocess pack's skill.json, or a native SKILL.md. */
export type TargetKind = 'manifest' | 'native'

/** One problem, located in a file. Positions are 1-based; the column counts characters (code points; `core/utf8-units.ts`). */
export interface Finding {
  ruleId: string
  severity: Severity
  /** Absolute path of the file (text). */
  file: string
  line: number
  column: number
  /** Byte offset in the file of the position, null for whole-file findings (1:1). */
  offset: number | null
  /** Text (not a byte string). For manager rules, the manager's own words. */
  message: string
  /** Our explanation, when the message alone does not say what to do. */
  hint?: string
  /** The certain fix (`lint --fix` applies it): only what the manager already assumes, made explicit. */
  fix?: Fix
  /**
   * Why the rule's certain fix is not offered (then `fix` is absent): the file it would change is
   * not a regular file, a symlink say, and `--fix` never writes through one.
   */
  unfixable?: string
  /** Fixes that change behaviour: shown, never applied by `--fix`. */
  suggestions?: Suggestion[]
  /**
   * Found in a tolerant read of a file the manager refuses to decode (context.ts): reported
   * after the manager's verdict, with no fix; the manager itself never gets this far.
   */
  tolerant?: true
}

/**
 * One replacement in a file: the bytes `[range[0], range[1])` of the file as read become `text`.
 * Offsets are BYTE offsets of the file's own bytes (UTF-8 as stored, BOM included, CR kept), the
 * offsets `Finding.offset` uses; `text` is a byte string (`GoString`: a char code per byte). An
 * insertion has `range[0] === range[1]`. Editors convert with `utf16Range` (fix.ts).
 */
export interface TextEdit {
  range: readonly [number, number]
  text: GoString
}

/** Rule ids (and the sub ids of rules that have them) that did not check a file. */
export interface Unchecked {
  ids: ReadonlySet<string>
  subIds: readonly RegExp[]
}

/** Whether the rule (or sub id) `id` checked the file of `report` (FileReport.unchecked, engine.ts). */
export function checked(report: { unchecked?: Unchecked }, id: string): boolean {
  const u = report.unchecked
  return u === undefined || !(u.ids.has(id) || u.subIds.some((p) => p.test(id)))
}

/**
 * What a fix does to one file: text edits (sorted by range, non-overlapping: `applyEdits`), or a
 * mode change (`mode`: the permission bits the file gets, e.g. the entry's execute bit; no edits).
 */
export interface Fix {
  /** Absolute path (text) of the file the fix changes, when not the finding's own (the entry, for a mode). */
  file?: string
  edits: TextEdit[]
  mode?: number
}

/** A fix that changes what the manager does: offered with what it does, never applied by `--fix`. */
export interface Suggestion {
  /** What applying it does (text). */
  message: string
  fix: Fix
}

/** What a rule's fixes change: `text` edits of a file's bytes, or a file's `mode`. */
export type Fixable = 'text' | 'mode'

/** Whether a fix is always safe (ruff's applicability): `safe` false when it may change more than the finding names. */
export interface FixSafety {
  safe: boolean
  because: string
}

/** What a rule reports: where (a byte offset, or null for the whole file) and what. */
export interface Report {
  /** Byte offset in the file, or null (1:1). */
  at: number | null
  message: string
  hint?: string
  /** For SKILL.md findings whose position is known as line:column only. */
  line?: number
  column?: number
  /** A finding in another file than the target's (a case file): its absolute path; give line and column. */
  file?: string
  /** The certain fix, from the rule's pure fixer (rules with `fixable` only). */
  fix?: Fix
  /** Fixes that change behaviour (rules with `hasSuggestions` only). */
  suggestions?: Suggestion[]
  /** Rules with `subIds` only: the finding's own id (`entry/SC2086`), and its default severity. */
  ruleId?: string
  severity?: Severity
  /** What the other file (`file`) is: a pack's case file (the default), or any other file of a pack. */
  fileKind?: 'cases' | 'file'
}

export type ReportFn = (r: Report) => void

/**
 * A file of an example tree: text (mode 0644), `{ exec }` an executable, `{ link }` a symlink,
 * `{ dir: true }` a dir (empty; `mode` sets its permission bits).
 */
export type ExampleFile =
  | string
  | { exec: string }
  | { link: string }
  | { dir: true; mode?: number }
  | { file: string; mode: number }

/** A small tree of files, as written into a fresh dir, and what is checked in it. */
export interface RuleExample {
  /** Path (relative to the dir, `/`-separated) → content. */
  files: Readonly<Record<string, ExampleFile>>
  /** The PATH checked, relative to the dir (default `skills`). */
  path?: string
}

/** Trees the rule reports (`bad`) and trees it does not (`good`); docs/rules.md shows them, the tests replay them. */
export interface RuleExamples {
  bad: readonly RuleExample[]
  good: readonly RuleExample[]
  /** Why there is no bad tree (a state no tree on disk can hold); set only when `bad` is empty. */
  noBad?: string
}

/**
 * A part of a dir the walk could not read: there is no file to check, only the error; or (err
 * null) a symlink to a dir that holds packs, which the walk does not follow.
 */
export interface WalkError {
  path: GoString
  err: GoError | null
}

export interface Rule<C> {
  /** Stable, kebab-case, grouped by prefix: `manager/parse`, `practice/class-unset`. */
  id: string
  severity: Severity
  category: Category
  kind: TargetKind | 'any'
  /** One line for --list-rules and docs/rules.md. */
  docs: string
  /** Why it matters, when `docs` does not say it: what goes wrong in the manager, for the LLM or the author (docs/rules.md). */
  why?: string
  examples: RuleExamples
  /**
   * Set when the rule's findings carry a certain fix (ESLint's `meta.fixable`): `check` computes it
   * with a pure fixer exported beside it (the file's bytes in, `TextEdit`s out) and reports it.
   */
  fixable?: Fixable
  /** For a fixable rule: whether its fix is always safe (changes nothing but what the finding names), and why. */
  fixSafety?: FixSafety
  /** Set when the rule's findings may carry suggestions (ESLint's `meta.hasSuggestions`). */
  hasSuggestions?: boolean
  /** A manager-category rule whose findings the manager does not refuse (RuleMeta.notRefused). */
  notRefused?: boolean
  /**
   * What the rule reads beyond the pack's own files (the other packs, a program on the machine):
   * `lint --cache` never keeps its reports (core/lint/cache.ts).
   */
  readsBeyondPack?: string
  /**
   * Set when the rule's findings carry ids of their own (ShellCheck's codes: `entry/SC2086`), each
   * of which config files and `--rule` may set like a rule's id; the rule's own id sets them all.
   */
  subIds?: SubIds
  /**
   * Work the check needs that is async or costly (a schema compiled), done before the checks of
   * a file run, and only when the rule is on. Idempotent: several rules may share one.
   */
  prepare?(ctx: C): Promise<void>
  check(ctx: C, report: ReportFn): void
  /** For rules about the walk itself: called for each part of a dir the walk could not read or does not follow. */
  checkWalk?(w: WalkError, report: ReportFn): void
}

/** The ids of a rule's findings, when they are not the rule's own (Rule.subIds). */
export interface SubIds {
  /** Which ids (anchored). */
  pattern: RegExp
  /** The pattern as the config schema spells it (JSON Schema `pattern`). */
  schemaPattern: string
  /** What SARIF and hovers say of one id: a line, and where it is documented. */
  meta(id: string): { docs: string; helpUri: string }
}

/** The ids a config file or `--rule` may name: the rules' own, and the sub ids of rules that have them. */
export interface KnownIds extends Iterable<string> {
  has(id: string): boolean
}

export function knownIds(rules: readonly { id: string; subIds?: SubIds }[]): KnownIds {
  const ids = new Set(rules.map((r) => r.id))
  const patterns = rules.flatMap((r) => (r.subIds ? [r.subIds.pattern] : []))
  return {
    has: (id) => ids.has(id) || patterns.some((p) => p.test(id)),
    [Symbol.iterator]: () => ids[Symbol.iterator](),
  }
}

/** A rule's description without its check (for listings, docs, SARIF). */
export interface RuleMeta {
  id: string
  severity: Severity
  category: Category
  kind: TargetKind | 'any'
  docs: string
  /** Shown by docs/rules.md, when given. */
  why?: string
  /** Shown by docs/rules.md, when given. */
  examples?: RuleExamples
  fixable?: Fixable
  /** Shown by docs/rules.md, when given. */
  fixSafety?: FixSafety
  hasSuggestions?: boolean
  /** Where it is documented, when not in docs/rules.md (a sub id's: ShellCheck's wiki). */
  helpUri?: string
  /**
   * A rule of the manager category (validate runs it) whose findings the manager does not refuse
   * (it checks what the manager leaves unchecked, as schemas): they can be baselined.
   */
  notRefused?: boolean
}

/** The allow-list root as given to the checks, and the manifest or SKILL.md path (byte strings). */
export interface FileTarget {
  kind: TargetKind
  path: GoString
  root: GoString
}
