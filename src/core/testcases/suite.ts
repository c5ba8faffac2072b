import { isUtf8 } from 'node:buffer'
import { relative } from 'node:path'
import { bytesOf, type GoBytes, toBuffer, toText } from '../go/gostring.js'
import { lstat } from '../go/os/file.js'
import { dir, join } from '../go/path/filepath/path.js'
import { quote } from '../go/strconv/quote.js'
import { collectTargets, type RootUsed, type TargetOptions } from '../lint/targets.js'
import { buildSubprocessSkill, type SubprocessSkill } from '../loader/build.js'
import { parseManifest } from '../loader/manifest.js'
import { notJudgedText, readManifest, whole } from '../loader/manifest-read.js'
import { buildFailedText } from '../loader/registry.js'
import type { TraceTools } from '../trace/strace-run.js'
import { type CaseFile, caseFiles, loadCaseFile, type TestCase } from './cases.js'
import { type CaseOutcome, type Failure, runCase } from './run.js'
import { type SnapshotUpdate, writeSnapshots } from './snapshot.js'

/** A pack found under the PATHs, with its case files. */
export interface PackPlan {
  /** The pack dir (text, absolute). */
  dir: string
  /** The skill's name, or the dir's name when the loader rejects the pack. */
  name: string
  skill: SubprocessSkill | null
  /** The loader's line when it rejects the pack. */
  rejected: string | null
  files: CaseFile[]
}

/** One line of the report: a case, or a case file / pack that could not run. */
export interface Item {
  pack: PackPlan
  /** The case name; for a broken case file, its path; for a rejected pack, `(pack)`. */
  name: string
  /** The case file, relative to the pack dir ('' for a rejected pack). */
  file: string
  /** The line of the case in its file (null: not a case, a broken file or a rejected pack). */
  line: number | null
  case: TestCase | null
  /** Failures known before anything runs (a bad case file, a rejected pack). */
  problems: Failure[]
}

export interface ItemResult {
  item: Item
  passed: boolean
  failures: Failure[]
  durationMs: number
  outcome: CaseOutcome | null
  /**
   * --update took this case's snapshot; set back to false if its case file was then not
   * written (known after the run: a reporter that prints each result at once says "taken").
   */
  updated: boolean
}

/**
 * Finds packs as `validate` does (skill.json targets; SKILL.md skills have no entry to run),
 * leaving out node_modules and VCS dirs unless `opts.defaultIgnore` is false; `opts.leftOut`
 * and `opts.roots`, when given, are filled with what was left out and the roots used.
 */
export function findPacks(
  paths: readonly GoBytes[],
  root?: GoBytes,
  opts: TargetOptions & { leftOut?: Map<string, number>; roots?: RootUsed[] } = {},
): PackPlan[] {
  const targets = collectTargets(paths.length > 0 ? paths : [bytesOf('.')], root, opts)
  for (const [name, n] of targets.leftOut) opts.leftOut?.set(name, (opts.leftOut.get(name) ?? 0) + n)
  opts.roots?.push(...targets.roots)
  const out: PackPlan[] = []
  for (const t of targets.files) {
    if (t.kind !== 'manifest') continue
    const packDir = toText(dir(t.path))
    const files = isUtf8(toBuffer(dir(t.path)))
      ? caseFiles(packDir).map((f) => loadCaseFile(f))
      : unreadCases(bytesOf(dir(t.path)))
    let skill: SubprocessSkill | null = null
    let rejected: string | null = null
    // Read as run reads it: a FIFO blocks as it blocks the manager; a device that does not end
    // (/dev/zero) is not read past DEVICE_CAP, and one too large to hold is not held.
    let read = readManifest(t.path)
    if (read.kind === 'fifo') read = whole(t.path)
    if (read.kind === 'endless' || read.kind === 'too-large')
      rejected = notJudgedText(toText(t.path), read.kind)
    else if (read.kind === 'read') {
      const file = read.file
      const parsed = parseManifest(t.path, () => file)
      if (parsed.err) rejected = `skill loader: parse ${toText(t.path)}: ${toText(parsed.err.error())}`
      else {
        const built = buildSubprocessSkill(parsed.manifest, t.path, t.root)
        if (built.ok) skill = built.value
        else rejected = toText(buildFailedText(parsed.manifest.name, t.path, built.err.error()))
      }
    }
    out.push({
      dir: packDir,
      name: skill ? toText(skill.key) : (packDir.split('/').pop() ?? packDir),
      skill,
      rejected,
      files,
    })
  }
  return out
}

