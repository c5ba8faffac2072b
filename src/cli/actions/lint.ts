/**
 * The work of `validate` and `lint`, without oclif: the commands (src/commands/) and the fast
 * path (src/cli/fast.ts) both call these with parsed flags and get an exit code back.
 */

import { toBuffer } from '../../core/go/gostring.js'
import { ManifestContext } from '../../core/lint/context.js'
import { type CheckResult, check, type FileReport } from '../../core/lint/engine.js'
import { LIST_RULES_HINT } from '../../core/lint/errors.js'
import { selectRules } from '../../core/lint/rule-select.js'
import {
  type KnownIds,
  knownIds,
  SETTINGS,
  type Setting,
  type Severity,
  settingOf,
} from '../../core/lint/types.js'
import type { Overlay } from '../../core/overlay.js'
import { indentJSON } from '../../core/schema/go-any.js'
import { didYouMean, meanHint } from '../../core/suggest.js'
import { SCHEMA_WARN_MSG } from '../../core/tool-def.js'
import { LINT_FORMATS, type LintFormat, renderLint } from '../../ui/lint/format.js'
import { displayPath, fails, type LintOutput, repoRoot } from '../../ui/lint/model.js'
import { terminalLineText } from '../../ui/terminal.js'
import { EXIT, type InputOf, UserError } from '../errors.js'
import { managerReleaseOf } from '../manager-version.js'
import { parseNumberFlag } from '../number-flag.js'
import { argBytes, pathFlag, textPath } from '../os-bytes.js'
import { stdoutIsTTY, writeStdout } from '../output.js'
import type { lintSpec as Lint } from '../specs/lint.js'
import type { validateSpec as Validate } from '../specs/validate.js'
import type { BaselineUsed } from './lint-baseline.js'
import type { FixProgress } from './lint-fix.js'

export const FORMATS = LINT_FORMATS
export type Format = LintFormat

/** The format asked for: --json is --format json. */
export function formatOf(flags: { json?: boolean; format: Format }): Format {
  return flags.json === true ? 'json' : flags.format
}

/** Renders the result in the chosen format, applies --quiet, and decides the exit code. */
async function report(
  command: 'validate' | 'lint',
  result: CheckResult,
  format: Format,
  opts: {
    quiet: boolean
    failSeverity: Severity
    maxWarnings: number | null
    baseline?: BaselineUsed | null
    /** --exit-zero: findings do not fail the run. */
    exitZero?: boolean
    /** --statistics: the findings per rule. */
    statistics?: boolean
  },
): Promise<number> {
  const shown = result.files.filter((f) => !f.ignored)
  const accepted = opts.baseline?.outcome.baselined
  // Findings the baseline accepts neither fail the run nor count as warnings.
  const all = shown.flatMap((f) => f.findings).filter((x) => accepted?.has(x) !== true)
  const failed = opts.exitZero !== true && all.some((x) => fails(x, opts.failSeverity))
  const warnings = all.filter((x) => x.severity === 'warn').length
  const tooManyWarnings = opts.exitZero !== true && opts.maxWarnings !== null && warnings > opts.maxWarnings
  const failing = all.filter((x) => fails(x, opts.failSeverity)).length
  const output: LintOutput = {
    command,
    files: opts.quiet
      ? shown.map((f) => ({ ...f, findings: f.findings.filter((x) => fails(x, opts.failSeverity)) }))
      : shown,
    rules: result.rules,
    ignored: result.files.length - shown.length,
    cwd: process.cwd(),
    repo: format === 'github' || format === 'sarif' ? repoRoot(process.cwd()) : process.cwd(),
    failSeverity: opts.failSeverity,
    terminal: stdoutIsTTY(),
    leftOut: result.leftOut,
    roots: result.roots,
    release: result.release,
    ...(opts.baseline
      ? {
          baseline: {
            path: opts.baseline.shown,
            findings: opts.baseline.outcome.baselined,
            fixed: opts.baseline.outcome.fixed,
          },
        }
      : {}),
    ...(opts.statistics === true ? { statistics: true } : {}),
    exitCode: failed || tooManyWarnings ? EXIT.findings : EXIT.ok,
    failure: failed
      ? `${failing} finding${failing === 1 ? '' : 's'} at severity ${opts.failSeverity} or above`
      : tooManyWarnings
        ? `too many warnings: ${warnings} (maximum: ${opts.maxWarnings})`
        : undefined,
  }
  const text = await renderLint(format, output)
  writeStdout(
    tooManyWarnings && format === 'stylish'
      ? `${text}ongrid-skill found too many warnings (maximum: ${opts.maxWarnings})\n`
      : text,
  )
  return output.exitCode ?? EXIT.ok
}

