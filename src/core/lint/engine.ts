import { lstatSync, type Stats } from 'node:fs'
import { availableParallelism } from 'node:os'
import type { GoBytes, GoString } from '../go/gostring.js'
import { bytesOf, fromText, toText } from '../go/gostring.js'
import { abs, base, dir } from '../go/path/filepath/path.js'
import { type BuildCache, newBuildCache } from '../loader/build.js'
import type { Overlay } from '../overlay.js'
import { managerRelease, type Release } from '../releases/release.js'
import type { ConfigFinder, LintConfig } from './config.js'
import { type Context, ManifestContext, NativeContext, skipReason } from './context.js'
import { newEntryCache } from './entry.js'
import { ruleMeta } from './rule-meta.js'
import { collectTargets, type RootUsed, type Targets } from './targets.js'
import {
  type Finding,
  knownIds,
  type Report,
  type Rule,
  type RuleMeta,
  type Setting,
  type Severity,
  type TargetKind,
  type Unchecked,
} from './types.js'
import { writeRefusal } from './write-refusal.js'

export interface CheckOptions {
  /** PATH arguments, as the bytes given (cli/os-bytes.ts); none means `.`. */
  paths: readonly GoBytes[]
  /** --root, as the bytes given. */
  root?: GoBytes
  /**
   * The rules to run: MANAGER_RULES (registry-manager.js) for validate, RULES (registry.js) for
   * lint. Passed in so that validate never loads the best-practice modules.
   */
  rules: readonly Rule<Context>[]
  /** `manager`: the validate set (manager rules at their severities); `all`: every rule (lint). */
  set: 'manager' | 'all'
  /** --rule ID=SETTING, over the config file and the defaults. */
  overrides?: ReadonlyMap<string, Setting>
  /**
   * Read `.ongrid-skill.yaml` / `.yml` files: lint takes their rules and ignore globs, validate
   * (set `manager`) only their ignore globs, the manager's rules being no one's to turn down.
   */
  useConfig?: boolean
  /** Leave out node_modules and VCS dirs below each PATH (default true; targets.ts). */
  defaultIgnore?: boolean
  /** The config file for every checked file (--config, the bytes given), instead of the nearest one. */
  configPath?: GoBytes
  /** The manager release answered for: its builtin keys, its agents' tools (default: the newest). */
  release?: Release
  /** Builtin skill keys taken before any pack, instead of the release's. */
  builtins?: readonly GoString[]
  /** Editors' buffers (lsp, lint --stdin), read instead of the disk (core/overlay.ts). */
  overlay?: Overlay
  /** `lint --cache`: rules' reports kept from an earlier run (lint/cache.ts). */
  cache?: ReportCache
  /**
   * A skill.json the manager refuses to decode is also read tolerantly (tolerant.ts), and the
   * rules that need a decode report what they find in it, after the manager's verdict (lint).
   */
  tolerant?: boolean
}

/** Reports kept between runs, per pack (lint/cache.ts): what the engine asks of it. */
export interface ReportCache {
  /** Once a run, before any pack: what every pack's reports depend on (the walk, the release). */
  begin(run: { targets: Targets; release: Release }): void
  /** One pack: its kept reports, or where to keep them (null: this pack is not kept). */
  pack(ctx: Context, active: readonly Rule<Context>[], settings: string): KeptPack | null
}

export interface KeptPack {
  /**
   * The reports kept for a rule (undefined: none kept, the rule runs; null: kept as not having
   * checked the file, it asked for a part of the read that is missing).
   */
  stored(ruleId: string): readonly Report[] | null | undefined
  /** Every active rule's reports (null: it could not check the file), once the pack is checked. */
  keep(reports: ReadonlyMap<Rule<Context>, readonly Report[] | null>): void
}

export interface FileReport {
  /**
   * `cases`: a pack's case file (tests/*.json), reported after its skill.json; `file`: another
   * file of a pack (its entry, a file holding a secret), likewise.
   */
  kind: TargetKind | 'dir' | 'cases' | 'file'
  /** Absolute path (byte string). */
  path: GoString
  /** Absolute path (text). */
  file: string
  /** The skill's name as the file gives it (text), when it has one. */
  name: string | null
  findings: Finding[]
  /** Ignored by a config file: not reported (its name still counts for duplicates). */
  ignored: boolean
  ctx: Context | null
  /**
   * The rules that ran and did not check the file (they needed a part of the read the manager
   * could not give, and no tolerant read gave it): a baseline entry of theirs is neither found
   * nor fixed. Every rule, for a file that could not be read.
   */
  unchecked?: Unchecked
}

