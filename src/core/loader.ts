import { buildSubprocessSkill, newBuildCache, type SubprocessSkill } from './build.js'
import type { GoError } from './go/errors.js'
import { type GoString, trimSpace } from './go/gostring.js'
import { isNotExist } from './go/os/errors.js'
import { stat } from './go/os/file.js'
import { base, isAbs } from './go/path/filepath/path.js'
import { walk } from './go/path/filepath/walk.js'
import { quote } from './go/strconv/quote.js'
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

function loadOneDir(root: GoString, opts: LoadOptions, result: LoadResult): GoError | null {
  const emit = opts.onEvent
  const cache = newBuildCache()
  return walk(
    root,
    (path, info, err) => {
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
      if (!info) return null
      // EvalSymlinks of entries mostly walks paths the walk has just listed: reuse their types.
      cache.seen.set(path, info)
      if (info.isDir()) return null
      if (base(path) !== 'skill.json') return null
      const parsed = parseManifest(path)
      const m: Manifest = parsed.manifest
      const ev = { path, root, name: m.name, parsed }
      if (parsed.err) {
        emit({
          ...ev,
          kind: 'parse-error',
          message: `skill loader: parse ${path}: ${parsed.err.error()}`,
          err: parsed.err,
        })
        return null
      }
      const built = buildSubprocessSkill(m, path, root, cache)
      if (!built.ok) {
        const message = `skill loader: build ${m.name} (${path}): ${built.err.error()}`
        emit({ ...ev, kind: 'build-error', message, err: built.err })
        return null
      }
      if (opts.registry.has(m.name)) {
        const message = `skill loader: skill ${quote(m.name)} already registered, skipping ${path}`
        emit({ ...ev, kind: 'duplicate', message, err: null })
        return null
      }
      opts.registry.add(m.name)
      result.count++
      result.skills.push(built.value)
      const message = `skill loader: registered subprocess skill ${quote(m.name)} from ${path}`
      emit({ ...ev, kind: 'registered', message, err: null, skill: built.value })
      return null
    },
    { direntTypes: true },
  )
}