/**
 * The manager rules at their severities over the PATHs: validate's check, and lint's verdict on
 * what --fix wrote (whatever lint's own settings).
 */
async function managerCheck(argv: string[], flags: InputOf<typeof Validate>['flags']) {
  const { MANAGER_RULES } = await import('../../core/lint/registry-manager.js')
  const { release } = await managerReleaseOf(flags)
  return check({
    release,
    paths: argv.map(argBytes),
    root: pathFlag(flags.root),
    rules: MANAGER_RULES,
    set: 'manager',
    useConfig: flags['no-config'] !== true,
    configPath: pathFlag(flags.config),
    defaultIgnore: flags['no-default-ignore'] !== true,
  })
}

/** `validate [PATH...]`: the manager rules at their severities. */
export async function validateAction({ argv, flags }: InputOf<typeof Validate>): Promise<number> {
  await managerReleaseOf(flags)
  const format = formatOf(flags)
  const result = await managerCheck(argv, flags)
  return report('validate', result, format, {
    quiet: flags.quiet === true,
    failSeverity: 'error',
    maxWarnings: null,
  })
}

/**
 * --rule SELECTOR=SETTING, in order (a selector is an id, a prefix or a glob: rule-select.ts);
 * `sources` gets the selector each rule's setting came from.
 */
export function parseRuleFlags(
  values: readonly string[],
  known: KnownIds,
  sources?: Map<string, string>,
): Map<string, Setting> {
  const out = new Map<string, Setting>()
  for (const v of values) {
    const eq = v.lastIndexOf('=')
    const id = eq < 0 ? v : v.slice(0, eq)
    const setting = eq < 0 ? '' : v.slice(eq + 1)
    const selected = known.has(id) ? [id] : selectRules(id, known)
    if (selected.length === 0)
      throw new UserError(
        `--rule ${v}: unknown rule ${JSON.stringify(id)}`,
        undefined,
        meanHint(didYouMean(id, known)) ?? LIST_RULES_HINT,
      )
    const s = settingOf(setting)
    if (s === undefined) {
      throw new UserError(
        `--rule ${v}: expected ${id}=off|info|warn|error`,
        undefined,
        meanHint(didYouMean(setting, SETTINGS)),
      )
    }
    for (const r of selected) {
      out.set(r, s)
      sources?.set(r, v)
    }
  }
  return out
}

function parseMaxWarnings(v: string | undefined): number | null {
  if (v === undefined) return null
  return parseNumberFlag('max-warnings', v, { min: 0 })
}

/** `lint [PATH...]`: every rule, with config files and --rule; or --list-rules / --show-tool. */
export async function lintAction(input: InputOf<typeof Lint>): Promise<number> {
  const code = await lintFixing(input)
  // --exit-zero: findings never fail the run (report() already said 0 in its document).
  return input.flags['exit-zero'] === true && code === EXIT.findings ? EXIT.ok : code
}

/** --fix: a stop signal ends the run at once, from its first check on, never while a file is written. */
async function lintFixing(input: InputOf<typeof Lint>): Promise<number> {
  if (input.flags.fix !== true) return lintRun(input)
  const { stopFixesOnSignal } = await import('./lint-fix.js')
  const progress: FixProgress = { problems: 0, files: new Set() }
  const off = stopFixesOnSignal(progress)
  try {
    return await lintRun(input, progress)
  } finally {
    off()
  }
}

