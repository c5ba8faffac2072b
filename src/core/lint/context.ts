import type { KeyEvent } from '../go/encoding/json/decode.js'
import type { Result } from '../go/errors.js'
import type { GoString } from '../go/gostring.js'
import { stat } from '../go/os/file.js'
import { base } from '../go/path/filepath/path.js'
import type { JNode } from '../json-tree.js'
import { type BuildCache, buildSubprocessSkill, type SubprocessSkill } from '../loader/build.js'
import { type ParsedManifest, parseManifest } from '../loader/manifest.js'
import { DEVICE_CAP, type ManifestRead, readManifest } from '../loader/manifest-read.js'
import type { NotLoaded } from '../marketplace/load-all.js'
import type { NativeParse } from '../native/skill-md.js'
import type { Overlay } from '../overlay.js'
import { managerRelease, type Release } from '../releases/release.js'
import { goToJs, type SchemaVerdict } from '../schema/check.js'
import { type BridgeDecode, decodeBridgeSchema } from '../schema/go-any.js'
import { expectsSuccess } from '../testcases/cases.js'
import { type ToolDefinition, toolDefinition } from '../tool-def.js'
import { type EntryCache, type EntryProblem, entryProblem, envLookupProblem, newEntryCache } from './entry.js'
import { LineIndex } from './position.js'
import { casesOf } from './rule-kit/tests-util.js'
import type { Listing } from './targets.js'
import { type TolerantRead, tolerantRead } from './tolerant.js'

/** SKILL.md files larger than this are not read (one is a few KiB). */
export const MAX_FILE_BYTES = 16 * 1024 * 1024

/** Why a name is already taken when this pack would be registered. */
export type Taken = { by: 'builtin' } | { by: 'pack'; path: GoString }

/** A SKILL.md ongrid-skill refuses to read (too large, not a regular file): our words. */
export function skipReason(path: GoString): string | null {
  const s = stat(path)
  if (!s.ok) return null // the read reports it, in Go's words
  if (s.value.isDir()) return null
  if (!s.value.isRegular()) return 'not a regular file (a FIFO, socket or device): not read'
  if (s.value.size > MAX_FILE_BYTES) {
    return `${s.value.size} bytes: files over ${MAX_FILE_BYTES} bytes are not read`
  }
  return null
}

/** Why a manifest was not judged (our words; the manager's boot would block or never end). */
function manifestSkipReason(read: Exclude<ManifestRead, { kind: 'read' }>): string {
  switch (read.kind) {
    case 'fifo':
      return "a FIFO: the manager's boot blocks reading it until a writer opens it and closes it; not read"
    case 'endless':
      return `a device that does not end within ${DEVICE_CAP} bytes: the manager would read it forever (its boot never gets past it)`
    case 'too-large':
      return `${Number.isNaN(read.size) ? 'more' : `${read.size} bytes, more`} than ongrid-skill can hold in one piece: not read (the manager reads it)`
  }
}

export interface SchemaInfo {
  /** The key that set `schema` (Go keeps the last one). */
  key: KeyEvent
  /** The bridge's decode. */
  decode: BridgeDecode
  /** The parameters as the bridge would send them, as a JS value; null when the bridge drops the schema. */
  js: Record<string, unknown> | null
  /** The schema's own tree (file offsets); null when the top-level value is too deep to parse. */
  tree: JNode | null
}

/** Everything the rules look at for one skill.json. */
export class ManifestContext {
  readonly kind = 'manifest' as const
  /** Set when the file was not read (our reason). */
  readonly skipped: string | null
  readonly parsed: ParsedManifest | null
  readonly raw: GoString
  readonly lines: LineIndex
  private readonly built: Result<SubprocessSkill> | null
  /**
   * Set on the context of a tolerant read (tolerant.ts): what it took differently from the
   * manager. `parsed`, `raw` and the build are then of the repaired text, never the manager's view.
   */
  readonly tolerant: TolerantRead | null
  /**
   * Set when a rule asked for a part of the read the manager could not give (the decode, the
   * build): the rule did not check the file. The engine clears it before each rule.
   */
  missed = false
  private takenBy: Taken | null = null
  /** Set by the engine: the manager release the check answers for (default: the newest). */
  release: Release = managerRelease()
  /**
   * Set by the engine: the packs of the same set registered before this one (their tools go into
   * the same request), in walk order.
   */
  earlier: readonly ManifestContext[] = []
  private verdict: SchemaVerdict | null = null
  private args: ((args: unknown) => string[]) | null = null

