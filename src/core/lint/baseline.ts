import { existsSync } from 'node:fs'
import { dirname, isAbsolute, join, posix, relative, resolve, sep } from 'node:path'
import { UserError } from '../errors.js'
import { checkValid } from '../go/encoding/json/scanner.js'
import { fromBuffer, toText } from '../go/gostring.js'
import { reasonText } from '../go/os/errors.js'
import { jsonSyntaxText } from '../json-syntax.js'
import { type JNode, parseTree } from '../json-tree.js'
import { NotRegularError, readFileBounded, sizeText, TooLargeError } from '../read-bounded.js'
import type { FileReport } from './engine.js'
import { checked, type Finding } from './types.js'

/**
 * The baseline: findings a repository has accepted, so that a rule can be turned on in one
 * with history (ESLint's suppressions file, with a fingerprint per finding). Keyed by file
 * (relative to the baseline's dir, `/`-separated), rule id, and the finding's fingerprint: the
 * JSON key path it sits at (`at`, a JSON pointer; empty outside a JSON document or for a whole
 * file) and its message with line, column and offset numbers taken out. No line number: a
 * finding keeps its entry when lines are inserted above it. `count` is how many findings of
 * that fingerprint the file may hold.
 */

/** The file looked for when --baseline is not given. */
export const BASELINE_NAME = '.ongrid-skill-baseline.json'
/** Larger than any baseline a repository keeps; a bound for a file the CLI reads. */
export const BASELINE_MAX_BYTES = 16 * 1024 * 1024
export const BASELINE_VERSION = 1

export interface BaselineEntry {
  at: string
  message: string
  count: number
}

/** file → rule id → entries (the file's own order: sorted when written). */
export type BaselineFiles = Map<string, Map<string, BaselineEntry[]>>

export interface Baseline {
  /** Absolute path of the file. */
  path: string
  files: BaselineFiles
  /** Its `$schema` key, kept when the file is rewritten. */
  schema?: string
  /** The file's text as read (absent: the file is to be created). */
  text?: string
}

/** A baseline that cannot be used: one line, exit 2. */
export class BaselineError extends UserError {}

/**
 * The default baseline: `.ongrid-skill-baseline.json` in the working dir or the nearest dir
 * above it, looking no higher than the repository root (`stop`, the dir holding `.git`).
 */
export function findBaseline(cwd: string, stop: string): string | null {
  for (let d = cwd; ; d = dirname(d)) {
    const p = join(d, BASELINE_NAME)
    if (existsSync(p)) return p
    if (d === stop || dirname(d) === d) return null
  }
}

function fail(path: string, why: string): never {
  throw new BaselineError(`baseline ${path}: ${why}`)
}

