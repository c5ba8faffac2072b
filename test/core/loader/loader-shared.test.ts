import assert from 'node:assert/strict'
import { once } from 'node:events'
import { after, before, describe, test } from 'node:test'
import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads'
import { ErrorString, type GoError } from '../../../src/core/go/errors.js'
import type { GoString } from '../../../src/core/go/gostring.js'
import { DirentInfo, MODE_DIR, MODE_NAMED_PIPE, MODE_SYMLINK } from '../../../src/core/go/os/file.js'
import { splitWalk, type WalkFunc } from '../../../src/core/go/path/filepath/walk.js'
import {
  CLAIMS,
  GONE,
  MAIN,
  POSTED,
  READY,
  ReadAhead,
  readsManifest,
  type ShareData,
  type ShareMessage,
  START,
  WORKER,
  walkShared,
} from '../../../src/core/loader/loader-shared.js'
import type { ParsedManifest } from '../../../src/core/loader/manifest.js'
import { makeTree, manifest, tempRoot } from '../../helpers/tree.js'
import { mkfifoSync } from '../lint/fifo.js'

// The read-ahead of loader-shared.ts, piece by piece: the worker's stream (loader-worker.ts run
// as a worker on a tree, its messages read back), the main thread's reading of a stream written
// here by hand, and the walk that joins them. Every wait here is on a thread's end or a value
// already set: nothing depends on how fast either side runs.

const NUL = '\0'
const rec = (...parts: string[]) => parts.join(NUL)
const bytes = (...texts: string[]) => new Uint8Array(Buffer.from(texts.join(''), 'latin1'))
const batch = (text: string, nums: number[], data: Uint8Array = new Uint8Array(0)): ShareMessage => ({
  batch: { text, nums: Uint32Array.from(nums), bytes: data },
})

/** A stream written by hand: messages already on the port, the state as given. */
function stream(messages: ShareMessage[], opts: { gone?: boolean; patienceMs?: number } = {}) {
  const { port1, port2 } = new MessageChannel()
  for (const m of messages) port2.postMessage(m)
  const state = new Int32Array(new SharedArrayBuffer(4 * (CLAIMS + 1)))
  if (opts.gone) Atomics.store(state, GONE, 1)
  const ahead = new ReadAhead(port1, state, opts.patienceMs ?? 3_600_000)
  return { ahead, close: () => port2.close() }
}

/** Names and type bits of a listing result. */
function listing(r: ReturnType<ReadAhead['readDir']>): [string, number, boolean][] | string {
  if (!r.ok) return `error: ${r.err.error()}`
  return r.value.map(([name, info]) => {
    assert.ok(info instanceof DirentInfo)
    assert.equal(info.name, name)
    return [name, info.typeBits, info.isDir()]
  })
}