  private toleratedCtx: ManifestContext | null | undefined
  private memo = new Map<string, unknown>()
  private loading = new Map<string, Promise<void>>()

  constructor(
    readonly path: GoString,
    readonly root: GoString,
    cache?: BuildCache,
    private readonly entryCache: EntryCache = newEntryCache(),
    /**
     * The walk's listing of the pack's dir, when it listed it (targets.ts): a skill.json listed as
     * a regular file is read without a stat first, as the loader reads it; no `tests` listed, no
     * case files looked for.
     */
    readonly listing?: Listing,
    /** Editors' buffers, read instead of the disk (the manifest, its case files). */
    readonly overlay?: Overlay,
    /** A tolerant read of the file, with the lines of the file itself, instead of reading it. */
    given?: { read: TolerantRead; lines: LineIndex },
  ) {
    if (given) {
      this.skipped = null
      this.tolerant = given.read
      this.parsed = given.read.parsed
      this.raw = this.parsed.raw ?? ''
      this.lines = given.lines
      this.built = buildSubprocessSkill(this.parsed.manifest, path, root, cache)
      return
    }
    this.tolerant = null
    // Read as the manager reads it, whatever its size (manifest-read.ts): a FIFO is not opened,
    // a device that does not end is not read to its end.
    const name = base(path)
    const listed = listing?.entries.find((e) => e[0] === name)?.[1] ?? null
    const read = readManifest(path, listed, overlay)
    this.skipped = read.kind === 'read' ? null : manifestSkipReason(read)
    this.parsed = read.kind === 'read' ? parseManifest(path, () => read.file) : null
    this.raw = this.parsed?.raw ?? ''
    this.lines = new LineIndex(this.raw)
    this.built =
      this.parsed && this.parsed.err === null
        ? buildSubprocessSkill(this.parsed.manifest, path, root, cache)
        : null
  }

  /**
   * The tolerant read of a file the manager refuses to decode, as a context of its own (null:
   * none, see tolerant.ts). Its rules see the repaired text; positions are the file's.
   */
  tolerantContext(cache?: BuildCache): ManifestContext | null {
    if (this.toleratedCtx !== undefined) return this.toleratedCtx
    const read = this.tolerant === null && this.parsed !== null ? tolerantRead(this.parsed) : null
    this.toleratedCtx =
      read === null
        ? null
        : new ManifestContext(this.path, this.root, cache, this.entryCache, this.listing, this.overlay, {
            read,
            lines: this.lines,
          })
    return this.toleratedCtx
  }

  /** Set by the engine: whether the name is taken when this pack would register (asked of a pack that builds). */
  get taken(): Taken | null {
    return this.skill ? this.takenBy : null
  }

  set taken(t: Taken | null) {
    this.takenBy = t
  }

  /** The tolerant read made by `tolerantContext()`, if it made one (null: none, or not asked). */
  get tolerated(): ManifestContext | null {
    return this.toleratedCtx ?? null
  }

  /** The loader's build (null when the file did not parse). */
  get build(): Result<SubprocessSkill> | null {
    if (this.built === null) this.missed = true
    return this.built
  }

  /** The loader only reads files named exactly skill.json. */
  get namedSkillJson(): boolean {
    return base(this.path) === 'skill.json'
  }

  get ok(): boolean {
    const ok = this.parsed !== null && this.parsed.err === null
    if (!ok) this.missed = true
    return ok
  }

  get skill(): SubprocessSkill | null {
    const b = this.build
    if (b?.ok) return b.value
    this.missed = true
    return null
  }

  /** The strict check of the schema, once `loadSchemaVerdict()` has run (null: no schema to check). */
  get schemaVerdict(): SchemaVerdict | null {
    return this.ok ? this.verdict : null
  }

  /** The params schema's check (problems, or [] when valid), once `loadArgsCheck()` has run. */
  get argsCheck(): ((args: unknown) => string[]) | null {
    return this.ok ? this.args : null
  }

  /**
   * Whether the read has a part (the decode, the build), recorded as asked for (`missed`) when it
   * has not: for a rule that reads what there is, memoized, and must say what it went without.
   */
  wants(part: 'decode' | 'build'): boolean {
    return part === 'decode' ? this.ok : this.skill !== null
  }

  /** The key event that set a field last (the value Go keeps). */
  lastKey(field: string): KeyEvent | undefined {
    const keys = this.parsed?.keys ?? []
    for (let i = keys.length - 1; i >= 0; i--) if (keys[i].field === field) return keys[i]
    return undefined
  }

  /** Offset of the key that set a field, or null (whole file). */
  keyAt(field: string): number | null {
    return this.lastKey(field)?.offset ?? null
  }

