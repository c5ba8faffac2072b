import { EXTERNAL_DIRS_ENV, splitExternalDirs } from '../../core/dirs.js'
import { Explainer } from '../../core/explain.js'
import { fromText, type GoString, toText } from '../../core/go/gostring.js'
import { jsonRecord } from '../../core/go/log/slog/slog.js'
import { nowNs } from '../../core/go/time/format.js'
import { type LoaderEvent, type LoaderEventKind, loadDirs } from '../../core/loader.js'
import { BUILTIN_SKILL_KEYS, Registry } from '../../core/registry.js'
import { loadSummary, skillJson } from '../../ui/load-dirs.js'
import { terminalText } from '../../ui/terminal.js'
import { type ActionInput, EXIT, printJson, UserError } from '../errors.js'
import { ByteWriter } from '../output.js'

/** How long a dir's walk runs alone before a worker thread reads ahead (a small tree never needs one). */
const PARALLEL_AFTER_MS = 40

/** The attributes of the loader's slog records. */
const LOADER_ATTRS: [string, string][] = [
  ['service', 'ongrid'],
  ['comp', 'skill-loader'],
]

/** load-dirs: replay LoadDirs over the dirs and print the manager's lines. */
export async function loadDirsAction({ argv, flags }: ActionInput): Promise<number> {
  const json = flags.json === true
  const dirArgs = argv.map(fromText)
  const envValue = process.env[EXTERNAL_DIRS_ENV]
  const dirs =
    dirArgs.length > 0 ? dirArgs : splitExternalDirs(envValue === undefined ? undefined : fromText(envValue))
  if (dirs.length === 0) {
    throw new UserError(`no dirs: pass DIR arguments or set ${EXTERNAL_DIRS_ENV}`)
  }
  const builtinsFlag = flags.builtins as string | undefined
  const builtins = flags['no-builtins']
    ? []
    : builtinsFlag !== undefined
      ? builtinsFlag
          .split(',')
          .map((s) => s.trim())
          .filter((s) => s !== '')
          .map(fromText)
      : BUILTIN_SKILL_KEYS
  const registry = new Registry(builtins)
  const explainer = flags.explain ? new Explainer(registry) : null
  const out = new ByteWriter(process.stdout)
  const logJson = flags['log-format'] === 'json'
  const events: LoaderEvent[] = []
  const counts = new Map<LoaderEventKind, number>()
  const line = (msg: GoString, attrs: [string, string | number][]) => {
    if (json) return
    out.write(logJson ? jsonRecord(nowNs(), 'INFO', msg, attrs) : `${msg}\n`)
  }
  const hint = (hints: string[]) => {
    if (hints.length === 0 || json) return
    out.flush()
    process.stderr.write(
      terminalText(hints.map((h) => `  hint: ${h}\n`).join(''), process.stderr.isTTY === true),
    )
  }
  const result = loadDirs(dirs, {
    registry,
    // A big dir's reads are done ahead by a worker thread.
    parallel: { afterMs: PARALLEL_AFTER_MS },
    onWalkStart: explainer ? (root) => hint(explainer.forRoot(root)) : undefined,
    onEvent: (e) => {
      counts.set(e.kind, (counts.get(e.kind) ?? 0) + 1)
      if (json) events.push(e)
      line(e.message, LOADER_ATTRS)
      if (explainer) hint(explainer.forEvent(e))
    },
  })
  if (logJson && !json) {
    if (result.err) {
      out.write(
        jsonRecord(nowNs(), 'WARN', 'skill loader returned error', [
          ['service', 'ongrid'],
          ['loaded', result.count],
          ['err', result.err.error()],
        ]),
      )
    } else if (result.count > 0) {
      out.write(
        jsonRecord(nowNs(), 'INFO', 'subprocess skills loaded', [
          ['service', 'ongrid'],
          ['count', result.count],
        ]),
      )
    }
  }
  out.flush()
  const rejected =
    (counts.get('parse-error') ?? 0) + (counts.get('build-error') ?? 0) + (counts.get('duplicate') ?? 0)
  if (!json) process.stderr.write(`${loadSummary(result.count, counts)}\n`)
  const doc = json
    ? {
        dirs: dirs.map(toText),
        count: result.count,
        events: events.map((e) => ({
          kind: e.kind,
          path: toText(e.path),
          name: e.name === null ? null : toText(e.name),
          message: toText(e.message),
        })),
        skills: result.skills.map(skillJson),
      }
    : undefined
  if (json) printJson(doc)
  return flags.strict && rejected > 0 ? EXIT.findings : EXIT.ok
}