describe('ReadAhead: the main thread takes the worker stream in walk order', () => {
  let R = ''
  let cleanup = () => {}
  before(() => {
    ;({ root: R, cleanup } = tempRoot())
    // What the disk holds differs from every stream below: an answer tells where it came from.
    makeTree(R, {
      'a/on-disk/skill.json': manifest({ name: 'disk_a' }),
      'a/skill.json': manifest({ name: 'disk' }),
      'b/skill.json': manifest({ name: 'disk_b' }),
    })
  })
  after(() => cleanup())

  const joiner = (dir: string, joined: string[]) => (name: GoString) => {
    joined.push(name)
    return `${dir}/${name}`
  }

  test('listings and files from the stream, across batches, each file its own bytes', () => {
    const one = manifest({ name: 'one' })
    const two = manifest({ name: 'two' })
    const three = manifest({ name: 'three' })
    const { ahead, close } = stream([
      batch(
        rec('d', `${R}/a`, 'x', 'y', 'z', 'f', `${R}/a/x/skill.json`, 'f', `${R}/a/skill.json`),
        [3, MODE_DIR, 0, MODE_SYMLINK, one.length, two.length],
        bytes(one, two),
      ),
      batch(rec('d', `${R}/b`, 'w', 'f', `${R}/b/skill.json`), [1, 0, three.length], bytes(three)),
    ])
    const joined: string[] = []
    assert.deepEqual(listing(ahead.readDir(`${R}/a`, joiner(`${R}/a`, joined))), [
      ['x', MODE_DIR, true],
      ['y', 0, false],
      ['z', MODE_SYMLINK, false],
    ])
    assert.deepEqual(joined, ['x', 'y', 'z'])
    assert.equal(ahead.parseManifest(`${R}/a/x/skill.json`).manifest.name, 'one')
    const second = ahead.parseManifest(`${R}/a/skill.json`)
    assert.equal(second.manifest.name, 'two')
    assert.equal(second.raw, two)
    assert.equal(second.err, null)
    assert.equal(ahead.taken, 3)
    // The next batch: its names, numbers and bytes from their start.
    assert.deepEqual(listing(ahead.readDir(`${R}/b`, joiner(`${R}/b`, []))), [['w', 0, false]])
    assert.equal(ahead.parseManifest(`${R}/b/skill.json`).raw, three)
    assert.equal(ahead.taken, 5)
    close()
  })

  test("a read's error arrives as its text, and the stream goes on after it", () => {
    const m = manifest({ name: 'after_errors' })
    const { ahead, close } = stream([
      batch(
        rec(
          'D',
          `${R}/a`,
          `open ${R}/a: permission denied`,
          'F',
          `${R}/a/skill.json`,
          `open ${R}/a/skill.json: permission denied`,
          'd',
          `${R}/b`,
          'q',
          'f',
          `${R}/b/skill.json`,
        ),
        [1, 0, m.length],
        bytes(m),
      ),
    ])
    const dir = ahead.readDir(`${R}/a`, joiner(`${R}/a`, []))
    assert.equal(listing(dir), `error: open ${R}/a: permission denied`)
    const failed = ahead.parseManifest(`${R}/a/skill.json`)
    assert.equal(failed.err?.error(), `read: open ${R}/a/skill.json: permission denied`)
    assert.equal(failed.raw, null)
    assert.deepEqual(listing(ahead.readDir(`${R}/b`, joiner(`${R}/b`, []))), [['q', 0, false]])
    assert.equal(ahead.parseManifest(`${R}/b/skill.json`).manifest.name, 'after_errors')
    assert.equal(ahead.taken, 4)
    close()
  })

  /** What the disk gives for a/ and a/skill.json. */
  const fromDisk = (ahead: ReadAhead) => {
    assert.deepEqual(listing(ahead.readDir(`${R}/a`, joiner(`${R}/a`, []))), [
      ['on-disk', MODE_DIR, true],
      ['skill.json', 0, false],
    ])
    assert.equal(ahead.parseManifest(`${R}/a/skill.json`).manifest.name, 'disk')
    assert.equal(ahead.taken, 0)
  }

  test('a record for another path or of another kind ends the stream: reads go to the disk', () => {
    const m = manifest({ name: 'stream' })
    const cases: [string, ShareMessage][] = [
      ['another path', batch(rec('d', `${R}/b`, 'q', 'f', `${R}/a/skill.json`), [1, 0, m.length], bytes(m))],
      [
        'a file for a listing',
        batch(rec('f', `${R}/a`, 'f', `${R}/a/skill.json`), [2, m.length], bytes('{}', m)),
      ],
      [
        'a file error for a listing',
        batch(rec('F', `${R}/a`, 'bad', 'f', `${R}/a/skill.json`), [m.length], bytes(m)),
      ],
      ['a listing error for a file', batch(rec('D', `${R}/a`, 'bad'), [])],
    ]
    for (const [why, msg] of cases) {
      const { ahead, close } = stream([msg, batch(rec('f', `${R}/a/skill.json`), [m.length], bytes(m))])
      // Once ended, a record that would match is not taken either.
      if (why === 'a listing error for a file') {
        assert.equal(ahead.parseManifest(`${R}/a/skill.json`).manifest.name, 'disk', why)
        assert.deepEqual(listing(ahead.readDir(`${R}/a`, joiner(`${R}/a`, []))), [
          ['on-disk', MODE_DIR, true],
          ['skill.json', 0, false],
        ])
        assert.equal(ahead.taken, 0)
      } else fromDisk(ahead)
      close()
    }
  })

  test('a worker that failed, has ended, or sends nothing in time: reads go to the disk', () => {
    const m = manifest({ name: 'stream' })
    const late = batch(rec('d', `${R}/a`, 'q', 'f', `${R}/a/skill.json`), [1, 0, m.length], bytes(m))
    // Failed: what follows its message is not taken.
    let s = stream([{ failed: 'a manifest that may not end' }, late])
    fromDisk(s.ahead)
    s.close()
    // Ended with nothing sent: no wait (patience is an hour here).
    s = stream([], { gone: true })
    fromDisk(s.ahead)
    s.close()
    // Alive but silent past its patience.
    s = stream([], { patienceMs: 0 })
    fromDisk(s.ahead)
    s.close()
    // Ended after sending: what it sent is still taken.
    s = stream([late], { gone: true })
    assert.deepEqual(listing(s.ahead.readDir(`${R}/a`, joiner(`${R}/a`, []))), [['q', 0, false]])
    assert.equal(s.ahead.parseManifest(`${R}/a/skill.json`).manifest.name, 'stream')
    assert.equal(s.ahead.taken, 2)
    s.close()
  })
})

