/**
 * One dir's walk with its reads done ahead by a worker thread (LoadOptions.parallel).
 *
 * The walk is cut at the root's children (splitWalk). This thread walks every child, in order,
 * and does all the loader's work. Once the walk has taken `afterMs` (a small dir never pays for a
 * thread), a worker starts; when it runs, it walks the children after the one in hand the same
 * way, doing only the reads — each directory listing, each skill.json — and sends them over in
 * walk order. This thread then takes its listings and files from that stream instead of the
 * disk. Each child is claimed by whoever comes to it first: a child the worker has not started
 * when this thread needs it is read here, and the worker skips it; this thread never waits for
 * more than the child the worker is on. The stream holds the worker's children in walk order, so
 * it is a cache in walk order:
 * a record that is not the one asked for (a bug, or a tree changed under the walk), or a worker
 * that does not answer, ends it, and reads go to the disk again. Reading is the part that does
 * not gain from a second thread here (directory reads contend); the work on what was read does.
 */
import { createRequire } from 'node:module'
import type { MessagePort, Worker } from 'node:worker_threads'
import { ErrorString, fail, type GoError, ok } from '../go/errors.js'
import { fromBuffer, type GoString } from '../go/gostring.js'
import { DirentInfo, type FileInfo, readDirEntries } from '../go/os/file.js'
import { base } from '../go/path/filepath/path.js'
import type { ReadDir, SplitWalk, WalkFunc } from '../go/path/filepath/walk.js'
import { decodeManifest, type ParsedManifest, parseManifest } from './manifest.js'

/** Int32 slots of the shared buffer; then one slot per child of the root, who reads it (CLAIMS). */
export const POSTED = 0 // batches the worker has posted (what this thread waits on)
export const READY = 1 // 1 once the worker runs
export const START = 2 // 1 + the first child the worker may read; 0 until this thread says
export const GONE = 3 // 1 once the worker has ended, however
export const CLAIMS = 4 // + i: 0 while nobody reads child i, else WORKER or MAIN
export const WORKER = 1
export const MAIN = 2

export interface ShareOptions {
  /** How long a dir's walk runs alone before the worker is started. */
  afterMs: number
  /**
   * Tests: wait for the worker to run, then for it to take each child before this thread comes
   * to it, so that every child after the first is surely read there whatever the threads' timing.
   */
  waitForWorker?: boolean
  /** Told, after each dir, how many listings and files came from the worker. */
  onShared?: (fromWorker: number) => void
  /** Tests: make the worker fail after taking its first child, or send a read out of order. */
  fault?: 'crash' | 'misorder'
  /** Tests: told of the worker thread once started (to see that it ends). */
  onWorker?: (thread: Worker) => void
}

/** What the worker is given. */
export interface ShareData {
  root: GoString
  names: GoString[]
  shared: SharedArrayBuffer
  port: MessagePort
  fault?: ShareOptions['fault']
}

/**
 * A batch of reads, in walk order, packed so that it crosses threads as three objects whatever
 * its size: `text` holds, separated by NUL (which no path, name or Go error text contains), for
 * each read a tag and its path, then a listing's names (tag 'd'), or nothing for a file (tag 'f'),
 * or the error text (tags 'D', 'F'); `nums` the count and type bits of each listing and the size
 * of each file, in the same order; `bytes` the files' contents, one after the other.
 */
export interface ReadBatch {
  text: string
  nums: Uint32Array
  bytes: Uint8Array
}

/** A message from the worker: the next reads, or why there will be none. */
export type ShareMessage = { batch: ReadBatch } | { failed: string }

/** How long to wait for the worker's next batch before reading from the disk again. */
const WORKER_PATIENCE_MS = 30_000

/** The reads the worker sends, taken in walk order (exported for its tests). */
export class ReadAhead {
  private parts: string[] = []
  private at = 0
  private nums: Uint32Array = new Uint32Array(0)
  private numAt = 0
  private bytes: Uint8Array = new Uint8Array(0)
  private byteAt = 0
  private over = false
  taken = 0

  constructor(
    private readonly port: MessagePort,
    private readonly state: Int32Array,
    /** How long to wait for a batch before giving up on the worker. */
    private readonly patienceMs = WORKER_PATIENCE_MS,
  ) {}

  /** Whether the next read in the stream is `tag` (or its error) for path; if not, the stream ends. */
  private next(tag: 'd' | 'f', path: GoString): 'ok' | 'err' | null {
    if (this.over) return null
    while (this.at >= this.parts.length) {
      if (!this.pull()) return this.end()
    }
    const t = this.parts[this.at]
    if (this.parts[this.at + 1] !== path || (t !== tag && t !== tag.toUpperCase())) return this.end()
    this.at += 2
    this.taken++
    return t === tag ? 'ok' : 'err'
  }

  private end(): null {
    this.over = true
    this.port.close()
    return null
  }

  /** Waits for the next batch; false when the worker gave up, has ended, or does not answer. */
  private pull(): boolean {
    for (;;) {
      const posted = Atomics.load(this.state, POSTED)
      const gone = Atomics.load(this.state, GONE) === 1
      const m = threads().receiveMessageOnPort(this.port)
      if (m !== undefined) {
        const msg = m.message as ShareMessage
        if ('failed' in msg) return false
        this.parts = msg.batch.text.split('\0')
        this.at = 0
        this.nums = msg.batch.nums
        this.numAt = 0
        this.bytes = msg.batch.bytes
        this.byteAt = 0
        return true
      }
      // Nothing left to take from a worker that had ended before this look at the port.
      if (gone) return false
      if (Atomics.wait(this.state, POSTED, posted, this.patienceMs) === 'timed-out') return false
    }
  }

