import { buildSubprocessSkill, newBuildCache, type SubprocessSkill } from './build.js'
import type { GoError } from './go/errors.js'
import { type GoString, trimSpace } from './go/gostring.js'
import { isNotExist } from './go/os/errors.js'
import { type FileInfo, stat } from './go/os/file.js'
import { base, isAbs } from './go/path/filepath/path.js'
import { type OnDir, splitWalk, walk } from './go/path/filepath/walk.js'
import { quote } from './go/strconv/quote.js'
import { type ShareOptions, walkShared } from './loader-shared.js'
import { type Manifest, type ParsedManifest, parseManifest } from './manifest.js'
import type { Registry } from './registry.js'

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

export interface LoadResult {
  count: number
  /** filepath.Walk's own error; the manager's walk callback never returns one, so this stays null. */
  err: GoError | null
  skills: SubprocessSkill[]
}

export interface LoadOptions {
  registry: Registry
  onEvent: (e: LoaderEvent) => void
  /** Called for each dir that passes the checks, just before it is walked. */
  onWalkStart?: (root: GoString) => void
  /**
   * Share the walk of each dir with a worker thread once it has taken `afterMs`: the lines and
   * their order stay the same; events then carry no `parsed` (see loader-shared.ts).
   */
  parallel?: ShareOptions
}

/** LoadDirs: every configured dir in order, one event per log line. */
export function loadDirs(dirs: readonly GoString[], opts: LoadOptions): LoadResult {
  const result: LoadResult = { count: 0, err: null, skills: [] }
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
    if (err) {
      result.err = err
      return result
    }
  }
  return result
}

/**
 * What the walk callback makes of one path, before the registry is asked: the registry must be
 * asked in walk order, so this is all that can be done apart (in a worker, see loader-worker.ts).
 */
export type Outcome =
  | { kind: 'walk-error'; path: GoString; message: GoString; err: GoError }
  | {
      kind: 'parse-error' | 'build-error'
      path: GoString
      name: GoString
      message: GoString
      err: GoError
      parsed?: ParsedManifest
    }
  | { kind: 'built'; path: GoString; name: GoString; skill: SubprocessSkill; parsed?: ParsedManifest }

/**
 * The manager's walk callback up to the registry. `keepParsed`: attach what the decoder saw
 * (for --explain); a worker leaves it out, it does not cross threads cheaply.
 */
export function outcomeMaker(root: GoString, keepParsed: boolean): Visitor {
  const cache = newBuildCache(root)
  const visit: Visitor = (path, info, err) => {
    if (err) return { kind: 'walk-error', path, message: `skill loader: walk ${path}: ${err.error()}`, err }
    if (!info || info.isDir()) return null
    if (base(path) !== 'skill.json') return null
    const parsed = parseManifest(path)
    const m: Manifest = parsed.manifest
    const seen = keepParsed ? { parsed } : {}
    if (parsed.err) {
      const message = `skill loader: parse ${path}: ${parsed.err.error()}`
      return { kind: 'parse-error', path, name: m.name, message, err: parsed.err, ...seen }
    }
    const built = buildSubprocessSkill(m, path, root, cache)
    if (!built.ok) {
      const message = `skill loader: build ${m.name} (${path}): ${built.err.error()}`
      return { kind: 'build-error', path, name: m.name, message, err: built.err, ...seen }
    }
    return { kind: 'built', path, name: m.name, skill: built.value, ...seen }
  }
  visit.onDir = cache.onDir
  return visit
}

/** What the walk callback makes of a path, and the walk's onDir hook that feeds its cache. */
export type Visitor = ((path: GoString, info: FileInfo | null, err: GoError | null) => Outcome | null) & {
  onDir?: OnDir
}

function loadOneDir(root: GoString, opts: LoadOptions, result: LoadResult): GoError | null {
  const emit = opts.onEvent
  const settle = (o: Outcome) => {
    const { path, parsed } = o as { path: GoString; parsed?: ParsedManifest }
    if (o.kind === 'walk-error') {
      emit({ kind: o.kind, message: o.message, path, root, name: null, err: o.err })
    } else if (o.kind !== 'built') {
      emit({ kind: o.kind, message: o.message, path, root, name: o.name, err: o.err, parsed })
    } else if (opts.registry.has(o.name)) {
      const message = `skill loader: skill ${quote(o.name)} already registered, skipping ${path}`
      emit({ kind: 'duplicate', message, path, root, name: o.name, err: null, parsed })
    } else {
      opts.registry.add(o.name)
      result.count++
      result.skills.push(o.skill)
      const message = `skill loader: registered subprocess skill ${quote(o.name)} from ${path}`
      emit({ kind: 'registered', message, path, root, name: o.name, err: null, parsed, skill: o.skill })
    }
  }
  const outcome = outcomeMaker(root, opts.parallel === undefined)
  const fn = (path: GoString, info: FileInfo | null, err: GoError | null) => {
    const o = outcome(path, info, err)
    if (o !== null) settle(o)
    return null
  }
  if (opts.parallel !== undefined) {
    const split = splitWalk(root, fn, outcome.onDir)
    if (split !== null) return walkShared(root, split, outcome, settle, opts.parallel)
  }
  return walk(root, fn, { direntTypes: true, onDir: outcome.onDir })
}