test('ReadAhead: a batch posted while it waits is taken', async (t) => {
  const { root: R, cleanup } = tempRoot()
  t.after(cleanup)
  makeTree(R, { 'a/on-disk': 'x' })
  const { port1, port2 } = new MessageChannel()
  const state = new Int32Array(new SharedArrayBuffer(4 * (CLAIMS + 1)))
  // A thread that posts a listing of a/ a little later, as the worker does (POSTED moved, woken).
  const poster = new Worker(
    `const { workerData: { port, shared } } = require('node:worker_threads')
     const state = new Int32Array(shared)
     setTimeout(() => {
       port.postMessage({ batch: { text: 'd\\0${R}/a\\0late', nums: Uint32Array.from([1, 0]), bytes: new Uint8Array(0) } })
       Atomics.add(state, ${POSTED}, 1)
       Atomics.notify(state, ${POSTED})
     }, 50)`,
    { eval: true, workerData: { port: port2, shared: state.buffer }, transferList: [port2] },
  )
  const ahead = new ReadAhead(port1, state, 3_600_000)
  const r = ahead.readDir(`${R}/a`, (n) => `${R}/a/${n}`)
  assert.deepEqual(listing(r), [['late', 0, false]])
  assert.equal(ahead.taken, 1)
  await once(poster, 'exit')
})

test('readsManifest: a non-directory named skill.json, and nothing else', () => {
  const file = { isDir: () => false }
  const dir = { isDir: () => true }
  assert.equal(readsManifest('/r/a/skill.json', file), true)
  assert.equal(readsManifest('skill.json', file), true)
  assert.equal(readsManifest('/r/a/skill.json', dir), false)
  assert.equal(readsManifest('/r/a/skill.json', null), false)
  assert.equal(readsManifest('/r/a/skill.json.bak', file), false)
  assert.equal(readsManifest('/r/skill.json/x', file), false)
})

/** What a worker (loader-worker.ts) posted and left in the state, once it has ended. */
async function runWorker(
  root: string,
  names: string[],
  opts: { first?: number; claimedByMain?: number[]; fault?: ShareData['fault'] } = {},
) {
  const state = new Int32Array(new SharedArrayBuffer(4 * (CLAIMS + names.length)))
  for (const i of opts.claimedByMain ?? []) state[CLAIMS + i] = MAIN
  // Set before it starts: the worker finds START set and does not wait.
  state[START] = (opts.first ?? 0) + 1
  const { port1, port2 } = new MessageChannel()
  const thread = new Worker(new URL('../../../src/core/loader/loader-worker.js', import.meta.url), {
    workerData: { root, names, shared: state.buffer, port: port2, fault: opts.fault } satisfies ShareData,
    transferList: [port2],
  })
  const [code] = await once(thread, 'exit')
  const messages: ShareMessage[] = []
  for (let m = receiveMessageOnPort(port1); m !== undefined; m = receiveMessageOnPort(port1)) {
    messages.push(m.message as ShareMessage)
  }
  port1.close()
  return {
    code: code as number,
    messages,
    ready: state[READY],
    gone: state[GONE],
    posted: state[POSTED],
    claims: Array.from(state.slice(CLAIMS)),
  }
}

