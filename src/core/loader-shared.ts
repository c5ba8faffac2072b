/**
 * One dir's walk shared with a worker thread (LoadOptions.parallel). The walk is cut at the
 * root's children (splitWalk); this thread and the worker take children in turn from a shared
 * counter, each walks its child's subtree up to the registry (outcomeMaker), and this thread
 * settles the outcomes strictly in child order — the registry, and so every duplicate and every
 * line, as in one walk. The worker starts only once the walk has taken `afterMs`, so a small
 * dir never pays for a thread; a child the worker cannot answer for is walked here.
 */
import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from 'node:worker_threads'
import type { SubprocessSkill } from './build.js'
import { ErrorString, type GoError } from './go/errors.js'
import type { GoString } from './go/gostring.js'
import type { SplitWalk } from './go/path/filepath/walk.js'
import type { Outcome, Visitor } from './loader.js'

/** Int32 slots of the shared buffer. */
export const NEXT = 0 // the next child to take
export const POSTED = 1 // messages the worker has posted (what this thread waits on)
export const READY = 2 // 1 once the worker runs

export interface ShareOptions {
  /** How long a dir's walk runs alone before the worker is started. */
  afterMs: number
  /** Wait for the worker to run before going on (tests: so that it surely takes a share). */
  waitForWorker?: boolean
  /** Told, after each shared dir, how many of its children the worker walked. */
  onShared?: (byWorker: number, children: number) => void
}

/** What the worker is given. */
export interface ShareData {
  root: GoString
  names: GoString[]
  shared: SharedArrayBuffer
  port: MessagePort
}

/** An outcome as it crosses threads: errors as their text, no `parsed`. */
export type WireOutcome =
  | { kind: 'walk-error'; path: GoString; message: GoString; err: string }
  | { kind: 'parse-error' | 'build-error'; path: GoString; name: GoString; message: GoString; err: string }
  | { kind: 'built'; path: GoString; name: GoString; skill: SubprocessSkill }

/** A message from the worker: the outcomes of child i, or why it has none (walk it here). */
export type ShareMessage = { i: number; outcomes: WireOutcome[] } | { i: number; failed: string }

export function toWire(o: Outcome): WireOutcome {
  if (o.kind === 'built') return { kind: o.kind, path: o.path, name: o.name, skill: o.skill }
  return o.kind === 'walk-error'
    ? { kind: o.kind, path: o.path, message: o.message, err: o.err.error() }
    : { kind: o.kind, path: o.path, name: o.name, message: o.message, err: o.err.error() }
}

function fromWire(w: WireOutcome): Outcome {
  return w.kind === 'built' ? w : { ...w, err: new ErrorString(w.err) }
}

/** How long to wait for a child the worker took before walking it here instead. */
const WORKER_PATIENCE_MS = 30_000

export function walkShared(
  root: GoString,
  split: SplitWalk,
  outcome: Visitor,
  settle: (o: Outcome) => void,
  opts: ShareOptions,
): GoError | null {
  if (split.first !== null) return split.first
  const n = split.names.length
  const state = new Int32Array(new SharedArrayBuffer(12))
  const done = new Map<number, Outcome[]>()
  const started = performance.now()
  let worker: { port: MessagePort; thread: Worker } | null = null
  let next = 0 // the next child to settle

  const walkHere = (i: number): Outcome[] => {
    const list: Outcome[] = []
    split.walkChild(i, (path, info, err) => {
      const o = outcome(path, info, err)
      if (o !== null) list.push(o)
      return null
    })
    return list
  }
  let byWorker = 0
  const receive = (): boolean => {
    const m = worker && receiveMessageOnPort(worker.port)
    if (!m) return false
    const msg = m.message as ShareMessage
    if (done.has(msg.i) || msg.i < next) return true
    if ('failed' in msg) {
      done.set(msg.i, walkHere(msg.i))
    } else {
      done.set(msg.i, msg.outcomes.map(fromWire))
      byWorker++
    }
    return true
  }
  const settleReady = () => {
    while (receive()) {}
    for (let list = done.get(next); list !== undefined; list = done.get(next)) {
      for (const o of list) settle(o)
      done.delete(next++)
    }
  }

  for (let i = Atomics.add(state, NEXT, 1); i < n; i = Atomics.add(state, NEXT, 1)) {
    done.set(i, walkHere(i))
    settleReady()
    if (worker === null && n - i > 2 && performance.now() - started >= opts.afterMs) {
      worker = startWorker({ root, names: split.names, shared: state.buffer as SharedArrayBuffer })
      if (opts.waitForWorker) Atomics.wait(state, READY, 0, WORKER_PATIENCE_MS)
    }
  }
  // The rest was taken by the worker: wait for it, child by child, in order.
  while (next < n) {
    const posted = Atomics.load(state, POSTED)
    settleReady()
    if (next >= n || done.has(next)) continue
    if (Atomics.wait(state, POSTED, posted, WORKER_PATIENCE_MS) === 'timed-out' && !receive()) {
      done.set(next, walkHere(next))
    }
  }
  worker?.port.close()
  opts.onShared?.(byWorker, n)
  return null
}

function startWorker(data: Omit<ShareData, 'port'>): { port: MessagePort; thread: Worker } {
  const { port1, port2 } = new MessageChannel()
  const thread = new Worker(new URL('./loader-worker.js', import.meta.url), {
    workerData: { ...data, port: port2 } satisfies ShareData,
    transferList: [port2],
  })
  // The process need not wait for it, and a worker that fails to start takes no child.
  thread.unref()
  thread.on('error', () => {})
  return { port: port1, thread }
}
