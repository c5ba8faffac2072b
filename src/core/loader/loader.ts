import type { GoError } from '../go/errors.js'
import { ErrorString } from '../go/errors.js'
import { type GoString, trimSpace } from '../go/gostring.js'
import { isNotExist } from '../go/os/errors.js'
import { type FileInfo, stat } from '../go/os/file.js'
import { isAbs } from '../go/path/filepath/path.js'
import { splitWalk, walk } from '../go/path/filepath/walk.js'
import { quote } from '../go/strconv/quote.js'
import { buildSubprocessSkill, newBuildCache, type SubprocessSkill } from './build.js'
import { readsManifest, type ShareOptions, walkShared } from './loader-shared.js'
import { type Manifest, type ParsedManifest, parseManifest } from './manifest.js'
import { probeManifest, readManifest, whole } from './manifest-read.js'
import { alreadyRegisteredText, buildFailedText, type Registry } from './registry.js'

export type LoaderEventKind =
  | 'skip-non-absolute'
  | 'dir-not-present'
  | 'stat-error'
  | 'not-a-directory'
  | 'walk-error'
  | 'parse-error'
  | 'build-error'
  | 'duplicate'
  | 'registered'

/** One log line of the manager's loader, with what produced it. */
export interface LoaderEvent {
  kind: LoaderEventKind
  /** The exact message the manager logs (a byte string). */
  message: GoString
  /** The dir (for dir-level events) or the manifest path. */
  path: GoString
  /** The allow-list root being walked (trimmed), or the dir as configured. */
  root: GoString
  /** The manifest's decoded name, when a manifest was decoded. */
  name: GoString | null
  err: GoError | null
  /** For manifest events: what the decoder saw (keys, raw bytes). */
  parsed?: ParsedManifest
  /** For registered events. */
  skill?: SubprocessSkill
}

/** A manifest the manager's boot never gets past, or one too large to judge: the walk stops there. */
export interface Stopped {
  path: GoString
  /** `endless`: a device the manager would read forever; `too-large`: more than a string holds. */
  kind: 'endless' | 'too-large'
  size?: number
}

export interface LoadResult {
  count: number
  /** Set when the walk stopped at a manifest (see Stopped); no line after it is replayed. */
  stopped: Stopped | null
  /** filepath.Walk's own error; the manager's walk callback never returns one, so this stays null. */
  err: GoError | null
  skills: SubprocessSkill[]
}

export interface LoadOptions {
  registry: Registry
  onEvent: (e: LoaderEvent) => void
  /**
   * Called just before a FIFO named skill.json is opened: the loader then blocks on it, as the
   * manager's boot does, until a writer comes (print what is pending first).
   */
  onBlocking?: (path: GoString) => void
  /** Called for each dir that passes the checks, just before it is walked. */
  onWalkStart?: (root: GoString) => void
  /**
   * Have a worker thread read ahead once a dir's walk has taken `afterMs` (see loader-shared.ts):
   * the same events, in the same order.
   */
  parallel?: ShareOptions
}

/** LoadDirs: every configured dir in order, one event per log line. */
export function loadDirs(dirs: readonly GoString[], opts: LoadOptions): LoadResult {
  const result: LoadResult = { count: 0, stopped: null, err: null, skills: [] }
  const emit = opts.onEvent
  for (const raw of dirs) {
    const dir = trimSpace(raw)
    if (dir === '') continue
    const dirEvent = (kind: LoaderEventKind, message: GoString, err: GoError | null = null) =>
      emit({ kind, message, path: dir, root: dir, name: null, err })
    if (!isAbs(dir)) {
      dirEvent('skip-non-absolute', `skill loader: skip non-absolute dir ${quote(dir)}`)
      continue
    }
    const info = stat(dir)
    if (!info.ok) {
      if (isNotExist(info.err)) dirEvent('dir-not-present', `skill loader: dir ${dir} not present, skipping`)
      else dirEvent('stat-error', `skill loader: stat ${dir}: ${info.err.error()}`, info.err)
      continue
    }
    if (!info.value.isDir()) {
      dirEvent('not-a-directory', `skill loader: ${dir} is not a directory, skipping`)
      continue
    }
    opts.onWalkStart?.(dir)
    const err = loadOneDir(dir, opts, result)
    if (err === STOP) return result
    if (err) {
      result.err = err
      return result
    }
  }
  return result
}

/** Ends the walk at a manifest the manager never gets past (LoadResult.stopped). */
const STOP = new ErrorString('ongrid-skill: the walk stopped')

function loadOneDir(root: GoString, opts: LoadOptions, result: LoadResult): GoError | null {
  const emit = opts.onEvent
  const cache = newBuildCache(root)
  // Where manifests are read from: the disk, or what a worker has read ahead (loader-shared.ts).
  const reads: { parseManifest?: (path: GoString) => ParsedManifest } = {}
  const fn = (path: GoString, info: FileInfo | null, err: GoError | null) => {
    if (err) {
      emit({
        kind: 'walk-error',
        message: `skill loader: walk ${path}: ${err.error()}`,
        path,
        root,
        name: null,
        err,
      })
      return null
    }
    if (!readsManifest(path, info)) return null
    let parsed: ParsedManifest
    // A file that ends may come from the read-ahead worker (which stops before any other).
    const kind = probeManifest(path, info)
    if (kind === 'plain') parsed = (reads.parseManifest ?? parseManifest)(path)
    else {
      let r = readManifest(path, info)
      if (r.kind === 'fifo') {
        opts.onBlocking?.(path)
        r = whole(path)
      }
      if (r.kind === 'endless' || r.kind === 'too-large') {
        result.stopped =
          r.kind === 'too-large' ? { path, kind: r.kind, size: r.size } : { path, kind: r.kind }
        return STOP
      }
      if (r.kind !== 'read') return STOP
      const file = r.file
      parsed = parseManifest(path, () => file)
    }
    const m: Manifest = parsed.manifest
    if (parsed.err) {
      const message = `skill loader: parse ${path}: ${parsed.err.error()}`
      emit({ kind: 'parse-error', message, path, root, name: m.name, err: parsed.err, parsed })
      return null
    }
    const built = buildSubprocessSkill(m, path, root, cache)
    if (!built.ok) {
      const message = buildFailedText(m.name, path, built.err.error())
      emit({ kind: 'build-error', message, path, root, name: m.name, err: built.err, parsed })
      return null
    }
    if (opts.registry.has(m.name)) {
      const message = `skill loader: ${alreadyRegisteredText(m.name, path)}`
      emit({ kind: 'duplicate', message, path, root, name: m.name, err: null, parsed })
      return null
    }
    opts.registry.add(m.name)
    result.count++
    result.skills.push(built.value)
    const message = `skill loader: registered subprocess skill ${quote(m.name)} from ${path}`
    emit({ kind: 'registered', message, path, root, name: m.name, err: null, parsed, skill: built.value })
    return null
  }
  if (opts.parallel !== undefined) {
    const split = splitWalk(root, fn, cache.onDir)
    if (split !== null) return walkShared(root, split, fn, reads, opts.parallel)
  }
  return walk(root, fn, { direntTypes: true, onDir: cache.onDir })
}