  private once<T>(name: string, f: () => T): T {
    if (this.memo.has(name)) return this.memo.get(name) as T
    const v = f()
    this.memo.set(name, v)
    return v
  }

  /** The first problem every run would hit, for a pack that builds. */
  entry(): EntryProblem | null {
    const skill = this.skill
    return skill ? this.once('entry', () => entryProblem(skill.key, skill.entry, this.entryCache)) : null
  }

  /** What `#!/usr/bin/env CMD` would make of the entry under the manager (envLookupProblem), or null. */
  envLookup(): string | null {
    const skill = this.skill
    return skill
      ? this.once('envLookup', () => envLookupProblem(skill.entry, skill.envAllow, this.entryCache))
      : null
  }

  private loadOnce(name: string, f: () => Promise<void>): Promise<void> {
    let p = this.loading.get(name)
    if (p === undefined) {
      p = f()
      this.loading.set(name, p)
    }
    return p
  }

  /** Sets `schemaVerdict`: the schema checked in strict mode (ajv, loaded here). */
  loadSchemaVerdict(): Promise<void> {
    return this.loadOnce('schemaVerdict', async () => {
      const js = this.schema()?.js
      if (!js) return
      const { checkSchema } = await import('../schema/check.js')
      this.verdict = await checkSchema(js)
    })
  }

  /**
   * Sets `argsCheck`, for packs that have cases to check: compiling costs a few ms per schema.
   * Only the args of cases that expect success are checked (tests/args-schema asks of no other).
   * Each case's args are checked with a time bound (a pattern that backtracks catastrophically
   * would stall lint for ever): args that take too long are left unchecked (schema/redos-pattern
   * names the pattern).
   */
  loadArgsCheck(): Promise<void> {
    return this.loadOnce('argsCheck', async () => {
      const cases = casesOf(this)
        .flatMap((c) => c.file.cases)
        .filter((tc) => expectsSuccess(tc.expect))
      const js = cases.length > 0 ? this.schema()?.js : undefined
      if (!js) return
      const { checkEachBounded, namesProto } = await import('../schema/bounded.js')
      // ajv cannot check a schema naming `__proto__` (it would call the key additional).
      if (namesProto(js)) return
      const values = cases.map((tc) => tc.argsValue ?? {})
      const verdicts = await checkEachBounded(js, values)
      if (verdicts.some((v) => v.kind === 'uncompiled')) return
      // Keyed by the case's args value (equal values get equal verdicts).
      const found = new Map<unknown, string[]>()
      for (const [i, verdict] of verdicts.entries()) {
        found.set(
          cases[i].argsValue,
          verdict.kind === 'invalid'
            ? verdict.issues.map((x) => `args${x.pointer === '/' ? '' : x.pointer}: ${x.message}`)
            : [],
        )
      }
      this.args = (v) => found.get(v) ?? []
    })
  }

  /** The manifest's schema as the bridge sees it; null when the manifest has no `schema` key. */
  schema(): SchemaInfo | null {
    // Asked on every call: a rule that needs the decode of a file that has none did not check it.
    if (!this.ok) return null
    return this.once('schema', () => {
      const key = this.lastKey('schema')
      if (!key) return null
      // Any depth Go's scanner let through (10000 levels): the tree and its walkers are iterative.
      const decode = decodeBridgeSchema(this.raw, key.valueOffset)
      if (!decode.ok) return { key, decode, js: null, tree: decode.tree }
      const base = decode.value ?? new Map()
      if (!base.has('type')) base.set('type', 'object')
      return { key, decode, js: goToJs(base) as Record<string, unknown>, tree: decode.tree }
    })
  }

  /** What the LLM bridge would make of this skill (null when it does not register). */
  tool(): ToolDefinition | null {
    const skill = this.skill
    if (!skill) return null
    return this.once('tool', () => {
      return toolDefinition(skill, this.raw, this.lastKey('schema')?.valueOffset ?? null)
    })
  }
}

/** Everything the rules look at for one SKILL.md. */
export class NativeContext {
  readonly kind = 'native' as const
  readonly lines: LineIndex

  constructor(
    readonly path: GoString,
    readonly root: GoString,
    readonly skipped: string | null,
    readonly raw: GoString,
    readonly parse: NativeParse | null,
    /** Why the chat runtime's walk never parses this file (then `parse` is null), else null. */
    readonly notLoaded: NotLoaded | null = null,
  ) {
    this.lines = new LineIndex(raw)
  }
}

export type Context = ManifestContext | NativeContext
