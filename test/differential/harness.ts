/**
 * The differential harness: runs the stdlib-only Go program in ./go (built once
 * into build/differential/harness) and asks it, over JSON lines, what real Go
 * does, so the tests can compare our emulation in src/core/go with Go itself.
 *
 * Byte strings (GoString) travel base64-encoded both ways.
 *
 * Run: npx tsc -p tsconfig.test.json && node --test build/test/differential/
 * Reproduce a run: DIFF_SEED=<seed printed by the failing file> node --test build/test/differential/<file>.test.js
 * Without Go the tests skip; with ONGRID_REQUIRE_GO=1 (CI) they fail instead.
 */
import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { isDeepStrictEqual } from 'node:util'
import type { GoString } from '../../src/core/go/gostring.js'

export const GO_MISSING = 'go not found: apt-get install golang-go to run the differential tests'

/**
 * Local modules a harness's go.mod takes from the machine (`replace M => /abs/dir`, Debian's
 * packaged sources) that are not there: one line saying what to install, or null when all are.
 * Go is found but cannot build without them (`apt-get install golang-go` alone does not bring them).
 */
export function missingGoModules(goMod: string): string | null {
  const PACKAGES: Record<string, string> = { 'gopkg.in/yaml.v3': 'golang-gopkg-yaml.v3-dev' }
  for (const line of goMod.split('\n')) {
    const m = /^\s*replace\s+(\S+)\s*=>\s*(\/\S*)\s*$/.exec(line)
    if (m === null || existsSync(path.join(m[2], 'go.mod'))) continue
    const pkg = PACKAGES[m[1]]
    return `${m[1]} not found at ${m[2]}: ${pkg ? `apt-get install ${pkg}` : 'install it'} to run these differential tests`
  }
  return null
}

/** Set (to 1) in CI: a missing Go toolchain fails the differential tests instead of skipping them. */
export const REQUIRE_GO = process.env.ONGRID_REQUIRE_GO === '1'

const MODULE_DIR = path.dirname(fileURLToPath(import.meta.url))

function isRepoRoot(dir: string): boolean {
  return (
    existsSync(path.join(dir, 'package.json')) && existsSync(path.join(dir, 'test', 'differential', 'go'))
  )
}

/** The repository: above this compiled module (build/test/differential/), else the working directory. */
function findRepoRoot(): string {
  for (let dir = MODULE_DIR; ; ) {
    if (isRepoRoot(dir)) return dir
    const up = path.dirname(dir)
    if (up === dir) break
    dir = up
  }
  if (isRepoRoot(process.cwd())) return process.cwd()
  throw new Error('differential harness: cannot find the repository root (run from it)')
}

export const REPO_ROOT = findRepoRoot()
const GO_SRC = path.join(REPO_ROOT, 'test', 'differential', 'go')
/** <out>/differential beside <out>/test/differential/ where this module is compiled: build/differential. */
const OUT_DIR = path.resolve(MODULE_DIR, '..', '..', 'differential')
const BINARY = path.join(OUT_DIR, 'harness')

/**
 * A second Go toolchain, newer than the harness's (Debian's 1.19), for what 1.19 lacks: the
 * manager is built with 1.25, and exec.Cmd.WaitDelay came in 1.20. ONGRID_GO_NEWER names its
 * `go` binary (CI: bookworm-backports' /usr/lib/go-1.23/bin/go); with ONGRID_REQUIRE_GO_NEWER=1 a
 * case that needs it fails instead of being skipped.
 */
export const GO_NEWER = process.env.ONGRID_GO_NEWER || null
export const REQUIRE_GO_NEWER = process.env.ONGRID_REQUIRE_GO_NEWER === '1'
const NEWER_BINARY = path.join(OUT_DIR, 'harness-newer')

/** base64 of a byte string, and back. */
export function b64(b: GoString): string {
  // A char above 0xff would be silently truncated by latin1: a bug in the test's inputs.
  if (/[^\x00-\xff]/.test(b)) throw new Error(`not a byte string: ${JSON.stringify(b.slice(0, 80))}`)
  return Buffer.from(b, 'latin1').toString('base64')
}
export const unb64 = (s: string): GoString => Buffer.from(s, 'base64').toString('latin1')
export const unb64OrNull = (s: string | null | undefined): GoString | null =>
  s === null || s === undefined ? null : unb64(s)

function newestSource(dir: string): number {
  let newest = 0
  for (const ent of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, ent.name)
    if (ent.isDirectory()) newest = Math.max(newest, newestSource(p))
    else if (ent.name.endsWith('.go') || ent.name === 'go.mod') newest = Math.max(newest, statSync(p).mtimeMs)
  }
  return newest
}

function goEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    GOFLAGS: '-mod=mod',
    GOPROXY: 'off',
    GOTOOLCHAIN: 'local',
    GOWORK: 'off',
  }
  // Go needs a build cache; without a home directory to put it in, keep it under build/.
  if (!env.GOCACHE && !env.HOME && !env.XDG_CACHE_HOME) env.GOCACHE = path.join(OUT_DIR, 'gocache')
  return env
}

/** Builds the Go program unless the binary is newer than its sources. Throws with Go's output on failure. */
function buildHarness(go = 'go', binary = BINARY): void {
  if (existsSync(binary) && statSync(binary).mtimeMs >= newestSource(GO_SRC)) return
  mkdirSync(OUT_DIR, { recursive: true })
  // Test files may run in parallel processes: build to a private name, then rename into place.
  const tmp = `${binary}.${process.pid}.tmp`
  const res = spawnSync(go, ['build', '-o', tmp, './'], { cwd: GO_SRC, env: goEnv(), encoding: 'utf8' })
  if (res.status !== 0) {
    rmSync(tmp, { force: true })
    throw new Error(`building the Go differential harness failed:\n${res.stderr}${res.error ?? ''}`)
  }
  renameSync(tmp, binary)
}

function goAvailable(go = 'go'): boolean {
  const res = spawnSync(go, ['version'], { env: goEnv(), encoding: 'utf8' })
  return !res.error && res.status === 0
}

// biome-ignore lint/suspicious/noExplicitAny: responses are loosely typed JSON
export type Resp = Record<string, any>
export type Req = { op: string } & Record<string, unknown>

/** One running Go harness process; requests are answered in order. */
export class GoHarness {
  private readonly proc: ChildProcessWithoutNullStreams
  // A FIFO of callers awaiting a response: waiting[head] is next (shift() is O(n)).
  private waiting: { resolve: (r: Resp) => void; reject: (e: Error) => void }[] = []
  private head = 0
  private partial = ''
  private stderr = ''
  private dead: Error | null = null
  /** runtime.Version(), e.g. "go1.19.8", and unicode.Version, e.g. "13.0.0". */
  goVersion = ''
  unicodeVersion = ''

  /** Starts the (already built) harness; `cwd` and `env` default to this process's. */
  constructor(opts: { cwd?: string; env?: NodeJS.ProcessEnv; binary?: string } = {}) {
    this.proc = spawn(opts.binary ?? BINARY, [], {
      stdio: ['pipe', 'pipe', 'pipe'],
      cwd: opts.cwd,
      env: opts.env,
    })
    this.proc.stdout.setEncoding('utf8')
    this.proc.stdout.on('data', (chunk: string) => this.onData(chunk))
    this.proc.stderr.setEncoding('utf8')
    this.proc.stderr.on('data', (chunk: string) => {
      this.stderr += chunk
    })
    this.proc.on('error', (e) => this.die(e))
    this.proc.on('exit', (code, signal) => {
      if (this.head < this.waiting.length)
        this.die(new Error(`Go harness exited (${code ?? signal}): ${this.stderr}`))
    })
    this.proc.stdin.on('error', (e) => this.die(e))
  }

  private die(e: Error): void {
    this.dead = e
    const pending = this.waiting.slice(this.head)
    this.waiting = []
    this.head = 0
    for (const w of pending) w.reject(e)
  }

  private onData(chunk: string): void {
    this.partial += chunk
    let nl = this.partial.indexOf('\n')
    let start = 0
    while (nl !== -1) {
      const line = this.partial.slice(start, nl)
      start = nl + 1
      const w = this.head < this.waiting.length ? this.waiting[this.head++] : undefined
      if (this.head === this.waiting.length) {
        this.waiting = []
        this.head = 0
      }
      if (!w) {
        this.die(new Error(`Go harness: unexpected output ${line.slice(0, 200)}`))
        return
      }
      const resp = JSON.parse(line) as Resp
      if (resp.fatal) w.reject(new Error(`Go harness: ${resp.fatal}`))
      else w.resolve(resp)
      nl = this.partial.indexOf('\n', start)
    }
    this.partial = this.partial.slice(start)
  }

  /** Sends a batch of requests at once; resolves with the responses in the same order. */
  call(reqs: Req[]): Promise<Resp[]> {
    if (this.dead) return Promise.reject(this.dead)
    const promises = reqs.map(
      () => new Promise<Resp>((resolve, reject) => this.waiting.push({ resolve, reject })),
    )
    let text = ''
    for (const r of reqs) text += `${JSON.stringify(r)}\n`
    this.proc.stdin.write(text)
    return Promise.all(promises)
  }