/**
 * The case files of a pack dir whose name is not UTF-8: Node reads case files and spawns entries
 * by text paths, so its tests/ dir (when there is one) is one problem that says so, not nothing.
 */
function unreadCases(packDir: GoBytes): CaseFile[] {
  const tests = join(packDir, bytesOf('tests'))
  const t = lstat(tests)
  if (!t.ok || !t.value.isDir()) return []
  const file = toText(tests)
  const message = `not read: the pack dir's name is not UTF-8 (${toText(quote(packDir))}), and the test runner reads case files and spawns entries by text paths`
  return [
    { file, cases: [], problems: [{ kind: 'shape', file, pointer: '', message }], json: null, text: null },
  ]
}

/** The items to run, in report order; cases filtered by name (`filter.test`: a RegExp, or names matched already). */
export function plan(packs: PackPlan[], filter: { test(name: string): boolean } | null): Item[] {
  const items: Item[] = []
  for (const pack of packs) {
    const cases = pack.files.flatMap((f) => f.cases).filter((c) => filter === null || filter.test(c.name))
    const problems = pack.files.flatMap((f) => f.problems)
    if (cases.length === 0 && problems.length === 0) continue
    if (pack.rejected !== null) {
      items.push({
        pack,
        name: '(pack)',
        file: '',
        line: null,
        case: null,
        problems: [{ kind: 'load', message: pack.rejected }],
      })
      continue
    }
    for (const f of pack.files) {
      if (f.problems.length > 0)
        items.push({
          pack,
          name: relative(pack.dir, f.file),
          file: relative(pack.dir, f.file),
          line: null,
          case: null,
          problems: f.problems.map((p) => ({
            kind: 'case',
            message: `${p.pointer || '(file)'}: ${p.message}`,
          })),
        })
      for (const c of f.cases)
        if (filter === null || filter.test(c.name))
          items.push({
            pack,
            name: c.name,
            file: relative(pack.dir, f.file),
            line: c.line,
            case: c,
            problems: [],
          })
    }
  }
  return items
}

export interface RunOptions {
  jobs: number
  bail: boolean
  update: boolean
  /** Keep each successful entry's stdout in its outcome (the audit store records it). */
  keepStdout?: boolean
  signal?: AbortSignal
  /** A case starts (any order). */
  onStart?: (item: Item, index: number) => void
  /** The entry's stderr, as it comes. */
  onStderr?: (item: Item, index: number, chunk: Buffer) => void
  /** Results, strictly in plan order. */
  onResult: (r: ItemResult, index: number) => void
  /** ExecuteOptions.collectGarbage. */
  collectGarbage?: () => void
  /**
   * Trace the runs (--trace/--sandbox: every case; otherwise only the cases with expect.effects,
   * when `tools` is given).
   */
  trace?: { tools: TraceTools; all: boolean; sandbox: boolean; allowNet: boolean }
}

export interface RunSummary {
  passed: number
  failed: number
  /** Items never started (--bail, or interrupted). */
  notRun: number
  updated: number
  /** Case files whose snapshots could not be written (one line each). */
  snapshotErrors: string[]
  durationMs: number
  /** Dirs the walk left out by default (core/lint/targets.ts), how many of each; set by the caller. */
  leftOut?: ReadonlyMap<string, number>
  /** The allow-list roots used, and whether each was assumed (no --root); set by the caller. */
  roots?: readonly RootUsed[]
}

/**
 * How far past the first unreported item the run may go, per job: results finished out of
 * order wait for it in memory, so a slow case holds at most `jobs × HELD_PER_JOB` of them,
 * however many cases there are (memory bounded by -j).
 */