export interface CheckResult {
  files: FileReport[]
  /** The rules the run used (their default severities), for listings and SARIF. */
  rules: RuleMeta[]
  /** Dirs the walk left out by default: how many of each name (targets.ts). */
  leftOut: Map<string, number>
  /** The manager release the check answered for. */
  release: Release
  /** The allow-list roots used, and whether each was assumed (no --root). */
  roots: RootUsed[]
}

type NativeModule = typeof import('../native/skill-md.js')
let nativeModule: Promise<NativeModule> | null = null
let loadAllModule: Promise<typeof import('../marketplace/load-all.js')> | null = null

function absPath(p: GoBytes): GoString {
  const a = abs(p)
  return a.ok ? a.value : p
}

/**
 * A rule's report as a finding in `file` at `at` (`offset` null for a position given by line), with
 * its hint, and its fix and suggestions only where the rule's metadata declares them.
 */
function findingOf(
  rule: Rule<Context>,
  severity: Setting,
  file: string,
  at: { line: number; column: number; offset: number | null },
  r: Report,
): Finding {
  return {
    ruleId: r.ruleId !== undefined && rule.subIds?.pattern.test(r.ruleId) ? r.ruleId : rule.id,
    severity: severity as Finding['severity'],
    file,
    line: at.line,
    column: at.column,
    offset: at.offset,
    message: r.message,
    ...(r.hint ? { hint: r.hint } : {}),
    ...(r.fix && rule.fixable ? { fix: r.fix } : {}),
    ...(r.suggestions && r.suggestions.length > 0 && rule.hasSuggestions
      ? { suggestions: r.suggestions }
      : {}),
  }
}

/**
 * A fix is offered only for a file --fix would write (`core/lint/write-refusal.ts`: not a link, not
 * read-only): a finding whose fix would change another is not fixable, and says why.
 */
function offerableFixes(findings: Finding[], refusal: (file: string) => string | null): void {
  for (const x of findings) {
    if (x.fix === undefined) continue
    const target = x.fix.file ?? x.file
    const why = refusal(target)
    if (why === null) continue
    delete x.fix
    x.unfixable = `${target === x.file ? 'the file' : toText(base(fromText(target)))} ${why}`
  }
}

/** Where a report given by line (or none: the file's start) stands. */
const byLine = (r: Report) => ({ line: r.line ?? 1, column: r.column ?? 1, offset: null })