  async one(req: Req): Promise<Resp> {
    return (await this.call([req]))[0]
  }

  /** The Go release's minor version (19 for go1.19.8); 0 when unknown (a devel build). */
  get goMinor(): number {
    const m = /^go1\.(\d+)/.exec(this.goVersion)
    return m ? Number(m[1]) : 0
  }

  close(): void {
    this.proc.stdin.end()
  }
}

let shared: Promise<GoHarness | null> | null = null

/** Starts a built harness and asks it which Go (and Unicode) it was built with. */
async function startHarness(binary: string): Promise<GoHarness> {
  const h = new GoHarness({ binary })
  const v = await h.one({ op: 'version' })
  h.goVersion = v.go
  h.unicodeVersion = v.unicode
  return h
}

/**
 * The harness for this test file (built and started on first use), or null when Go
 * is missing and not required. Throws when Go is required (ONGRID_REQUIRE_GO=1) but
 * missing, or when the build fails.
 */
export function getHarness(): Promise<GoHarness | null> {
  if (!shared) {
    shared = (async () => {
      if (!goAvailable()) {
        if (REQUIRE_GO) throw new Error(`${GO_MISSING} (ONGRID_REQUIRE_GO=1)`)
        return null
      }
      buildHarness()
      return startHarness(BINARY)
    })()
  }
  return shared
}

let newer: Promise<GoHarness | null> | null = null

/**
 * The harness built with ONGRID_GO_NEWER's toolchain (see GO_NEWER), shared by the file; null
 * when the variable is unset (a failure instead with ONGRID_REQUIRE_GO_NEWER=1).
 */
export function getNewerHarness(): Promise<GoHarness | null> {
  if (!newer) {
    newer = (async () => {
      if (GO_NEWER === null || !goAvailable(GO_NEWER)) {
        if (REQUIRE_GO_NEWER)
          throw new Error(
            `ONGRID_GO_NEWER (${GO_NEWER ?? 'unset'}) names no working go (ONGRID_REQUIRE_GO_NEWER=1)`,
          )
        return null
      }
      buildHarness(GO_NEWER, NEWER_BINARY)
      return startHarness(NEWER_BINARY)
    })()
  }
  return newer
}

/** Stops this file's harness processes, if any were started. */
export async function closeHarness(): Promise<void> {
  for (const p of [shared, newer]) {
    if (!p) continue
    const h = await p.catch(() => null)
    h?.close()
  }
}

// ---------------------------------------------------------------------------
// Seeds

function randomSeed(): number {
  return (Date.now() ^ (process.pid << 16) ^ Math.floor(Math.random() * 0x100000000)) >>> 0
}

/** The run's base seed: DIFF_SEED when set (decimal or 0x-hex), else time-based. */
export const BASE_SEED: number = (() => {
  const env = process.env.DIFF_SEED
  if (env !== undefined && env !== '') {
    const n = Number(env)
    if (!Number.isInteger(n) || n < 0) throw new Error(`DIFF_SEED must be a non-negative integer, got ${env}`)
    return n >>> 0
  }
  return randomSeed()
})()

/** A per-category seed derived from the base seed, so each category reproduces on its own. */
export function seedFor(category: string): number {
  let h = (BASE_SEED ^ 0x9e3779b9) >>> 0
  for (let i = 0; i < category.length; i++) {
    h = Math.imul(h ^ category.charCodeAt(i), 0x01000193) >>> 0
  }
  return (h ^ (h >>> 15)) >>> 0
}

export const REPRODUCE = `DIFF_SEED=${BASE_SEED}`

// ---------------------------------------------------------------------------
// Display and mismatch collection

/** A byte string shown Go-style: printable ASCII as is, everything else escaped. */
export function show(b: GoString, max = 400): string {
  let out = '"'
  const n = Math.min(b.length, max)
  for (let i = 0; i < n; i++) {
    const c = b.charCodeAt(i)
    if (c === 0x22) out += '\\"'
    else if (c === 0x5c) out += '\\\\'
    else if (c === 0x0a) out += '\\n'
    else if (c === 0x09) out += '\\t'
    else if (c === 0x0d) out += '\\r'
    else if (c >= 0x20 && c < 0x7f) out += b[i]
    else if (c <= 0xff) out += `\\x${c.toString(16).padStart(2, '0')}`
    else out += `\\u{${c.toString(16)}}` // not a byte string: shows the bug plainly
  }
  out += '"'
  if (b.length > max) out += `…(${b.length} bytes)`
  return out
}