/** A batch as plain values. */
const plain = (m: ShareMessage) =>
  'failed' in m
    ? m
    : {
        parts: m.batch.text.split(NUL),
        nums: Array.from(m.batch.nums),
        bytes: Buffer.from(m.batch.bytes).toString('latin1'),
      }

describe('loader-worker: what it reads and posts', () => {
  let R = ''
  let cleanup = () => {}
  const M0a = manifest({ name: 'zero_a' })
  const M0 = manifest({ name: 'zero' })
  const M1 = manifest({ name: 'one' })
  const M2 = manifest({ name: 'two' })
  before(() => {
    ;({ root: R, cleanup } = tempRoot())
    makeTree(R, {
      'c0/a/skill.json': M0a,
      'c0/run.sh': '#!/bin/sh\n',
      'c0/skill.json': M0,
      'c1/skill.json': M1,
      'c2/skill.json': { link: 'nowhere.json' },
      'c2/sub/skill.json': M2,
      c3: 'a file: nothing to read',
    })
  })
  after(() => cleanup())
  const names = ['c0', 'c1', 'c2', 'c3']

  test('each child it claims, in walk order, one batch each; children the main thread took are skipped', async () => {
    const r = await runWorker(`${R}`, names, { claimedByMain: [1] })
    assert.equal(r.code, 0)
    assert.deepEqual(r.messages.map(plain), [
      {
        parts: [
          'd',
          `${R}/c0`,
          'a',
          'run.sh',
          'skill.json',
          'd',
          `${R}/c0/a`,
          'skill.json',
          'f',
          `${R}/c0/a/skill.json`,
          'f',
          `${R}/c0/skill.json`,
        ],
        nums: [3, MODE_DIR, 0, 0, 1, 0, M0a.length, M0.length],
        bytes: M0a + M0,
      },
      {
        parts: [
          'd',
          `${R}/c2`,
          'skill.json',
          'sub',
          'F',
          `${R}/c2/skill.json`,
          `open ${R}/c2/skill.json: no such file or directory`,
          'd',
          `${R}/c2/sub`,
          'skill.json',
          'f',
          `${R}/c2/sub/skill.json`,
        ],
        nums: [2, MODE_SYMLINK, MODE_DIR, 1, 0, M2.length],
        bytes: M2,
      },
      // c3, a file, has nothing to read: no batch.
    ])
    assert.deepEqual(r.claims, [WORKER, MAIN, WORKER, WORKER])
    assert.equal(r.ready, 1)
    // Ended: GONE set, and POSTED moved once per batch and once more at the end.
    assert.equal(r.gone, 1)
    assert.equal(r.posted, 3)
  })

  test('it starts at the child it is told, and leaves the ones before it', async () => {
    const r = await runWorker(`${R}`, names, { first: 2 })
    assert.deepEqual(
      r.messages.map((m) => plain(m)).map((m) => ('parts' in m ? m.parts.slice(0, 2) : m)),
      [['d', `${R}/c2`]],
    )
    assert.deepEqual(r.claims, [0, 0, WORKER, WORKER])
    assert.equal(r.posted, 2)
  })

  test('told to start past the last child (an unused worker), it reads nothing and ends', async () => {
    const r = await runWorker(`${R}`, names, { first: names.length })
    assert.deepEqual(r.messages, [])
    assert.deepEqual(r.claims, [0, 0, 0, 0])
    assert.deepEqual([r.code, r.gone, r.posted], [0, 1, 1])
  })

  test('a root that lists differently from the names it was given: it says so and reads nothing', async () => {
    for (const given of [
      ['c0', 'c1', 'c2'],
      ['c0', 'c1', 'c2', 'c3', 'c4'],
      ['c0', 'c1', 'cX', 'c3'],
      ['c0', 'c1', 'c2', 'c3x'],
    ]) {
      const r = await runWorker(`${R}`, given)
      assert.deepEqual(r.messages, [{ failed: 'the root changed under the walk' }], given.join())
      assert.ok(
        r.claims.every((c) => c === 0),
        given.join(),
      )
    }
    const r = await runWorker(`${R}/c3`, ['x'])
    assert.deepEqual(r.messages, [{ failed: 'the root changed under the walk' }])
  })

  test('faults for tests: a crash after its first claim, a read out of order first', async () => {
    const crash = await runWorker(`${R}`, names, { fault: 'crash' })
    assert.deepEqual([crash.code, crash.messages, crash.claims], [1, [], [WORKER, 0, 0, 0]])
    // However it ends, the main thread is told.
    assert.deepEqual([crash.gone, crash.posted], [1, 1])
    const misorder = await runWorker(`${R}`, names, { fault: 'misorder', first: 3 })
    assert.deepEqual(misorder.messages.map(plain), [
      { parts: ['d', `${R}/not-the-next-read`], nums: [], bytes: '' },
    ])
  })

  test('a child with more reads than a batch holds arrives in more than one batch, in order', async (t) => {
    const { root: B, cleanup: done } = tempRoot()
    t.after(done)
    const tree: Record<string, string> = { 'z/skill.json': '{}' }
    const subs: string[] = []
    for (let k = 0; k < 700; k++) {
      const s = `s${String(k).padStart(3, '0')}`
      subs.push(s)
      tree[`big/${s}/skill.json`] = `{"k":${k}}`
    }
    makeTree(B, tree)
    const r = await runWorker(B, ['big', 'z'])
    const got = r.messages.map(plain) as { parts: string[]; nums: number[]; bytes: string }[]
    // 702 parts for the listing, 5 per sub-directory: cut once a batch holds 4096 parts.
    assert.deepEqual(
      got.map((b) => b.parts.length),
      [702 + 5 * 679, 5 * 21, 5],
    )
    assert.deepEqual(
      got.slice(0, 2).flatMap((b) => b.parts),
      [
        'd',
        `${B}/big`,
        ...subs,
        ...subs.flatMap((s) => ['d', `${B}/big/${s}`, 'skill.json', 'f', `${B}/big/${s}/skill.json`]),
      ],
    )
    assert.equal(
      got
        .slice(0, 2)
        .map((b) => b.bytes)
        .join(''),
      subs.map((_, k) => `{"k":${k}}`).join(''),
    )
  })

  test('a manifest that may not end (a FIFO): what was read is sent, then why it stopped', async (t) => {
    const { root: F, cleanup: done } = tempRoot()
    t.after(done)
    makeTree(F, { 'a/skill.json': M0, 'b/x': 'x', 'c/skill.json': M1 })
    mkfifoSync(`${F}/b/skill.json`)
    const r = await runWorker(F, ['a', 'b', 'c'])
    assert.deepEqual(r.messages.map(plain), [
      { parts: ['d', `${F}/a`, 'skill.json', 'f', `${F}/a/skill.json`], nums: [1, 0, M0.length], bytes: M0 },
      { parts: ['d', `${F}/b`, 'skill.json', 'x'], nums: [2, MODE_NAMED_PIPE, 0], bytes: '' },
      { failed: 'a manifest that may not end' },
    ])
    // It stopped at b: c is left to the main thread.
    assert.deepEqual(r.claims, [WORKER, WORKER, 0])
  })
})

