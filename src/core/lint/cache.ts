/**
 * `lint --cache`: each pack's rule reports kept between runs, in one file of this user's cache
 * (core/cache/store.ts), and given back when nothing they depend on changed. A pack's reports
 * are keyed by:
 *
 * - this program (its version, and the size and time of the code file this module is in: any
 *   build is another program), the cache's format, the manager release answered for;
 * - the walk: every file checked, in order, with its root, the dirs that could not be read, the
 *   roots (a pack added, removed or renamed anywhere changes every key);
 * - the settings that apply to the file (`--rule`, its config's rules) and which rules run;
 * - every file under the pack's dir (names, types, modes, bytes; a link's text and the bytes it
 *   leads to), its entry's path and bytes wherever it lies, and what the loader built.
 *
 * Rules that look past the pack are never kept: they run every time (LIVE below: the manager's
 * and the run's rules read the machine and the other packs, confusable-tool the packs before,
 * ShellCheck keeps its own results). A SKILL.md, a file that was not read and a pack too large to
 * key (KEY_MAX_*) are checked every time. The reports go through the same steps as fresh ones, so
 * the output is the same byte for byte.
 */
import { createHash, type Hash } from 'node:crypto'
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  readlinkSync,
  readSync,
  statSync,
} from 'node:fs'
import { fileURLToPath } from 'node:url'
import { readCacheFile, writeCacheFile } from '../cache/store.js'
import { toBuffer } from '../go/gostring.js'
import { dir } from '../go/path/filepath/path.js'
import { packageVersion } from '../package-root.js'
import type { Release } from '../releases/release.js'
import { type Context, ManifestContext } from './context.js'
import type { KeptPack, ReportCache } from './engine.js'
import type { Targets } from './targets.js'
import type { Report, Rule } from './types.js'

/** Bump when what is kept, or how it is keyed, changes. */
const FORMAT = 2
/** The cache file is not read past this size. */
export const CACHE_MAX_BYTES = 256 * 1024 * 1024
/** A pack with more files, or more bytes, than this is not kept (keying it would cost its check). */
const KEY_MAX_FILES = 2000
const KEY_MAX_BYTES = 64 * 1024 * 1024
const KEY_MAX_DEPTH = 16

/**
 * Rules that run every time, whatever is kept: the families whose rules read more than the pack's
 * own files (the registry of earlier packs, the machine), and each rule that says so itself
 * (Rule.readsBeyondPack).
 */
const LIVE_PREFIXES = ['manager/', 'run/', 'native/', 'input/']

/** Whether a rule's reports may be kept: it reads only the pack (LIVE_PREFIXES, Rule.readsBeyondPack). */
export function keptRule(rule: Pick<Rule<Context>, 'id' | 'readsBeyondPack'>): boolean {
  return rule.readsBeyondPack === undefined && !LIVE_PREFIXES.some((p) => rule.id.startsWith(p))
}

/** Each kept rule's reports; null: the rule could not check the file (it asked for a read that is missing). */
type Stored = Record<string, Report[] | null>

/**
 * The code this runs as: the version, and this module's file (in the bundle, the bundle itself),
 * by size and time, so that a rebuilt program never trusts an older one's reports.
 */
function programId(): string {
  let file = ''
  try {
    const st = statSync(fileURLToPath(import.meta.url))
    file = `${st.size} ${st.mtimeMs} ${st.ino}`
  } catch {}
  return `${packageVersion()} ${file}`
}

export interface LintCacheOptions {
  /** The cache's dir (store.ts cacheDir: checked to be the user's own). */
  dir: string
  /** What names this cache's file: the working dir and the PATHs (one file per way of running). */
  scope: string
  /** This program (default: its version and code file); tests give another. */
  program?: string
}

/** A cache file: reports by pack key. */
export class LintCache implements ReportCache {
  private readonly file: string
  private readonly old: Map<string, Stored>
  private readonly now = new Map<string, Stored>()
  private run = ''
  private changed = false
  /** Packs answered from the cache, and packs checked and kept (for tests and the bench). */
  hits = 0
  misses = 0

  constructor(private readonly opts: LintCacheOptions) {
    this.file = `lint-${createHash('sha256').update(opts.scope).digest('hex').slice(0, 32)}.json`
    this.old = load(readCacheFile(opts.dir, this.file, CACHE_MAX_BYTES))
  }

  begin({ targets, release }: { targets: Targets; release: Release }): void {
    // Hashed once: every pack's key starts with it.
    this.run = createHash('sha256')
      .update(
        JSON.stringify([
          FORMAT,
          this.opts.program ?? programId(),
          release.version,
          targets.files.map((t) => [t.kind, t.path, t.root]),
          targets.walkErrors.map((w) => [w.path, w.err?.error() ?? null]),
          targets.roots.map((r) => [r.path, r.assumed]),
          [...targets.leftOut],
        ]),
      )
      .digest('hex')
  }