async function lintRun(
  { argv: given, flags }: InputOf<typeof Lint>,
  progress?: FixProgress,
): Promise<number> {
  const { release } = await managerReleaseOf(flags)
  const format = formatOf(flags)
  if (flags['stdin-filename'] !== undefined && flags.stdin !== true)
    throw new UserError('--stdin-filename names the text on stdin: give --stdin with it')
  const stdin = flags.stdin === true ? await stdinText(given, flags) : null
  const argv = stdin?.argv ?? given
  // The baseline is read and written by a text path: a name that is not UTF-8 would be another file.
  if (flags.baseline !== undefined) textPath('--baseline', flags.baseline)
  const { RULES, ruleMeta } = await import('../../core/lint/registry.js')
  if (flags['list-rules'] === true) {
    const rules = RULES.map(ruleMeta)
    if (format === 'json') process.stdout.write((await import('../../ui/lint/json.js')).rulesJson(rules))
    else process.stdout.write((await import('../../ui/lint/list-rules.js')).listRules(rules))
    return EXIT.ok
  }
  const failSeverity: Severity = flags['fail-severity']
  const maxWarnings = parseMaxWarnings(flags['max-warnings'])
  const flagSources = new Map<string, string>()
  const overrides = parseRuleFlags(flags.rule ?? [], knownIds(RULES), flagSources)
  if (flags['print-config'] !== undefined) {
    if (argv.length > 0)
      throw new UserError('--print-config takes the one file it names: give no other PATH', undefined)
    const { printConfig } = await import('./lint-print-config.js')
    return printConfig(flags['print-config'], {
      rules: RULES,
      overrides,
      flagSources,
      useConfig: flags['no-config'] !== true,
      configPath: flags.config,
      json: format === 'json',
    })
  }
  if (flags.statistics === true && format !== 'stylish' && format !== 'json')
    throw new UserError(`--statistics counts findings in the stylish or json format, not --format ${format}`)
  const extra = { exitZero: flags['exit-zero'] === true, statistics: flags.statistics === true }
  const update = flags['update-baseline'] === true
  const prune = flags['prune-baseline'] === true
  if (update && prune)
    throw new UserError('--update-baseline and --prune-baseline: give one (an update also prunes)')
  if ((update || prune) && flags['show-tool'] === true)
    throw new UserError(
      `--${update ? 'update' : 'prune'}-baseline: not with --show-tool (it reports no findings)`,
    )
  const fixing = flags.fix === true || flags['fix-dry-run'] === true
  if (fixing || flags['fix-type'] !== undefined || flags['fix-suggestions'] === true)
    checkFixFlags(flags, format)
  if (fixing && (update || prune))
    throw new UserError(
      `--${update ? 'update' : 'prune'}-baseline: not with --${flags.fix === true ? 'fix' : 'fix-dry-run'}`,
      undefined,
      'fix first, then record what is left with --update-baseline',
    )
  if (flags['cache-location'] !== undefined && flags.cache !== true)
    throw new UserError('--cache-location says where --cache keeps findings: give --cache with it')
  const { setCacheWarnings } = await import('../../core/cache/store.js')
  setCacheWarnings((line) =>
    process.stderr.write(`${terminalLineText(line, process.stderr.isTTY === true)}\n`),
  )
  // --fix and --stdin check afresh: what they judge is being written, or is no file.
  const cache =
    flags.cache === true && !fixing && flags.stdin !== true ? await lintCache(argv, flags) : undefined
  const startedMs = Date.now()
  const run = () =>
    check({
      paths: argv.map(argBytes),
      root: pathFlag(flags.root),
      rules: RULES,
      set: 'all',
      release,
      tolerant: true,
      overrides,
      useConfig: flags['no-config'] !== true,
      configPath: pathFlag(flags.config),
      defaultIgnore: flags['no-default-ignore'] !== true,
      overlay: stdin?.overlay,
      cache,
    })
  const result = await run()
  cache?.save()
  if (flags['show-tool'] === true) return showTools(result.files, flags.json === true)
  const { lintBaseline } = await import('./lint-baseline.js')
  if (!fixing) {
    const baseline = lintBaseline({ baseline: flags.baseline, update, prune }, argv, result)
    return report('lint', result, format, {
      quiet: flags.quiet === true,
      failSeverity,
      maxWarnings,
      baseline,
      ...extra,
    })
  }
  const { parseFixTypes, runFixes } = await import('./lint-fix.js')
  const dryRun = flags['fix-dry-run'] === true
  const fixed = await runFixes(result, run, {
    types: parseFixTypes(flags['fix-type']),
    dryRun,
    startedMs,
    progress,
    suggestions: flags['fix-suggestions'] === true,
  })
  // What is left after the fixes is judged against the baseline, as a run without --fix would be.
  const baseline = lintBaseline({ baseline: flags.baseline, update: false, prune: false }, argv, fixed.result)
  if (dryRun) {
    // The diff is the output. A pending fix is exit 1, as `ruff --diff` and `black --diff` do:
    // one pass cannot tell what a fixed file will still be found to hold (a BOM hides every other
    // finding of its file), so a CI gate must not pass on it; so is a fix --fix would not apply.
    // Without fixes: the findings left.
    if (fixed.fixedInDiff.size > 0 || fixed.refused > 0) return EXIT.findings
    const accepted = baseline?.outcome.baselined
    const left = fixed.result.files
      .filter((f) => !f.ignored)
      .flatMap((f) => f.findings)
      .filter((x) => !fixed.fixedInDiff.has(x) && accepted?.has(x) !== true)
    const tooMany = maxWarnings !== null && left.filter((x) => x.severity === 'warn').length > maxWarnings
    return left.some((x) => fails(x, failSeverity)) || tooMany ? EXIT.findings : EXIT.ok
  }
  const code = await report('lint', fixed.result, format, {
    quiet: flags.quiet === true,
    failSeverity,
    maxWarnings,
    baseline,
    ...extra,
  })
  if (fixed.filesFixed === 0) return code
  // The manager's verdict on what was written: validate's rules, whatever lint's settings.
  const verdict = await managerCheck(argv, flags)
  const errors = verdict.files
    .filter((f) => !f.ignored)
    .flatMap((f) => f.findings.filter((x) => x.severity === 'error'))
  process.stderr.write(
    errors.length === 0
      ? 'validate after the fixes: no errors\n'
      : `validate after the fixes: ${errors.length} error${errors.length === 1 ? '' : 's'} (run validate to see them)\n`,
  )
  return errors.length > 0 ? EXIT.findings : code
}