export const HELD_PER_JOB = 8

/**
 * Runs the items, up to `jobs` at once, and reports each result in plan order as soon as
 * every item before it is reported: only the items in flight or waiting for an earlier one
 * are held, at most `jobs × HELD_PER_JOB` past the first unreported one. With `bail`, no item starts after the first failure (those running finish).
 * Snapshots are written per case file once all runs are over.
 */
export async function runItems(items: Item[], opts: RunOptions): Promise<RunSummary> {
  const started = process.hrtime.bigint()
  const done: (ItemResult | undefined)[] = new Array(items.length)
  const summary: RunSummary = {
    passed: 0,
    failed: 0,
    notRun: 0,
    updated: 0,
    snapshotErrors: [],
    durationMs: 0,
  }
  let next = 0
  let emitted = 0
  let stop = false
  const updates = new Map<string, { text: string; list: SnapshotUpdate[]; results: ItemResult[] }>()

  // Workers waiting for the report to catch up (see HELD_PER_JOB).
  const waiting: (() => void)[] = []
  const emit = () => {
    while (emitted < items.length && done[emitted] !== undefined) {
      const r = done[emitted] as ItemResult
      done[emitted] = undefined
      opts.onResult(r, emitted)
      emitted++
    }
    for (const wake of waiting.splice(0)) wake()
  }
  const window = Math.max(1, opts.jobs) * HELD_PER_JOB

  const runOne = async (i: number): Promise<ItemResult> => {
    const item = items[i]
    if (item.case === null || item.pack.skill === null)
      return { item, passed: false, failures: item.problems, durationMs: 0, outcome: null, updated: false }
    opts.onStart?.(item, i)
    const outcome = await runCase(item.pack.skill, item.case, {
      update: opts.update,
      keepStdout: opts.keepStdout,
      signal: opts.signal,
      onStderr: opts.onStderr ? (chunk) => opts.onStderr?.(item, i, chunk) : undefined,
      collectGarbage: opts.collectGarbage,
      trace:
        opts.trace !== undefined && (opts.trace.all || item.case.expect.effects !== undefined)
          ? { ...opts.trace, skillClass: item.pack.skill.class }
          : undefined,
    })
    const result: ItemResult = {
      item,
      passed: outcome.passed,
      failures: outcome.failures,
      durationMs: outcome.durationMs,
      outcome,
      updated: false,
    }
    if (outcome.snapshot !== undefined) {
      const file = item.pack.files.find((f) => f.file === item.case?.file)
      if (file && file.text !== null) {
        const u = updates.get(file.file) ?? { text: file.text, list: [], results: [] }
        u.list.push({ index: item.case.index, result: outcome.snapshot.result })
        u.results.push(result)
        updates.set(file.file, u)
        // Taken; whether it is written is known once its file is (below).
        result.updated = true
      }
    }
    return result
  }

  const worker = async () => {
    while (!stop && next < items.length && !opts.signal?.aborted) {
      // The item being waited for is in flight (it is not reported yet, and started): it wakes us.
      if (next >= emitted + window) {
        await new Promise<void>((r) => waiting.push(r))
        continue
      }
      const i = next++
      const r = await runOne(i)
      done[i] = r
      if (r.passed) summary.passed++
      else summary.failed++
      if (!r.passed && opts.bail) stop = true
      emit()
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, Math.min(opts.jobs, items.length)) }, worker))
  // After --bail or an interrupt, items never started leave gaps: report what did run, in order.
  for (let i = emitted; i < items.length; i++) {
    const r = done[i]
    if (r === undefined) summary.notRun++
    else opts.onResult(r, i)
  }
  for (const [file, u] of updates) {
    try {
      writeSnapshots(file, u.text, u.list)
      summary.updated += u.list.length
    } catch (e) {
      summary.snapshotErrors.push((e as Error).message)
      for (const r of u.results) r.updated = false
    }
  }
  summary.durationMs = Number(process.hrtime.bigint() - started) / 1e6
  return summary
}
