import { PATTERN_BUDGET_MS } from '../schema/bounded.js'

/** The case names a `--filter` pattern matched, or `overtime` when it ran out of time. */
export type FilterVerdict =
  | { kind: 'matched'; names: Set<string> }
  | { kind: 'overtime'; ms: number }
  /** `signal` aborted: matching stopped (the worker ended). */
  | { kind: 'aborted' }

/**
 * Matches `filter` against each case name with a bound on time, as schema patterns are checked
 * (schema/bounded.ts): V8's regular expressions backtrack, so a pattern such as `^(a+)+$` can take
 * for ever on a short name, and on the main thread it would keep every signal waiting. The names
 * are matched on a worker thread, ended once matching has taken `budgetMs` in all, or at once
 * when `signal` aborts.
 */
export async function matchBounded(
  filter: RegExp,
  names: readonly string[],
  signal?: AbortSignal,
  budgetMs = PATTERN_BUDGET_MS,
): Promise<FilterVerdict> {
  const unique = [...new Set(names)]
  if (unique.length === 0) return { kind: 'matched', names: new Set() }
  const { Worker } = await import('node:worker_threads')
  const worker = new Worker(new URL('./filter-worker.js', import.meta.url), {
    workerData: { source: filter.source, flags: filter.flags, names: unique },
  })
  return new Promise<FilterVerdict>((resolve) => {
    let timer: NodeJS.Timeout | undefined
    const onAbort = () => done({ kind: 'aborted' })
    const done = (v: FilterVerdict) => {
      clearTimeout(timer)
      signal?.removeEventListener('abort', onAbort)
      worker.removeAllListeners()
      void worker.terminate()
      resolve(v)
    }
    const overtime = () => done({ kind: 'overtime', ms: budgetMs })
    worker.on('message', (m: FilterMessage) => {
      // The budget runs from the moment matching starts (not while the worker loads).
      if (m.kind === 'ready') timer = setTimeout(overtime, budgetMs)
      else done({ kind: 'matched', names: new Set(m.matched.map((i) => unique[i])) })
    })
    // A worker that cannot match at all (it did not start): nothing is taken as matched by chance.
    worker.on('error', overtime)
    worker.on('exit', overtime)
    if (signal?.aborted) onAbort()
    else signal?.addEventListener('abort', onAbort, { once: true })
  })
}

export type FilterMessage = { kind: 'ready' } | { kind: 'matched'; matched: number[] }