/** Runs the checks over every file the PATHs name, in order, as one set (like one manager boot). */
export async function check(opts: CheckOptions): Promise<CheckResult> {
  const RULES = opts.rules
  const rulesFor = (kind: TargetKind) => RULES.filter((r) => r.kind === 'any' || r.kind === kind)
  const targets = collectTargets(opts.paths.length > 0 ? opts.paths : [bytesOf('.')], opts.root, {
    defaultIgnore: opts.defaultIgnore,
    overlay: opts.overlay,
  })
  // The config module (and yaml, when a config file exists) is loaded only for lint.
  const configModule = opts.useConfig ? await import('./config.js') : null
  const finder: ConfigFinder | null = configModule
    ? new configModule.ConfigFinder(
        // validate runs part of the rules: a config naming others is for lint to judge.
        opts.set === 'manager' ? null : knownIds(RULES),
        opts.configPath === undefined ? undefined : absPath(opts.configPath),
        targets.listings,
        opts.overlay,
      )
    : null
  const isIgnored = (config: LintConfig | null, path: GoString) =>
    config && configModule ? configModule.isIgnored(config, path) : false
  const release = opts.release ?? managerRelease()
  const builtins = new Set<GoString>(opts.builtins ?? release.builtinSkillKeys)
  const firstPath = new Map<GoString, GoString>()
  const registered: ManifestContext[] = []
  const order = new Map(RULES.map((r, i) => [r.id, i]))
  const caches = new Map<GoString, BuildCache>()
  const entryCache = newEntryCache()
  // The chat runtime's walk of each root (LoadAll), made once, when a SKILL.md is under it.
  const loadAllWalks = new Map<GoString, import('../marketplace/load-all.js').LoadAllWalk>()
  const files: FileReport[] = []
  // Why a fix's file may not be written (null: it may, or cannot be looked at: writing it says why).
  const refusals = new Map<string, string | null>()
  const refusal = (file: string) => {
    let r = refusals.get(file)
    if (r === undefined) {
      let st: Stats | undefined
      try {
        st = lstatSync(file)
      } catch {}
      r = st === undefined ? null : writeRefusal(st)
      refusals.set(file, r)
    }
    return r
  }
  /** The sub ids reported (ShellCheck's codes), for the rule list SARIF gives. */
  const subSeen = new Map<string, { rule: Rule<Context>; severity: Severity }>()

  const setting = (r: Rule<Context>, config: LintConfig | null): Setting => {
    if (opts.set === 'manager') return r.category === 'manager' || r.category === 'tests' ? r.severity : 'off'
    return opts.overrides?.get(r.id) ?? config?.rules.get(r.id) ?? r.severity
  }
  /** A rule with sub ids runs when it is on, or when one of its sub ids is set to be. */
  const runs = (r: Rule<Context>, config: LintConfig | null): boolean => {
    if (setting(r, config) !== 'off') return true
    const sub = r.subIds?.pattern
    if (!sub || opts.set === 'manager') return false
    const on = (m: ReadonlyMap<string, Setting> | undefined) =>
      [...(m ?? [])].some(([id, s]) => s !== 'off' && sub.test(id))
    // --rule wins over the file: a sub id the file turns on stays off when --rule turns the rule off.
    return on(opts.overrides) || (opts.overrides?.get(r.id) === undefined && on(config?.rules))
  }
  /**
   * A report's severity: a sub id's own setting, then its rule's (--rule before the file), then
   * the severity the rule gives it, then the rule's default.
   */
  const severityOf = (r: Rule<Context>, rep: Report, config: LintConfig | null): Setting => {
    const sub = rep.ruleId !== undefined && r.subIds?.pattern.test(rep.ruleId) ? rep.ruleId : undefined
    if (sub === undefined || opts.set === 'manager') return setting(r, config)
    return (
      opts.overrides?.get(sub) ??
      opts.overrides?.get(r.id) ??
      config?.rules.get(sub) ??
      config?.rules.get(r.id) ??
      rep.severity ??
      r.severity
    )
  }

  /** What a file's findings depend on of the settings: lint's --rule and its config's rules. */
  const settingsKeys = new Map<LintConfig | null, string>()
  const settingsKey = (config: LintConfig | null) => {
    let k = settingsKeys.get(config)
    if (k === undefined) {
      k = JSON.stringify([opts.set, [...(opts.overrides ?? [])], [...(config?.rules ?? [])]])
      settingsKeys.set(config, k)
    }
    return k
  }
  opts.cache?.begin({ targets, release })

  const walkRules = RULES.filter((r) => r.checkWalk !== undefined)
  for (const w of targets.walkErrors) {
    const config = finder ? await finder.find(dir(w.path)) : null
    const file = toText(w.path)
    const findings: Finding[] = []
    for (const rule of walkRules) {
      const severity = setting(rule, config)
      if (severity === 'off') continue
      rule.checkWalk?.(w, (r: Report) => findings.push(findingOf(rule, severity, file, byLine(r), r)))
    }
    files.push({
      kind: 'dir',
      path: w.path,
      file,
      name: null,
      findings,
      ignored: isIgnored(config, w.path),
      ctx: null,
    })
  }

  /**
   * One target, its reports put in `out`. `started` is called once its rules' preparation begins:
   * everything before (its context, its registration, the manager's order) is done target by
   * target, in walk order.
   */
  const one = async (t: (typeof targets.files)[number], out: FileReport[], started: () => void) => {
    let ctx: Context
    let name: string | null = null
    if (t.kind === 'manifest') {
      let cache = caches.get(t.root)
      if (!cache) {
        cache = newBuildCache()
        // EvalSymlinks of each entry Lstats the pack dir and the entry's path: the walk did.
        for (const [d, listing] of targets.listings) cache.listed.set(d, listing.entries)
        caches.set(t.root, cache)
      }
      const m = new ManifestContext(
        t.path,
        t.root,
        cache,
        entryCache,
        targets.listings.get(dir(t.path)),
        opts.overlay,
      )
      m.release = release
      if (m.parsed && m.parsed.err === null) name = toText(m.parsed.manifest.name)
      if (m.skill) {
        const key = m.skill.key
        if (builtins.has(key)) m.taken = { by: 'builtin' }
        else {
          const first = firstPath.get(key)
          if (first !== undefined) m.taken = { by: 'pack', path: first }
          else {
            firstPath.set(key, t.path)
            m.earlier = registered.slice()
            registered.push(m)
          }
        }
      }
      ctx = m
    } else {
      let walked = loadAllWalks.get(t.root)
      if (!walked) {
        loadAllModule ??= import('../marketplace/load-all.js')
        walked = (await loadAllModule).walkLoadRoot(t.root)
        loadAllWalks.set(t.root, walked)
      }
      const notLoaded = await walked.fate(t.path)
      const skipped = notLoaded === null ? skipReason(t.path) : null
      if (notLoaded !== null) ctx = new NativeContext(t.path, t.root, null, '', null, notLoaded)
      else if (skipped !== null) ctx = new NativeContext(t.path, t.root, skipped, '', null)
      else {
        nativeModule ??= import('../native/skill-md.js')
        const parse = (await nativeModule).parseSkillMd(t.path, opts.overlay)
        ctx = new NativeContext(t.path, t.root, null, parse.raw ?? '', parse)
        const n = parse.skill?.get('name')
        if (n?.k === 'string') name = toText(n.value)
      }
    }
    const config = finder ? await finder.find(dir(t.path)) : null
    const ignored = isIgnored(config, t.path)
    const report: FileReport = {
      kind: t.kind,
      path: t.path,
      file: toText(t.path),
      name,
      findings: [],
      ignored,
      ctx,
    }
    out.push(report)
    if (ignored) return
    const active = rulesFor(t.kind).filter((r) => runs(r, config))
    // `lint --cache`: the reports kept for this pack answer for the rules they hold.
    const kept = opts.cache?.pack(ctx, active, settingsKey(config)) ?? null
    /** Prepares the rules on a context: the rules whose preparation asked for a part of the read that is missing. */
    const prepare = async (rules: readonly Rule<Context>[], on: Context): Promise<Set<Rule<Context>>> => {
      const missing = new Set<Rule<Context>>()
      for (const rule of rules) {
        if (!rule.prepare) continue
        if (on.kind === 'manifest') on.missed = false
        await rule.prepare(on)
        if (on.kind === 'manifest' && on.missed) missing.add(rule)
      }
      return missing
    }
    // Its preparation may wait (ShellCheck, a process): the next target may start its own, and
    // register its pack.
    const registeredBefore = registered.length
    started()
    let unprepared = await prepare(
      active.filter((r) => kept?.stored(r.id) === undefined),
      ctx,
    )
    const elsewhere = new Map<string, FileReport>()
    const tolerantFindings: Finding[] = []
    const seen = new Set<string>()
    const sameKey = (x: Finding) =>
      `${x.ruleId}\0${x.file}\0${x.offset ?? `${x.line}:${x.column}`}\0${x.message}`
    /** Each rule's reports on the file as the manager reads it (null: it could not check it): what `kept` keeps. */
    const toKeep = new Map<Rule<Context>, readonly Report[] | null>()
    /**
     * Runs a rule on a context (or says its kept reports again); whether it checked the file: it
     * did not when it asked for a part of the read that is missing (the decode, the build) and so
     * reported nothing.
     */
    const runRule = (rule: Rule<Context>, on: Context, stored?: readonly Report[] | null): boolean => {
      const tolerant = on.kind === 'manifest' && on.tolerant !== null
      let reported = false
      const say = (r: Report) => {
        reported = true
        const severity = severityOf(rule, r, config)
        if (severity === 'off') return
        if (r.ruleId !== undefined && rule.subIds?.pattern.test(r.ruleId))
          subSeen.set(r.ruleId, { rule, severity: r.severity ?? rule.severity })
        const other = r.file !== undefined && r.file !== report.file ? r.file : null
        const at =
          other !== null || r.line !== undefined
            ? byLine(r)
            : r.at === null
              ? { line: 1, column: 1, offset: null }
              : { ...on.lines.position(r.at), offset: r.at }
        const finding = findingOf(rule, severity, other ?? report.file, at, r)
        if (tolerant) {
          // Not the manager's view: no fix is offered for it (the file holds what the repairs left out).
          if (seen.has(sameKey(finding))) return
          delete finding.fix
          delete finding.suggestions
          finding.tolerant = true
        } else seen.add(sameKey(finding))
        if (other !== null) {
          let o = elsewhere.get(other)
          if (!o) {
            o = {
              kind: r.fileKind ?? 'cases',
              path: fromText(other),
              file: other,
              name: null,
              findings: [],
              ignored,
              ctx: null,
            }
            elsewhere.set(other, o)
          }
          o.findings.push(finding)
          return
        }
        ;(tolerant ? tolerantFindings : report.findings).push(finding)
      }
      if (stored === null) return false
      if (stored !== undefined) {
        for (const r of stored) say(r)
        return true
      }
      if (on.kind === 'manifest') on.missed = false
      const got: Report[] = []
      rule.check(on, (r: Report) => {
        got.push(r)
        say(r)
      })
      const checked = reported || !(on.kind === 'manifest' && (on.missed || unprepared.has(rule)))
      if (on === ctx) toKeep.set(rule, checked ? got : null)
      return checked
    }
    const missed = active.filter((rule) => !runRule(rule, ctx, kept?.stored(rule.id)))
    kept?.keep(toKeep)
    let unchecked = missed
    if (opts.tolerant === true && ctx.kind === 'manifest' && missed.length > 0) {
      // The manager refuses to decode the file: the rules that needed its decode see a tolerant
      // read of the same bytes (tolerant.ts), their findings marked as such, after the manager's.
      const tolerant = ctx.tolerantContext(caches.get(t.root))
      if (tolerant !== null) {
        tolerant.release = release
        const key = tolerant.skill?.key
        if (key !== undefined) {
          // Taken as the manager would find it; the pack itself is never registered (it is refused).
          // As the walk stood at this pack: later packs may be registered by now.
          const earlier = registered.slice(0, registeredBefore)
          if (builtins.has(key)) tolerant.taken = { by: 'builtin' }
          else {
            const first = earlier.find((m) => m.skill?.key === key)
            if (first !== undefined) tolerant.taken = { by: 'pack', path: first.path }
          }
          tolerant.earlier = earlier
        }
        unprepared = await prepare(missed, tolerant)
        unchecked = missed.filter((rule) => !runRule(rule, tolerant))
      }
    }
    if (ctx.kind === 'manifest' && ctx.parsed?.raw == null) unchecked = active
    report.unchecked = {
      ids: new Set(unchecked.map((r) => r.id)),
      subIds: unchecked.flatMap((r) => (r.subIds ? [r.subIds.pattern] : [])),
    }
    offerableFixes(report.findings, refusal)
    for (const other of elsewhere.values()) offerableFixes(other.findings, refusal)
    const byPosition = (a: Finding, b: Finding) =>
      a.line - b.line || a.column - b.column || (order.get(a.ruleId) ?? 0) - (order.get(b.ruleId) ?? 0)
    report.findings.sort(byPosition)
    // The manager's verdict first, then what the tolerant read found.
    report.findings.push(...tolerantFindings.sort(byPosition))
    for (const other of [...elsewhere.values()].sort((a, b) =>
      a.file < b.file ? -1 : a.file > b.file ? 1 : 0,
    )) {
      other.findings.sort(
        (a, b) => Number(a.tolerant === true) - Number(b.tolerant === true) || byPosition(a, b),
      )
      other.unchecked = report.unchecked
      out.push(other)
    }
  }
  // Targets one after another; one whose preparation waits (ShellCheck on a script not seen
  // before, a process of its own) lets the next ones start theirs, up to one per CPU at once
  // (the first lint of many shell entries). Their reports are put in walk order.
  const outputs: FileReport[][] = []
  const inFlight: Promise<void>[] = []
  const ahead = Math.max(2, availableParallelism())
  for (const t of targets.files) {
    const out: FileReport[] = []
    outputs.push(out)
    let started = () => {}
    const begun = new Promise<void>((resolve) => {
      started = resolve
    })
    const done = one(t, out, started)
    // Awaited below; a failure before then must not count as unhandled.
    done.catch(() => {})
    await Promise.race([begun, done])
    inFlight.push(done)
    if (inFlight.length >= ahead) await inFlight.shift()
  }
  await Promise.all(inFlight)
  for (const out of outputs) files.push(...out)

  const rules = RULES.filter((r) => opts.set === 'all' || r.category === 'manager').map(ruleMeta)
  for (const [id, { rule, severity }] of [...subSeen].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const m = rule.subIds?.meta(id)
    if (m) rules.push({ ...ruleMeta(rule), id, severity, docs: m.docs, helpUri: m.helpUri })
  }
  return { files, rules, leftOut: targets.leftOut, roots: targets.roots, release }
}