/** --cache: this user's lint cache (or the --cache-location dir); none, with a warning, when it is not theirs. */
async function lintCache(argv: string[], flags: InputOf<typeof Lint>['flags']) {
  const [{ cacheDir }, { LintCache }] = await Promise.all([
    import('../../core/cache/store.js'),
    import('../../core/lint/cache.js'),
  ])
  const dir = cacheDir('lint', flags['cache-location'])
  if (dir === null) return undefined
  return new LintCache({ dir, scope: JSON.stringify([process.cwd(), argv, flags.root ?? null]) })
}

/**
 * --stdin: the text on stdin is read (bounded) and judged as the file --stdin-filename names
 * (default: skill.json in the working dir), which need not exist: the PATHs to check (that file)
 * and the text as its buffer.
 */
async function stdinText(
  argv: string[],
  flags: InputOf<typeof Lint>['flags'],
): Promise<{ argv: string[]; overlay: Overlay }> {
  if (argv.length > 0)
    throw new UserError(`--stdin lints the text on stdin: give no PATH (--stdin-filename says where it is)`)
  for (const f of ['fix', 'fix-dry-run', 'update-baseline', 'prune-baseline', 'print-config'] as const) {
    if (flags[f] !== undefined && flags[f] !== false)
      throw new UserError(`--stdin: not with --${f} (the text on stdin is no file to write or record)`)
  }
  const name = flags['stdin-filename'] ?? 'skill.json'
  const [{ readFileBounded, TooLargeError }, { abs }, { MAX_MANIFEST_BYTES }] = await Promise.all([
    import('../../core/read-bounded.js'),
    import('../../core/go/path/filepath/path.js'),
    import('../../core/loader/manifest-read.js'),
  ])
  let text: Buffer
  try {
    text = readFileBounded(0, MAX_MANIFEST_BYTES)
  } catch (e) {
    if (e instanceof TooLargeError) throw new UserError(`--stdin: ${e.message}`)
    throw new UserError(`--stdin: cannot read stdin: ${(e as Error).message}`)
  }
  const path = argBytes(name)
  const a = abs(path)
  return { argv: [name], overlay: new Map([[a.ok ? a.value : path, text]]) }
}