/** Reads and checks a baseline file (regular, bounded, the shape of schemas/ongrid-skill-baseline.schema.json). */
export function readBaseline(path: string, shown: string = path): Baseline {
  let bytes: Buffer
  try {
    bytes = readFileBounded(path, BASELINE_MAX_BYTES, { regularOnly: true })
  } catch (e) {
    if (e instanceof TooLargeError) fail(shown, `larger than ${sizeText(e.limit)}`)
    if (e instanceof NotRegularError) fail(shown, 'not a regular file')
    const why = reasonText(e)
    if ((e as { code?: unknown }).code === 'ENOENT')
      throw new BaselineError(`baseline ${shown}: ${why}`, undefined, '--update-baseline creates it')
    fail(shown, why)
  }
  const text = bytes.toString('utf8')
  return { path, text, ...parseBaseline(text, shown, bytes) }
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/** The file's text as a baseline; a BaselineError (one line) names the first thing wrong. */
export function parseBaseline(
  text: string,
  shown: string,
  bytes: Buffer = Buffer.from(text),
): { files: BaselineFiles; schema?: string } {
  let doc: unknown
  try {
    doc = JSON.parse(text)
  } catch {
    // Go's scanner says why and where, with nothing of the content.
    fail(shown, `not JSON: ${jsonSyntaxText(fromBuffer(bytes))}`)
  }
  if (!isObject(doc)) fail(shown, 'expected a JSON object')
  for (const k of Object.keys(doc)) {
    if (k !== '$schema' && k !== 'version' && k !== 'files') fail(shown, `unknown key ${JSON.stringify(k)}`)
  }
  if (doc.version !== BASELINE_VERSION)
    fail(shown, `version: expected ${BASELINE_VERSION}, not ${JSON.stringify(doc.version) ?? 'nothing'}`)
  if (doc.$schema !== undefined && typeof doc.$schema !== 'string') fail(shown, '$schema: expected a string')
  if (!isObject(doc.files)) fail(shown, 'files: expected an object')
  const files: BaselineFiles = new Map()
  for (const [file, rules] of Object.entries(doc.files)) {
    const where = `files[${JSON.stringify(file)}]`
    if (file === '' || isAbsolute(file) || file.includes('\\'))
      fail(shown, `${where}: expected a /-separated path relative to the baseline's dir`)
    if (!isObject(rules)) fail(shown, `${where}: expected an object of rule ids`)
    const byRule = new Map<string, BaselineEntry[]>()
    for (const [rule, entries] of Object.entries(rules)) {
      const at = `${where}[${JSON.stringify(rule)}]`
      if (!Array.isArray(entries)) fail(shown, `${at}: expected an array of entries`)
      const list: BaselineEntry[] = []
      entries.forEach((e, i) => {
        const w = `${at}[${i}]`
        if (!isObject(e)) fail(shown, `${w}: expected an object`)
        for (const k of Object.keys(e)) {
          if (k !== 'at' && k !== 'message' && k !== 'count')
            fail(shown, `${w}: unknown key ${JSON.stringify(k)}`)
        }
        if (typeof e.at !== 'string') fail(shown, `${w}.at: expected a string`)
        if (typeof e.message !== 'string') fail(shown, `${w}.message: expected a string`)
        if (typeof e.count !== 'number' || !Number.isSafeInteger(e.count) || e.count < 1)
          fail(shown, `${w}.count: expected a whole number ≥ 1`)
        list.push({ at: e.at, message: e.message, count: e.count })
      })
      byRule.set(rule, list)
    }
    files.set(file, byRule)
  }
  return typeof doc.$schema === 'string' ? { files, schema: doc.$schema } : { files }
}

/** The message without the positions some carry (`yaml: line 3: …`, `line 2, column 7`). */
export function normalizeMessage(message: string): string {
  return message.replace(/\b(line|column|offset) \d+/g, '$1 N')
}

function escapePointer(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1')
}

/** The JSON pointer of the innermost member or item holding `offset` ('' for the top). */
export function pointerAt(root: JNode, offset: number): string {
  let node: JNode = root
  let pointer = ''
  for (;;) {
    if (node.kind === 'object') {
      const m = node.members.find((x) => x.keyStart <= offset && offset < x.value.end)
      if (!m) return pointer
      pointer += `/${escapePointer(toText(m.key))}`
      node = m.value
    } else if (node.kind === 'array') {
      const i = node.items.findIndex((x) => x.start <= offset && offset < x.end)
      if (i < 0) return pointer
      pointer += `/${i}`
      node = node.items[i]
    } else return pointer
  }
}

/** The JSON tree of a checked file, when it is a JSON document (for the key paths). */
function treeOf(report: FileReport): JNode | null {
  const ctx = report.ctx
  if (ctx === null || ctx.kind !== 'manifest' || ctx.raw === '') return null
  // A file the manager refuses to decode: the tolerant read's text, whose offsets are the file's.
  const raw = checkValid(ctx.raw) === null ? ctx.raw : ctx.tolerated?.raw
  // parseTree reads only what Go's scanner found valid (on anything else it may not end).
  if (raw === undefined || checkValid(raw) !== null) return null
  try {
    return parseTree(raw)
  } catch {
    return null
  }
}

/** A finding's fingerprint: where it sits in the document, and what it says without positions. */
export interface Fingerprint {
  at: string
  message: string
}

/** The fingerprint of each finding of a file, in order. */
export function fingerprints(report: FileReport, dir?: string): Fingerprint[] {
  // A message naming a file names it from the baseline's dir: the same wherever the repository is.
  const prefix = dir === undefined ? null : dir.endsWith(sep) ? dir : dir + sep
  let tree: JNode | null | undefined
  return report.findings.map((f) => {
    let at = ''
    if (f.offset !== null) {
      tree = tree === undefined ? treeOf(report) : tree
      if (tree !== null) at = pointerAt(tree, f.offset)
    }
    const message = normalizeMessage(f.message)
    return { at, message: prefix === null ? message : message.split(prefix).join('') }
  })
}

/** A baselined finding no longer found: its entry (or the part of its count) that can be pruned. */
export interface FixedEntry {
  /** As the baseline keys it (relative to its dir). */
  file: string
  /** Absolute. */
  path: string
  rule: string
  at: string
  message: string
  count: number
}

export interface BaselineOutcome {
  /** The findings the baseline accepts. */
  baselined: Set<Finding>
  /** Entries of files in the run's scope that matched nothing (or fewer findings than counted). */
  fixed: FixedEntry[]
  /** The baseline's content after --update-baseline (current findings), or --prune-baseline. */
  updated: BaselineFiles
  pruned: BaselineFiles
}

export interface BaselineRun {
  /** The baseline (its files empty when it is to be created). */
  baseline: Baseline
  /** Every file of the run (ignored ones are skipped). */
  reports: readonly FileReport[]
  /** The absolute paths checked (PATHs): entries of files under them are the run's to judge. */
  scope: readonly string[]
  /** Rules whose findings are never baselined (the manager's verdict). */
  never: ReadonlySet<string>
}

const keyOf = (rule: string, fp: Fingerprint) => `${rule}\0${fp.at}\0${fp.message}`

function inScope(abs: string, scope: readonly string[]): boolean {
  return scope.some((s) => abs === s || abs.startsWith(s.endsWith(sep) ? s : s + sep))
}

/** A file's path as the baseline keys it. */
export function baselineKey(baselinePath: string, file: string): string {
  return relative(dirname(baselinePath), file).split(sep).join('/')
}

/**
 * Matches the run's findings against the baseline: a finding whose file, rule and fingerprint
 * have an entry with count left is baselined. Entries of files in scope left with a count are
 * fixed. Also gives the file's content for --update-baseline (the current findings, entries
 * of files out of scope kept) and --prune-baseline (the fixed counts taken off).
 */
export function applyBaseline(run: BaselineRun): BaselineOutcome {
  const base = run.baseline
  const dir = dirname(base.path)
  const remaining = new Map<string, Map<string, number>>()
  for (const [file, rules] of base.files) {
    const m = new Map<string, number>()
    for (const [rule, entries] of rules)
      for (const e of entries) {
        const k = keyOf(rule, e)
        m.set(k, (m.get(k) ?? 0) + e.count)
      }
    remaining.set(file, m)
  }
  const baselined = new Set<Finding>()
  const current: BaselineFiles = new Map()
  // Files a config ignores were not checked: their entries are neither fixed nor pruned.
  const ignored = new Set<string>()
  // A SKILL.md the manager refuses: the rules that would say more may not have run.
  const refused = new Set<string>()
  const reportOf = new Map<string, FileReport>()
  for (const report of run.reports) {
    const file = baselineKey(base.path, report.file)
    if (report.ignored) ignored.add(file)
    else reportOf.set(file, report)
  }
  // A pack's rules that did not check its skill.json did not check its other files either (its cases).
  const packs = [...reportOf]
    .filter(([, r]) => r.kind === 'manifest' && r.unchecked !== undefined && r.unchecked.ids.size > 0)
    .map(([file, r]) => [posix.dirname(file), r] as const)
  const coverOf = (file: string): FileReport | undefined => {
    const own = reportOf.get(file)
    if (own !== undefined) return own
    let best: readonly [string, FileReport] | undefined
    for (const p of packs)
      if (
        (p[0] === '.' || file.startsWith(`${p[0]}/`)) &&
        (best === undefined || p[0].length > best[0].length)
      )
        best = p
    return best?.[1]
  }
  /** Whether an entry of `rule` in `file` is the run's to judge (fixed when not found). */
  const judged = (file: string, rule: string): boolean => {
    if (!inScope(resolve(dir, file), run.scope) || ignored.has(file) || refused.has(file)) return false
    const r = coverOf(file)
    return r === undefined || checked(r, rule)
  }
  for (const report of run.reports) {
    if (report.ignored || report.findings.length === 0) continue
    const file = baselineKey(base.path, report.file)
    const left = remaining.get(file)
    const fps = fingerprints(report, dir)
    report.findings.forEach((f, i) => {
      if (run.never.has(f.ruleId)) {
        // A skill.json's rules say themselves which of them checked it (FileReport.unchecked).
        if (report.kind !== 'manifest') refused.add(file)
        return
      }
      const fp = fps[i]
      addEntry(current, file, f.ruleId, fp, 1)
      const k = keyOf(f.ruleId, fp)
      const n = left?.get(k) ?? 0
      if (n > 0) {
        left?.set(k, n - 1)
        baselined.add(f)
      }
    })
  }
  const fixed: FixedEntry[] = []
  const updated: BaselineFiles = new Map()
  const pruned: BaselineFiles = new Map()
  for (const [file, rules] of base.files) {
    const left = remaining.get(file)
    for (const [rule, entries] of rules) {
      // An entry for a manager rule (written by hand) never matches: dropped when rewritten.
      if (run.never.has(rule)) continue
      for (const e of entries) {
        if (!judged(file, rule)) {
          addEntry(updated, file, rule, e, e.count)
          addEntry(pruned, file, rule, e, e.count)
          continue
        }
        // Duplicate entries of one fingerprint share its count: take it off the first ones.
        const k = keyOf(rule, e)
        const gone = Math.min(e.count, left?.get(k) ?? 0)
        left?.set(k, (left.get(k) ?? 0) - gone)
        if (gone > 0)
          fixed.push({ file, path: resolve(dir, file), rule, at: e.at, message: e.message, count: gone })
        if (e.count > gone) addEntry(pruned, file, rule, e, e.count - gone)
      }
    }
  }
  for (const [file, rules] of current)
    for (const [rule, entries] of rules)
      for (const e of entries) {
        // Entries not judged are kept as they were: only findings beyond them are added.
        const kept = judged(file, rule) ? 0 : (countOf(base.files, file, rule, e) ?? 0)
        if (e.count > kept) addEntry(updated, file, rule, e, e.count - kept)
      }
  return { baselined, fixed, updated, pruned }
}

function countOf(files: BaselineFiles, file: string, rule: string, fp: Fingerprint): number | undefined {
  let n: number | undefined
  for (const e of files.get(file)?.get(rule) ?? [])
    if (e.at === fp.at && e.message === fp.message) n = (n ?? 0) + e.count
  return n
}

function addEntry(files: BaselineFiles, file: string, rule: string, fp: Fingerprint, count: number): void {
  let rules = files.get(file)
  if (!rules) {
    rules = new Map()
    files.set(file, rules)
  }
  let entries = rules.get(rule)
  if (!entries) {
    entries = []
    rules.set(rule, entries)
  }
  const e = entries.find((x) => x.at === fp.at && x.message === fp.message)
  if (e) e.count += count
  else entries.push({ at: fp.at, message: fp.message, count })
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

/** The file's text: keys and entries sorted, so that the same findings give the same bytes. */
export function baselineText(files: BaselineFiles, schema?: string): string {
  const out: Record<string, Record<string, BaselineEntry[]>> = {}
  for (const file of [...files.keys()].sort(byText)) {
    const rules = files.get(file) as Map<string, BaselineEntry[]>
    const o: Record<string, BaselineEntry[]> = {}
    for (const rule of [...rules.keys()].sort(byText)) {
      const entries = (rules.get(rule) as BaselineEntry[]).filter((e) => e.count > 0)
      if (entries.length === 0) continue
      o[rule] = entries
        .map((e) => ({ at: e.at, message: e.message, count: e.count }))
        .sort((a, b) => byText(a.at, b.at) || byText(a.message, b.message))
    }
    if (Object.keys(o).length > 0) out[file] = o
  }
  const doc = { ...(schema === undefined ? {} : { $schema: schema }), version: BASELINE_VERSION, files: out }
  return `${JSON.stringify(doc, null, 2)}\n`
}

/** How many findings a baseline's content accepts. */
export function baselineCount(files: BaselineFiles): number {
  let n = 0
  for (const rules of files.values())
    for (const entries of rules.values()) for (const e of entries) n += e.count
  return n
}
