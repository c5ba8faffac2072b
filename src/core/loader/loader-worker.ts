/**
 * The worker side of loader-shared.ts: walks the root's children from the one the main thread
 * names, exactly as the loader walks them, doing only the reads — each directory listing, each
 * skill.json the loader will parse — and posts them in walk order, in batches.
 */
import { workerData } from 'node:worker_threads'
import type { GoString } from '../go/gostring.js'
import { type FileInfo, readDirEntries, readFile } from '../go/os/file.js'
import { type ReadDir, splitWalk } from '../go/path/filepath/walk.js'
import {
  CLAIMS,
  GONE,
  POSTED,
  READY,
  readsManifest,
  type ShareData,
  type ShareMessage,
  START,
  WORKER,
} from './loader-shared.js'
import { probeManifest } from './manifest-read.js'

const { root, names, shared, port, fault } = workerData as ShareData
const state = new Int32Array(shared)

// However this thread ends, the main thread must not wait for it (it looks at GONE, woken on POSTED).
// POSTED changes too: a main thread that read GONE as 0 just before this, and is about to wait
// on POSTED, then finds the value moved and does not sleep (a notify alone would be missed).
process.on('exit', () => {
  Atomics.store(state, GONE, 1)
  Atomics.add(state, POSTED, 1)
  Atomics.notify(state, POSTED)
})

const post = (msg: ShareMessage, transfer: ArrayBuffer[] = []) => {
  port.postMessage(msg, transfer)
  Atomics.add(state, POSTED, 1)
  Atomics.notify(state, POSTED)
}

Atomics.store(state, READY, 1)
Atomics.notify(state, READY)
Atomics.wait(state, START, 0)
const first = Atomics.load(state, START) - 1

// The batch being filled (see ReadBatch).
let parts: string[] = []
let nums: number[] = []
let files: Buffer[] = []
let fileBytes = 0
const flush = () => {
  if (parts.length === 0) return
  const bytes = new Uint8Array(fileBytes)
  let at = 0
  for (const f of files) {
    bytes.set(f, at)
    at += f.length
  }
  const batch = { text: parts.join('\0'), nums: Uint32Array.from(nums), bytes }
  post({ batch }, [batch.nums.buffer, bytes.buffer])
  parts = []
  nums = []
  files = []
  fileBytes = 0
}

const readDir: ReadDir = (dir, join) => {
  const r = readDirEntries(dir, join)
  if (r.ok) {
    parts.push('d', dir)
    nums.push(r.value.length)
    for (const [name, info] of r.value) {
      parts.push(name)
      nums.push(info.typeBits)
    }
  } else {
    parts.push('D', dir, r.err.error())
  }
  return r
}

const visit = (path: GoString, info: { isDir(): boolean } | null, err: unknown) => {
  if (err || !readsManifest(path, info)) return null
  // Only files that end are read here: a FIFO would block this thread, a device never end. The
  // stream ends, and the main thread reads this manifest (manifest-read.ts) and the rest itself.
  if (probeManifest(path, info as FileInfo) !== 'plain') throw new Error('a manifest that may not end')
  const f = readFile(path)
  if (f.ok) {
    parts.push('f', path)
    nums.push(f.value.length)
    files.push(f.value)
    fileBytes += f.value.length
  } else {
    parts.push('F', path, f.err.error())
  }
  if (parts.length >= 4096) flush()
  return null
}

// The root is listed again; a root that changed meanwhile is left to the main thread.
const split = splitWalk(root, () => null)
if (split === null || split.names.length !== names.length || split.names.some((n, i) => n !== names[i])) {
  post({ failed: 'the root changed under the walk' })
} else {
  try {
    for (let i = first; i < names.length; i++) {
      // A child the main thread has come to first is read there.
      if (Atomics.compareExchange(state, CLAIMS + i, 0, WORKER) !== 0) continue
      Atomics.notify(state, CLAIMS + i)
      if (fault === 'crash') process.exit(1)
      if (fault === 'misorder') parts.push('d', `${root}/not-the-next-read`)
      split.walkChild(i, visit, readDir)
      flush()
    }
  } catch (e) {
    flush()
    post({ failed: (e as Error).message })
  }
}
port.close()
