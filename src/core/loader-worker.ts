/**
 * The worker side of loader-shared.ts: takes children of the root from the shared counter,
 * walks each one's subtree up to the registry and posts the outcomes, until none is left.
 */
import { workerData } from 'node:worker_threads'
import { splitWalk } from './go/path/filepath/walk.js'
import { outcomeMaker } from './loader.js'
import {
  NEXT,
  POSTED,
  READY,
  type ShareData,
  type ShareMessage,
  toWire,
  type WireOutcome,
} from './loader-shared.js'

const { root, names, shared, port } = workerData as ShareData
const state = new Int32Array(shared)
const outcome = outcomeMaker(root, false)

const post = (msg: ShareMessage) => {
  port.postMessage(msg)
  Atomics.add(state, POSTED, 1)
  Atomics.notify(state, POSTED)
}

// The worker lists the root again; a tree that changed meanwhile is left to the main thread.
const split = splitWalk(
  root,
  (path, info, err) => {
    outcome(path, info, err)
    return null
  },
  outcome.onDir,
)
Atomics.store(state, READY, 1)
Atomics.notify(state, READY)
const same =
  split !== null && split.names.length === names.length && split.names.every((n, i) => n === names[i])

for (let i = Atomics.add(state, NEXT, 1); i < names.length; i = Atomics.add(state, NEXT, 1)) {
  if (!same || split === null) {
    post({ i, failed: 'the root changed under the walk' })
    continue
  }
  try {
    const outcomes: WireOutcome[] = []
    split.walkChild(i, (path, info, err) => {
      const o = outcome(path, info, err)
      if (o !== null) outcomes.push(toWire(o))
      return null
    })
    post({ i, outcomes })
  } catch (e) {
    post({ i, failed: (e as Error).message })
  }
}
port.close()