/** Any value with its strings shown as byte strings; cut at about `max` characters. */
export function showValue(v: unknown, max = 1200): string {
  const out = showFull(v)
  return out.length > max ? `${out.slice(0, max)}…` : out
}

function showFull(v: unknown): string {
  if (typeof v === 'string') return show(v)
  if (typeof v === 'bigint') return `${v}n`
  if (v === null || v === undefined || typeof v !== 'object') return String(v)
  if (Array.isArray(v)) return `[${v.map(showFull).join(', ')}]`
  return `{${Object.entries(v as Record<string, unknown>)
    .map(([k, x]) => `${k}: ${showFull(x)}`)
    .join(', ')}}`
}

/** Where two values first differ: a path like `.events[12].mode` with both sides there, or null. */
export function firstDifference(a: unknown, b: unknown, at = ''): [string, unknown, unknown] | null {
  if (isDeepStrictEqual(a, b)) return null
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      if (i >= a.length || i >= b.length) return [`${at}.length`, a.length, b.length]
      const d = firstDifference(a[i], b[i], `${at}[${i}]`)
      if (d) return d
    }
  }
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)])
    for (const k of keys) {
      const d = firstDifference(
        (a as Record<string, unknown>)[k],
        (b as Record<string, unknown>)[k],
        `${at}.${k}`,
      )
      if (d) return d
    }
  }
  return [at || '(value)', a, b]
}

/**
 * Collects mismatches of one category: counts them all, keeps the first `limit`
 * for the failure message.
 */
export class Mismatches {
  count = 0
  checked = 0
  tolerated = 0
  readonly shown: string[] = []

  constructor(
    readonly category: string,
    readonly limit = 10,
  ) {}

  /** Compares Go's answer with ours (deep strict equality); records a mismatch. */
  check(input: string, goOut: unknown, tsOut: unknown): boolean {
    this.checked++
    if (isDeepStrictEqual(goOut, tsOut)) return true
    this.add(input, goOut, tsOut)
    return false
  }

  add(input: string, goOut: unknown, tsOut: unknown): void {
    this.count++
    if (this.shown.length < this.limit) {
      let msg = `input: ${input}\n      go: ${showValue(goOut)}\n      ts: ${showValue(tsOut)}`
      const d = firstDifference(goOut, tsOut)
      if (d && d[0] !== '(value)')
        msg += `\n      first difference at ${d[0]}: go ${showValue(d[1], 300)}, ts ${showValue(d[2], 300)}`
      this.shown.push(msg)
    }
  }

  /** Examples of tolerated differences, for the summary. */
  readonly toleratedShown: string[] = []

  /** Counts a known, accepted difference (e.g. Go 1.19 vs 1.25 Unicode tables); `example` describes it. */
  tolerate(example?: string): void {
    this.checked++
    this.tolerated++
    if (example !== undefined && this.toleratedShown.length < 3) this.toleratedShown.push(example)
  }

  /** A summary line (or a few) for t.diagnostic. */
  summary(): string {
    let s = `${this.category}: ${this.checked} compared, ${this.count} mismatches, ${this.tolerated} tolerated`
    for (const e of this.toleratedShown) s += `\n  tolerated: ${e}`
    return s
  }

  /** Throws an assertion-style error listing the first mismatches, if there were any. */
  assertNone(): void {
    if (this.count === 0) return
    const more = this.count > this.shown.length ? `\n  … and ${this.count - this.shown.length} more` : ''
    const err = new Error(
      `${this.category}: ${this.count} of ${this.checked} differ from Go (reproduce with ${REPRODUCE})\n  ` +
        this.shown.join('\n  ') +
        more,
    )
    err.name = 'DifferentialMismatch'
    throw err
  }
}

/**
 * Reports each category's summary as diagnostics, then fails (once, listing every
 * category's first mismatches) if any category had a mismatch.
 */
export function finish(t: { diagnostic(msg: string): void }, categories: Mismatches[]): void {
  for (const m of categories) for (const line of m.summary().split('\n')) t.diagnostic(line)
  const failures: string[] = []
  for (const m of categories) {
    try {
      m.assertNone()
    } catch (e) {
      failures.push((e as Error).message)
    }
  }
  if (failures.length === 1) throw new Error(failures[0])
  if (failures.length > 1) throw new Error(failures.join('\n\n'))
}

/** Runs fn(item) and turns a throw into a value, so a crash on one input is a mismatch, not an abort. */
export function capture<T>(fn: () => T): T | { threw: string } {
  try {
    return fn()
  } catch (e) {
    return { threw: e instanceof Error ? `${e.name}: ${e.message}` : String(e) }
  }
}