  readDir: ReadDir = (dir, join) => {
    const r = this.next('d', dir)
    if (r === null) return readDirEntries(dir, join)
    if (r === 'err') return fail(new ErrorString(this.parts[this.at++]))
    const count = this.nums[this.numAt++]
    const out: [GoString, FileInfo][] = new Array(count)
    for (let k = 0; k < count; k++) {
      const name = this.parts[this.at + k]
      out[k] = [name, new DirentInfo(name, join(name), this.nums[this.numAt + k])]
    }
    this.at += count
    this.numAt += count
    return ok(out)
  }

  /** The loader's parseManifest of path, from the file the worker read. */
  parseManifest = (path: GoString): ParsedManifest => {
    const r = this.next('f', path)
    if (r === null) return parseManifest(path)
    if (r === 'err') {
      const err = new ErrorString(this.parts[this.at++])
      return parseManifest(path, () => fail(err))
    }
    const size = this.nums[this.numAt++]
    const data = Buffer.from(this.bytes.buffer, this.bytes.byteOffset + this.byteAt, size)
    this.byteAt += size
    return decodeManifest(fromBuffer(data))
  }
}

/** What the loader reads of a walked path: every non-directory named skill.json (parseManifest). */
export function readsManifest(path: GoString, info: { isDir(): boolean } | null): boolean {
  return info !== null && !info.isDir() && base(path) === 'skill.json'
}

/**
 * Walks the children of split in order with fn (which parses manifests with
 * `reads.parseManifest` when set), reading ahead in a worker once the walk has taken opts.afterMs.
 */
export function walkShared(
  root: GoString,
  split: SplitWalk,
  fn: WalkFunc,
  reads: { parseManifest?: (path: GoString) => ParsedManifest },
  opts: ShareOptions,
): GoError | null {
  if (split.first !== null) return split.first
  const n = split.names.length
  const state = new Int32Array(new SharedArrayBuffer(4 * (CLAIMS + n)))
  const started = process.hrtime.bigint()
  let worker: { port: MessagePort; thread: Worker } | null = null
  let tried = false
  let ahead: ReadAhead | null = null
  try {
    for (let i = 0; i < n; i++) {
      if (!tried && n - i > 2 && Number(process.hrtime.bigint() - started) / 1e6 >= opts.afterMs) {
        tried = true
        const shared = state.buffer as SharedArrayBuffer
        worker = startWorker({ root, names: split.names, shared, fault: opts.fault })
        if (worker !== null) opts.onWorker?.(worker.thread)
        if (worker !== null && opts.waitForWorker) Atomics.wait(state, READY, 0, WORKER_PATIENCE_MS)
      }
      if (worker !== null && ahead === null && Atomics.load(state, READY) === 1 && i + 1 < n) {
        // The worker may read from the next child on; this one is read here meanwhile.
        Atomics.store(state, START, i + 2)
        Atomics.notify(state, START)
        ahead = new ReadAhead(worker.port, state)
      } else if (ahead !== null && opts.waitForWorker) awaitClaim(state, i)
      const fromWorker = ahead !== null && Atomics.compareExchange(state, CLAIMS + i, 0, MAIN) === WORKER
      reads.parseManifest = fromWorker ? ahead?.parseManifest : undefined
      const err = split.walkChild(i, fn, fromWorker ? ahead?.readDir : undefined)
      if (err !== null) return err
    }
    opts.onShared?.(ahead?.taken ?? 0)
    return null
  } finally {
    reads.parseManifest = undefined
    if (worker !== null) {
      // A worker that was never asked to read is told there is nothing to read, and ends.
      if (ahead === null) {
        Atomics.store(state, START, n + 1)
        Atomics.notify(state, START)
      }
      worker.port.close()
    }
  }
}

/** Tests (waitForWorker): until child i is claimed, by the worker as it goes, or the worker has ended. */
function awaitClaim(state: Int32Array, i: number): void {
  const end = Date.now() + WORKER_PATIENCE_MS
  while (Atomics.load(state, CLAIMS + i) === 0 && Atomics.load(state, GONE) === 0 && Date.now() < end) {
    Atomics.wait(state, CLAIMS + i, 0, 10)
  }
}

/** node:worker_threads, loaded when a worker is first needed (most walks never need one). */
let threadsModule: typeof import('node:worker_threads') | undefined
function threads(): typeof import('node:worker_threads') {
  threadsModule ??= createRequire(import.meta.url)(
    'node:worker_threads',
  ) as typeof import('node:worker_threads')
  return threadsModule
}

/** A worker for this walk; null when none can be started (the walk then reads from the disk). */
function startWorker(data: Omit<ShareData, 'port'>): { port: MessagePort; thread: Worker } | null {
  const { MessageChannel, Worker } = threads()
  const { port1, port2 } = new MessageChannel()
  let thread: Worker
  try {
    thread = new Worker(new URL('./loader-worker.js', import.meta.url), {
      // It only reads and posts what it read: a small young generation keeps its peak low
      // (V8's default sizes it for throughput, several MB per semi-space).
      resourceLimits: { maxYoungGenerationSizeMb: 2 },
      workerData: { ...data, port: port2 } satisfies ShareData,
      transferList: [port2],
    })
  } catch {
    port1.close()
    return null
  }
  // The process need not wait for it, and a worker that fails to start is never asked to read.
  thread.unref()
  thread.on('error', () => {})
  return { port: port1, thread }
}
