import { resolve as resolvePath } from 'node:path'
import { type GoString, toText } from '../go/gostring.js'
import { lstat } from '../go/os/file.js'
import { rel } from '../go/path/filepath/path.js'
import { evalSymlinks } from '../go/path/filepath/symlink.js'
import type { LoaderEvent } from './loader.js'
import type { ParsedManifest } from './manifest.js'
import type { Registry } from './registry.js'
import { entryRunProblem } from './runnable.js'

/**
 * Hints for loader lines whose cause is not obvious from the manager's text alone.
 * Pure text for humans; never part of the manager's output.
 */
export class Explainer {
  private readonly firstPath = new Map<GoString, GoString>()

  constructor(private readonly registry: Registry) {}

  /** Hints about a configured dir before it is walked (a symlinked root loads nothing). */
  forRoot(root: GoString): string[] {
    const info = lstat(root)
    if (info.ok && info.value.isSymlink()) {
      const target = evalSymlinks(root)
      const to = target.ok ? ` (it points to ${toText(target.value)})` : ''
      return [
        `${toText(root)} is a symlink${to}: the manager's filepath.Walk does not follow a symlinked root, so nothing under it loads and no line is logged. Configure the resolved path instead.`,
      ]
    }
    return []
  }

  forEvent(e: LoaderEvent): string[] {
    const hints: string[] = []
    const path = toText(e.path)
    switch (e.kind) {
      case 'skip-non-absolute':
        hints.push(nonAbsoluteHint(e.path))
        if (e.path.includes(':')) hints.push(COLON_HINT(path))
        break
      case 'dir-not-present':
        if (e.path.includes(':')) hints.push(COLON_HINT(path))
        break
      case 'duplicate': {
        const name = e.name ?? ''
        if (this.registry.builtins.has(name)) {
          hints.push(
            `"${toText(name)}" is the key of a builtin manager skill, registered before any pack: rename this pack.`,
          )
        } else {
          const first = this.firstPath.get(name)
          if (first)
            hints.push(
              `"${toText(name)}" was first registered from ${toText(first)}; the first dir and walk order win.`,
            )
        }
        break
      }
      case 'build-error': {
        const msg = e.err?.error() ?? ''
        if (msg.includes(' escapes allowlist root ')) {
          const hint = dotDotQuirk(e)
          if (hint) hints.push(hint)
        }
        break
      }
      case 'registered':
        if (e.name !== null) this.firstPath.set(e.name, e.path)
        if (e.skill) {
          const problem = entryRunProblem(e.skill.entry)
          if (problem) hints.push(`loads, but every run fails: ${problem.hint}`)
        }
        break
    }
    if (e.parsed) hints.push(...manifestHints(e.parsed))
    return hints
  }
}

/**
 * Hints said with or without --explain: a relative dir loads nothing, silently for the manager,
 * and it is the one mistake a client's config (mcp under Claude Desktop) makes most.
 */
export function alwaysHints(e: LoaderEvent): string[] {
  return e.kind === 'skip-non-absolute' ? [nonAbsoluteHint(e.path)] : []
}

function nonAbsoluteHint(path: GoString): string {
  return `the manager only takes absolute dirs: use "${resolvePath(toText(path))}".`
}

/** Why `mcp` serves no tool, on stderr whatever else is asked: a client shows nothing of it. */
export function noToolsHints(o: {
  relative: readonly GoString[]
  registered: number
  /** The loader's lines: none when it walked the dirs and found no skill.json. */
  lines: readonly GoString[]
}): string[] {
  if (o.relative.length > 0)
    return o.relative.map(
      (d) =>
        `"${toText(d)}" is relative, and the manager skips a relative dir: a client (Claude Desktop, an IDE) starts this server in a working dir of its own, so give every dir absolute (from here, "${resolvePath(toText(d))}")`,
    )
  if (o.registered === 0 && o.lines.length === 0)
    return [
      'no skill registered from the dirs, and the loader said nothing: no skill.json was found under them',
    ]
  if (o.registered === 0)
    return [
      'no skill registered from the dirs: see the loader lines above, or run load-dirs --explain on them',
    ]
  return [
    `none of the ${o.registered} skill${o.registered === 1 ? '' : 's'} registered is offered: see the lines above (--class names the classes to serve)`,
  ]
}

const COLON_HINT = (path: string) =>
  `"${path}" contains ':' — the manager splits ONGRID_SKILLS_EXTERNAL_DIRS on ',' and ';' only, so this is one path. Separate dirs with ','.`

/** The escape check is a string prefix test on Rel(root, entry): `..hidden/run.sh` "escapes". */
function dotDotQuirk(e: LoaderEvent): string | null {
  const m = /^entry (.*) escapes allowlist root (.*)$/s.exec(e.err?.error() ?? '')
  if (!m) return null
  const r = rel(m[2], m[1])
  if (!r.ok) return null
  const first = r.value.split('/')[0]
  if (first === '..') return null
  return `the entry is inside the root, at ${toText(r.value)}, but the manager treats any relative path starting with ".." as an escape, so "${toText(first)}" counts as outside. Rename that directory.`
}

/** Hints about how the decoder read the file: BOM, case-insensitive keys, duplicate keys. */
export function manifestHints(p: ParsedManifest): string[] {
  const hints: string[] = []
  if (p.raw?.startsWith('\xef\xbb\xbf')) {
    hints.push(
      'the file starts with a UTF-8 byte order mark, which Go’s JSON decoder rejects: save it without BOM.',
    )
  }
  const seen = new Map<string, number>()
  for (const k of p.keys) {
    if (k.field === null) continue
    seen.set(k.field, (seen.get(k.field) ?? 0) + 1)
    if (!k.exact) {
      hints.push(
        `key "${toText(k.key)}" was read as "${k.field}": Go matches JSON keys to fields case-insensitively. Spell it "${k.field}".`,
      )
    }
  }
  for (const [field, n] of seen) {
    if (n > 1) hints.push(`"${field}" is set ${n} times; Go keeps the last one.`)
  }
  return hints
}

/** What a command says when the walk blocks on a FIFO named skill.json (as the manager's boot does). */
export function fifoBlocks(path: GoString): GoString {
  return `${path} is a FIFO: the manager's boot blocks reading it until a writer opens it and closes it, and so does this walk`
}
