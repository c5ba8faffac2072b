/**
 * The worker side of filter.ts: says it is ready (the time budget starts then), matches each
 * name in turn and posts the indices of those that matched.
 */
import { parentPort, workerData } from 'node:worker_threads'
import type { FilterMessage } from './filter.js'

const { source, flags, names } = workerData as { source: string; flags: string; names: string[] }
const post = (m: FilterMessage) => parentPort!.postMessage(m)

const re = new RegExp(source, flags)
post({ kind: 'ready' })
const matched: number[] = []
names.forEach((name, i) => {
  re.lastIndex = 0
  if (re.test(name)) matched.push(i)
})
post({ kind: 'matched', matched })
