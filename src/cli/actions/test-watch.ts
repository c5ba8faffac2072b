import { resolve, sep } from 'node:path'
import { findPacks } from '../../core/testcases/suite.js'
import { reportError, UserError } from '../errors.js'
import { runOnce, type TestOptions } from './test.js'

/**
 * `test --watch`: one run, then the pack whose files change (its manifest, entry, cases or
 * anything else under its dir) runs again, alone. Watching is chokidar's (atomic saves by
 * editors, renames, new files in new dirs, on Linux and macOS alike). Ends on SIGINT or
 * SIGTERM with the code of the last run.
 */
export async function watch(o: TestOptions, signal?: AbortSignal): Promise<number> {
  if (o.update)
    throw new UserError(
      '--watch and --update do not go together: the snapshots written would start a new run',
    )
  const say = (s: string) => process.stderr.write(`${s}\n`)
  let last = await runSafe(o)
  const roots = (o.paths.length > 0 ? o.paths : ['.']).map((p) => resolve(p))
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
      dirs = findPacks(o.paths, o.root).map((p) => p.dir)
    } catch (e) {
      reportError(e as Error)
      return
    }
    const hit = dirs.filter((d) => changed.some((c) => c === d || c.startsWith(d + sep)))
    if (hit.length === 0) return
    for (const d of hit) {
      say(`\nchanged: ${d}`)
      last = await runSafe({ ...o, paths: [d] })
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

  await new Promise<void>((r) => {
    const stop = () => r()
    if (signal) signal.addEventListener('abort', stop, { once: true })
    process.once('SIGINT', stop)
    process.once('SIGTERM', stop)
  })
  clearTimeout(timer)
  await watcher.close()
  await running
  return last
}

async function runSafe(o: TestOptions): Promise<number> {
  try {
    return (await runOnce(o)).code
  } catch (e) {
    return reportError(e as Error)
  }
}