describe('walkShared: each child walked here, in order, with the worker reading ahead', () => {
  let R = ''
  let cleanup = () => {}
  before(() => {
    ;({ root: R, cleanup } = tempRoot())
    makeTree(R, {
      'a/skill.json': manifest({ name: 'a' }),
      'b/skill.json': manifest({ name: 'b' }),
      'c/skill.json': manifest({ name: 'c' }),
      'two/a/skill.json': manifest({ name: 'a' }),
      'two/b/skill.json': manifest({ name: 'b' }),
    })
  })
  after(() => cleanup())

  /** The loader's use of walkShared, recording what each child was read with. */
  function walk(root: string, opts: Parameters<typeof walkShared>[4], stopAt?: string) {
    const reads: { parseManifest?: (path: GoString) => ParsedManifest } = {}
    const seen: [string, 'worker' | 'disk'][] = []
    const fn: WalkFunc = (path, info) => {
      if (!readsManifest(path, info)) return null
      const parsed = reads.parseManifest?.(path)
      seen.push([path.slice(root.length + 1), parsed ? 'worker' : 'disk'])
      if (parsed) assert.equal(parsed.manifest.name, path.split('/').at(-2))
      return stopAt !== undefined && path.endsWith(`/${stopAt}/skill.json`) ? new ErrorString('stop') : null
    }
    const split = splitWalk(root, fn)
    assert.ok(split !== null)
    const shared: number[] = []
    const err = walkShared(root, split, fn, reads, { ...opts, onShared: (n) => shared.push(n) })
    return { err, seen, shared, after: reads.parseManifest }
  }

  test('every child after the first is read by the worker; the reads are given back after', () => {
    const r = walk(R, { afterMs: 0, waitForWorker: true })
    assert.equal(r.err, null)
    assert.deepEqual(r.seen, [
      ['a/skill.json', 'disk'],
      ['b/skill.json', 'worker'],
      ['c/skill.json', 'worker'],
      ['two/a/skill.json', 'worker'],
      ['two/b/skill.json', 'worker'],
    ])
    // b, c, two: a listing and a manifest each, and two's two children.
    assert.deepEqual(r.shared, [2 + 2 + 5])
    assert.equal(r.after, undefined)
  })

  test('no worker before afterMs, nor for a dir of two children', () => {
    const late = walk(R, { afterMs: 3_600_000, waitForWorker: true })
    assert.ok(late.seen.every(([, from]) => from === 'disk'))
    assert.deepEqual(late.shared, [0])
    const two = walk(`${R}/two`, { afterMs: 0, waitForWorker: true })
    assert.deepEqual(two.seen, [
      ['a/skill.json', 'disk'],
      ['b/skill.json', 'disk'],
    ])
    assert.deepEqual(two.shared, [0])
  })

  test("a child's error ends the walk there, and the reads are given back", () => {
    const r = walk(R, { afterMs: 0, waitForWorker: true }, 'b')
    assert.equal(r.err?.error(), 'stop')
    assert.deepEqual(
      r.seen.map(([p]) => p),
      ['a/skill.json', 'b/skill.json'],
    )
    // Ended early: not told how much came from the worker.
    assert.deepEqual(r.shared, [])
    assert.equal(r.after, undefined)
  })

  test('a worker started ends, whether it was used or not', async () => {
    // Each exit is listened for as the thread starts, and the thread is kept referenced so
    // that the test waits for it (the loader's own threads are not).
    const exits: Promise<unknown[]>[] = []
    const onWorker = (w: Worker) => {
      exits.push(once(w, 'exit'))
      w.ref()
    }
    // Used: waitForWorker has it read every child after the first.
    const a = walk(R, { afterMs: 0, waitForWorker: true, onWorker })
    assert.deepEqual(a.shared, [9])
    // Not used, in all likelihood: without waitForWorker a thread is not running yet when these
    // small children have been walked. Whether or not it got to read, it is told to end, and ends.
    const b = walk(R, { afterMs: 0, onWorker })
    assert.equal(b.err, null)
    assert.equal(exits.length, 2)
    const codes = await Promise.all(exits)
    assert.deepEqual(
      codes.map(([code]) => code),
      [0, 0],
    )
  })

  test('without onShared: the same walk', () => {
    const reads: { parseManifest?: (path: GoString) => ParsedManifest } = {}
    const names: string[] = []
    const fn: WalkFunc = (path, info) => {
      if (readsManifest(path, info)) names.push(path.slice(R.length + 1))
      return null
    }
    const split = splitWalk(R, fn)
    assert.ok(split !== null)
    assert.equal(walkShared(R, split, fn, reads, { afterMs: 0, waitForWorker: true }), null)
    assert.equal(names.length, 5)
  })

  test("the root's own error is the walk's, before any child", () => {
    const first: GoError = new ErrorString('root')
    let walked = 0
    const err = walkShared(
      R,
      {
        first,
        names: ['a', 'b', 'c'],
        walkChild: () => {
          walked++
          return null
        },
      },
      () => null,
      {},
      { afterMs: 0 },
    )
    assert.equal(err, first)
    assert.equal(walked, 0)
  })
})