  pack(ctx: Context, active: readonly Rule<Context>[], settings: string): KeptPack | null {
    if (!(ctx instanceof ManifestContext) || ctx.skipped !== null || ctx.parsed === null) return null
    const ids = active.filter(keptRule).map((r) => r.id)
    const h = createHash('sha256').update(this.run).update('\0').update(settings).update('\0')
    h.update(JSON.stringify([ids, ctx.path, ctx.root, buildKey(ctx)]))
    if (!hashPack(h, ctx)) return null
    const key = h.digest('hex')
    const found = this.old.get(key)
    const complete = found !== undefined && ids.every((id) => found[id] === null || Array.isArray(found[id]))
    if (complete) {
      this.hits++
      this.now.set(key, found)
    } else this.misses++
    const stored = new Map(complete ? ids.map((id) => [id, found[id]]) : [])
    return {
      stored: (id) => stored.get(id),
      keep: (reports) => {
        if (complete) return
        const out: Stored = {}
        for (const [rule, got] of reports)
          if (keptRule(rule)) out[rule.id] = got === null ? null : got.slice()
        // Kept as JSON now: what later steps do to the reports' objects is not kept.
        this.now.set(key, JSON.parse(JSON.stringify(out)) as Stored)
        this.changed = true
      },
    }
  }

  /** Writes the file when anything was added or left out: the packs of this run, no others. */
  save(): void {
    if (!this.changed && this.now.size === this.old.size) return
    writeCacheFile(
      this.opts.dir,
      this.file,
      JSON.stringify({ format: FORMAT, packs: Object.fromEntries(this.now) }),
    )
  }
}

/** A cache file's packs; none when it is missing, of another format or not what this writes. */
function load(data: Buffer | null): Map<string, Stored> {
  const out = new Map<string, Stored>()
  if (data === null) return out
  try {
    const doc = JSON.parse(data.toString('utf8')) as { format?: unknown; packs?: unknown }
    if (doc.format !== FORMAT || doc.packs === null || typeof doc.packs !== 'object') return out
    for (const [key, stored] of Object.entries(doc.packs as Record<string, unknown>)) {
      if (stored === null || typeof stored !== 'object') continue
      if (!Object.values(stored).every((v) => v === null || (Array.isArray(v) && v.every(isReport)))) continue
      out.set(key, stored as Stored)
    }
  } catch {}
  return out
}

const isReport = (r: unknown): r is Report =>
  r !== null &&
  typeof r === 'object' &&
  typeof (r as Report).message === 'string' &&
  ((r as Report).at === null || Number.isInteger((r as Report).at))

/** What the loader built, as far as the kept rules read it. */
function buildKey(ctx: ManifestContext): unknown {
  const b = ctx.build
  if (b === null) return null
  if (!b.ok) return ['err', b.err.error()]
  const s = b.value
  return ['ok', s.key, s.entry, s.class, s.category, s.description, s.schema, s.envAllow, String(s.timeoutNs)]
}

/**
 * Every file under the pack's dir into `h` (sorted by name; types and modes from lstat; a file's
 * bytes, a link's text and the bytes of the file it leads to), then the entry's path and bytes.
 * False when the pack is too large to key (then it is not kept).
 */
function hashPack(h: Hash, ctx: ManifestContext): boolean {
  const budget = { files: KEY_MAX_FILES, bytes: KEY_MAX_BYTES }
  const slash = Buffer.from('/')
  const walk = (d: Buffer, depth: number): boolean => {
    let names: Buffer[]
    try {
      names = readdirSync(d, { encoding: 'buffer' })
    } catch (e) {
      h.update(`!${(e as NodeJS.ErrnoException).code}\0`)
      return true
    }
    for (const name of names.sort(Buffer.compare)) {
      if (--budget.files < 0) return false
      const p = Buffer.concat([d, slash, name])
      h.update(name).update('\0')
      let st: import('node:fs').Stats
      try {
        st = lstatSync(p)
      } catch (e) {
        h.update(`!${(e as NodeJS.ErrnoException).code}\0`)
        continue
      }
      h.update(`${st.mode}\0`)
      if (st.isDirectory()) {
        if (depth >= KEY_MAX_DEPTH || !walk(p, depth + 1)) return false
        h.update('/\0')
      } else if (st.isSymbolicLink()) {
        try {
          h.update(readlinkSync(p, { encoding: 'buffer' })).update('\0')
        } catch {}
        // A link to a dir: what lies below it is not keyed, so the pack is not kept.
        if (!fileBytes(h, p, budget, false)) return false
      } else if (st.isFile() && !fileBytes(h, p, budget)) return false
    }
    return true
  }
  if (!walk(toBuffer(dir(ctx.path)), 0)) return false
  const entry = ctx.skill?.entry
  h.update('entry\0')
  return entry === undefined || fileBytes(h, toBuffer(entry), budget)
}

/** A regular file's size and bytes (through links) into `h`; what it is, when not one. */
function fileBytes(h: Hash, path: Buffer, budget: { bytes: number }, dirs = true): boolean {
  let fd: number
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK)
  } catch (e) {
    h.update(`!${(e as NodeJS.ErrnoException).code}\0`)
    return true
  }
  try {
    const st = fstatSync(fd)
    if (!st.isFile()) {
      h.update(`!${st.mode}\0`)
      return dirs || !st.isDirectory()
    }
    budget.bytes -= st.size
    if (budget.bytes < 0) return false
    h.update(`${st.size}\0`)
    const buf = Buffer.allocUnsafe(Math.min(st.size, 1024 * 1024) || 1)
    for (let left = st.size; left > 0; ) {
      const n = readSync(fd, buf, 0, Math.min(buf.length, left), null)
      if (n === 0) break
      h.update(buf.subarray(0, n))
      left -= n
    }
    return true
  } catch (e) {
    h.update(`!${(e as NodeJS.ErrnoException).code}\0`)
    return true
  } finally {
    closeSync(fd)
  }
}