/** --fix, --fix-dry-run and --fix-type: with each other and the other flags. */
function checkFixFlags(flags: InputOf<typeof Lint>['flags'], format: Format): void {
  if (flags.fix === true && flags['fix-dry-run'] === true)
    throw new UserError(
      '--fix and --fix-dry-run: give one',
      undefined,
      '--fix-dry-run shows what --fix would write',
    )
  if (flags.fix !== true && flags['fix-dry-run'] !== true)
    throw new UserError(
      `--${flags['fix-type'] !== undefined ? 'fix-type' : 'fix-suggestions'}: give --fix or --fix-dry-run with it`,
    )
  if (flags['show-tool'] === true)
    throw new UserError('--show-tool shows tools: it fixes nothing (drop --fix)')
  if (flags['fix-dry-run'] === true && format !== 'stylish')
    throw new UserError(
      `--fix-dry-run prints a diff, not --format ${format}`,
      undefined,
      '--format json without --fix-dry-run gives each finding its edits',
    )
}

/**
 * `lint --show-tool`: the function definition the LLM bridge would send for each pack (pretty,
 * or one compact line each with --json: the exact bytes json.Marshal gives); why not, on stderr.
 */
function showTools(files: FileReport[], compact: boolean): number {
  const cwd = process.cwd()
  let offered = 0
  let missing = 0
  for (const f of files) {
    if (f.ignored || f.kind === 'dir' || f.kind === 'cases' || f.kind === 'file') continue
    const where = terminalLineText(displayPath(f.file, cwd), process.stderr.isTTY === true)
    const why = (reason: string) => {
      missing++
      process.stderr.write(
        `${where}: not offered to the LLM: ${terminalLineText(reason, process.stderr.isTTY === true)}\n`,
      )
    }
    const ctx = f.ctx
    if (!(ctx instanceof ManifestContext)) {
      why('a SKILL.md is a native skill, not a subprocess tool')
      continue
    }
    if (!ctx.skill) {
      why('the manager does not register this pack (run lint on it to see why)')
      continue
    }
    if (ctx.taken) {
      why('the manager does not register this pack: its name is already taken')
      continue
    }
    const def = ctx.tool()
    // Null only without a skill, said above: a schema of any depth Go accepts is decoded.
    if (def === null) continue
    if (!def.offered) {
      if (def.reason === 'class') why(`class "${ctx.skill.class}": only safe skills are offered`)
      else why(`the bridge skips it: WARN ${SCHEMA_WARN_MSG} err=${def.err?.error() ?? ''}`)
      continue
    }
    offered++
    process.stdout.write(toBuffer(`${compact ? def.json : indentJSON(def.json)}\n`))
  }
  if (offered > 0 && !compact) {
    process.stderr.write(
      'note: subprocess skills reach the LLM only when the manager runs the legacy agent kernel (ONGRID_AGENT_KERNEL=legacy)\n',
    )
  }
  return missing > 0 ? EXIT.findings : EXIT.ok
}
