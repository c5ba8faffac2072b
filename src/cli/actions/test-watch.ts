import { existsSync } from 'node:fs'
import { resolve, sep } from 'node:path'
import { bytesOf, fromText, toText } from '../../core/go/gostring.js'
import { quote } from '../../core/go/strconv/quote.js'
import { findPacks } from '../../core/testcases/suite.js'
import { terminalLineText } from '../../ui/terminal.js'
import { reportError, UserError } from '../errors.js'
import { validUtf8 } from '../os-bytes.js'
import { onStopSignals } from '../signals.js'
import { runOnce, type TestOptions } from './test.js'

/**
 * `test --watch`: one run, then the pack whose files change (its manifest, entry, cases or
 * anything else under its dir) runs again, alone. Watching is chokidar's (atomic saves by
 * editors, renames, new files in new dirs, on Linux and macOS alike). Ends on any stop signal
 * (a run under way is cut short) with 128 + the signal's number, as every command ends on one.
 * A watched path that is removed ends it too, in one line, with exit 2 (never 0: nothing was
 * watched to the end); it is looked for every WATCHED_CHECK_MS, which also keeps the watch alive
 * whatever the watcher holds open.
 */
export async function watch(o: TestOptions, signal?: AbortSignal): Promise<number> {
  // The watcher takes text paths: a name that is not UTF-8 would be watched under another name.
  const unwatchable = o.paths.find((p) => !validUtf8(p))
  if (unwatchable !== undefined)
    throw new UserError(
      `--watch: cannot watch ${toText(quote(unwatchable))}: its name is not UTF-8, and the watcher takes text paths (run without --watch)`,
    )
  if (o.update)
    throw new UserError(
      '--watch and --update do not go together: the snapshots written would start a new run',
    )
  const say = (s: string) => process.stderr.write(`${s}\n`)
  // Any stop signal ends the watch; a run under way is cut short (its entries' groups killed).
  const stopping = new AbortController()
  let stopCode = 0
  const offSignals = onStopSignals((_signal, code) => {
    stopCode = code
    stopping.abort()
  })
  let last = await runSafe(o, stopping.signal)
  const roots = (o.paths.length > 0 ? o.paths : [bytesOf('.')]).map((p) => resolve(toText(p)))
  const { watch: chokidarWatch } = await import('chokidar')
  const watcher = chokidarWatch(roots, {
    ignoreInitial: true,
    ignored: (p: string) => /(^|[/\\])(node_modules|\.git)([/\\]|$)/.test(p) || /\.tmp$/.test(p),
    awaitWriteFinish: { stabilityThreshold: 50, pollInterval: 10 },
  })
  await new Promise<void>((r) => watcher.once('ready', () => r()))
  say('watching for changes (Ctrl-C to stop)')

  const pending = new Set<string>()
  let timer: NodeJS.Timeout | undefined
  let running: Promise<void> = Promise.resolve()
  const rerun = async () => {
    const changed = [...pending]
    pending.clear()
    let dirs: string[]
    try {
      dirs = findPacks(o.paths, o.root, { defaultIgnore: o.defaultIgnore }).map((p) => p.dir)
    } catch (e) {
      // A watched path removed: said once, by the check that ends the watch.
      if (!roots.some((p) => !existsSync(p))) reportError(e as Error)
      return
    }
    const hit = dirs.filter((d) => changed.some((c) => c === d || c.startsWith(d + sep)))
    if (hit.length === 0) return
    for (const d of hit) {
      say(`\nchanged: ${terminalLineText(d, process.stderr.isTTY === true)}`)
      if (stopping.signal.aborted) break
      last = await runSafe({ ...o, paths: [fromText(d)] }, stopping.signal)
    }
    say('watching for changes (Ctrl-C to stop)')
  }
  watcher.on('all', (_event: string, path: string) => {
    pending.add(resolve(path))
    clearTimeout(timer)
    timer = setTimeout(() => {
      running = running.then(rerun)
    }, 100)
  })

  let goneCode = 0
  let check: NodeJS.Timeout | undefined
  await new Promise<void>((r) => {
    if (stopping.signal.aborted) r()
    stopping.signal.addEventListener('abort', () => r(), { once: true })
    signal?.addEventListener('abort', () => r(), { once: true })
    check = setInterval(() => {
      const gone = roots.find((p) => !existsSync(p))
      if (gone === undefined) return
      goneCode = reportError(new UserError(`${gone}: the watched path was removed; the watch ends`))
      r()
    }, WATCHED_CHECK_MS)
  })
  clearInterval(check)
  offSignals()
  clearTimeout(timer)
  await watcher.close()
  await running
  // Ended by a stop signal: 128 + its number, whatever the last run's verdict was.
  if (stopCode !== 0) return stopCode
  return goneCode !== 0 ? goneCode : last
}

/** How often `test --watch` looks for the paths it watches. */
const WATCHED_CHECK_MS = 250

async function runSafe(o: TestOptions, signal: AbortSignal): Promise<number> {
  try {
    return (await runOnce(o, signal)).code
  } catch (e) {
    return reportError(e as Error)
  }
}
