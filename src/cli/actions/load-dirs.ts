import { fromText, type GoString, toText } from '../../core/go/gostring.js'
import { jsonRecord } from '../../core/go/log/slog/slog.js'
import { nowNs } from '../../core/go/time/format.js'
import { alwaysHints, Explainer } from '../../core/loader/explain.js'
import { type LoaderEvent, type LoaderEventKind, loadDirs } from '../../core/loader/loader.js'
import { Registry } from '../../core/loader/registry.js'
import { envelope } from '../../ui/envelope.js'
import { loaderLineJson, loadSummary, skillJson } from '../../ui/load-dirs.js'
import { terminalLineText } from '../../ui/terminal.js'
import { EXIT, type InputOf, printJson, UserError } from '../errors.js'
import { managerReleaseOf, noteNotDefault } from '../manager-version.js'
import { dirsGiven } from '../os-bytes.js'
import { ByteWriter } from '../output.js'
import type { loadDirsSpec as LoadDirs } from '../specs/load-dirs.js'

/** How long a dir's walk runs alone before a worker thread reads ahead (a small tree never needs one). */
const PARALLEL_AFTER_MS = 40

/** The attributes of the loader's slog records. */
const LOADER_ATTRS: [string, string][] = [
  ['service', 'ongrid'],
  ['comp', 'skill-loader'],
]

/** load-dirs: replay LoadDirs over the dirs and print the manager's lines. */
export async function loadDirsAction({ argv, flags }: InputOf<typeof LoadDirs>): Promise<number> {
  const json = flags.json === true
  const { release } = await managerReleaseOf(flags)
  noteNotDefault(release, json)
  // The bytes given, as the manager gets them (not Node's text of them).
  const dirs = dirsGiven(argv)
  const builtinsFlag = flags.builtins
  const builtins = flags['no-builtins']
    ? []
    : builtinsFlag !== undefined
      ? builtinsFlag
          .split(',')
          .map((s) => s.trim())
          .filter((s) => s !== '')
          .map(fromText)
      : release.builtinSkillKeys
  const registry = new Registry(builtins)
  const explainer = flags.explain ? new Explainer(registry) : null
  const out = new ByteWriter(process.stdout)
  const logJson = flags['log-format'] === 'json'
  const events: LoaderEvent[] = []
  const counts = new Map<LoaderEventKind, number>()
  const line = (msg: GoString, attrs: [string, string | number][]) => {
    if (json) return
    if (logJson) out.write(jsonRecord(nowNs(), 'INFO', msg, attrs))
    else out.line(msg)
  }
  /** With --json --explain, the hints of each event (in step with `events`) and the others. */
  const eventHints: string[][] = []
  const otherHints: { path: string; hint: string }[] = []
  const toStderr = (hints: string[]) => {
    if (hints.length === 0) return
    out.flush()
    const tty = process.stderr.isTTY === true
    process.stderr.write(hints.map((h) => `  hint: ${terminalLineText(h, tty)}\n`).join(''))
  }
  /** A hint not tied to a line (a symlinked root, a FIFO, an endless device): about `path`. */
  const hint = (hints: string[], path: GoString) => {
    if (!json) toStderr(hints)
    else if (explainer) for (const h of hints) otherHints.push({ path: toText(path), hint: h })
  }
  const result = loadDirs(dirs, {
    registry,
    // A big dir's reads are done ahead by a worker thread.
    parallel: { afterMs: PARALLEL_AFTER_MS },
    onWalkStart: explainer ? (root) => hint(explainer.forRoot(root), root) : undefined,
    // A FIFO named skill.json blocks the manager's boot until a writer comes: so it does here,
    // with every line before it printed.
    onBlocking: (path) => {
      out.flush()
      if (explainer)
        hint(
          [
            `${toText(path)} is a FIFO: the manager's boot blocks reading it until a writer opens it and closes it (so does this replay)`,
          ],
          path,
        )
    },
    onEvent: (e) => {
      counts.set(e.kind, (counts.get(e.kind) ?? 0) + 1)
      line(e.message, LOADER_ATTRS)
      // A relative dir is said even without --explain: it loads nothing, and no line says why.
      const hints = explainer ? explainer.forEvent(e) : alwaysHints(e)
      if (json) {
        events.push(e)
        eventHints.push(hints)
      }
      if (!json || !explainer) toStderr(hints)
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
  const stopped = result.stopped
  if (stopped !== null && stopped.kind === 'endless') {
    hint(
      explainer
        ? [
            `${toText(stopped.path)} does not end (a device such as /dev/zero): the manager would read it forever, until it runs out of memory; its boot never gets past it, and no later line is printed`,
          ]
        : [],
      stopped.path,
    )
  }
  // --strict: anything but a registration fails — a rejected manifest, and as much a dir the
  // manager skips (relative, missing, unreadable, not a dir) or a walk error, which judged nothing.
  let notRegistered = result.err === null && stopped === null ? 0 : 1
  for (const [kind, n] of counts) if (kind !== 'registered') notRegistered += n
  if (stopped?.kind === 'too-large') {
    // Not the manager's outcome: it reads the file; this replay cannot hold it.
    throw new UserError(
      `${toText(stopped.path)}: ${Number.isNaN(stopped.size) ? 'more' : `${stopped.size} bytes, more`} than ongrid-skill can judge (the manager reads it); the loader's lines from here on are not replayed`,
    )
  }
  const boot =
    stopped === null
      ? ''
      : `; the manager's boot never gets past ${terminalLineText(toText(stopped.path), process.stderr.isTTY === true)} (it reads it forever)`
  if (!json) process.stderr.write(`${loadSummary(result.count, counts)}${boot}\n`)
  const code = flags.strict && notRegistered > 0 ? EXIT.findings : EXIT.ok
  const doc = json
    ? envelope(
        'load-dirs',
        code,
        {
          dirs: dirs.map(toText),
          count: result.count,
          loader_lines: events.map((e, i) => ({
            ...loaderLineJson(e),
            ...(explainer ? { hints: eventHints[i] } : {}),
          })),
          skills: result.skills.map(skillJson),
          // The manifest the manager's boot never gets past (it reads it forever), if any.
          stopped_at: stopped === null ? null : toText(stopped.path),
          // --explain: hints not tied to one line (a symlinked root, a FIFO, an endless device).
          ...(explainer ? { hints: otherHints } : {}),
        },
        `--strict: ${notRegistered} of the loader's lines ${notRegistered === 1 ? 'is' : 'are'} not a registration`,
      )
    : undefined
  if (json) printJson(doc)
  return code
}
