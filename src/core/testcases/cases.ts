import { readdirSync, realpathSync, statSync } from 'node:fs'
import { dirname, join, resolve, sep } from 'node:path'
import { fromText } from '../go/gostring.js'
import { reasonText } from '../go/os/errors.js'
import { parseDuration } from '../go/time/duration.js'
import { jsonSyntaxText } from '../json-syntax.js'
import { stringify } from '../json-text.js'
import type { Overlay } from '../overlay.js'
import { readFileBounded } from '../read-bounded.js'
import { type EffectPattern, parseEffectPatterns } from '../trace/expect.js'

/**
 * A pack's table of cases: `<pack>/tests/*.json`, each file one case or an array of cases.
 * The shape is checked here (the runner and the lint rules share these checks); a case that
 * does not check out is not run, its problems are reported instead.
 */

export const CASE_KEYS = ['name', 'args', 'args_file', 'env', 'timeout', 'expect', 'snapshot'] as const
export const EXPECT_KEYS = [
  'ok',
  'result',
  'result_schema',
  'error',
  'timed_out',
  'stderr_contains',
  'max_duration_ms',
  'effects',
] as const

export type ErrorExpectation = { exact: string } | { match: string }

export interface Expect {
  ok?: boolean
  /** Present (even as null) when asserted. */
  result?: unknown
  hasResult: boolean
  resultSchema?: unknown
  error?: ErrorExpectation
  timedOut?: boolean
  stderrContains?: string
  maxDurationMs?: number
  /** The effects a traced run must have (core/trace/expect.ts): the case is then always traced. */
  effects?: EffectPattern[]
}

/** Whether a case expects the skill to succeed: `ok` when given, else no expected error or timeout. */
export function expectsSuccess(e: Expect): boolean {
  return e.ok ?? !(e.error !== undefined || e.timedOut === true)
}

export interface TestCase {
  name: string
  /** The case file (absolute) and the case's index in it (null: the file holds one case). */
  file: string
  index: number | null
  /** The line of the file the case starts on (1-based): where a failure points. */
  line: number
  /** JSON text sent on stdin; null when the case gives no args (the executor sends `{}`). */
  args: string | null
  /** The parsed args, when given (for the schema check of lint). */
  argsValue?: unknown
  /**
   * Over this process's environment, as the manager's own: the environment `env_allow`
   * picks from. null unsets a variable.
   */
  env: Record<string, string | null>
  /** Go duration text, or undefined. */
  timeout?: string
  expect: Expect
  snapshot: boolean
}

export interface CaseProblem {
  /** `unknown-key` for keys the format does not know; `shape` for everything else. */
  kind: 'shape' | 'unknown-key'
  file: string
  /** JSON pointer into the file ('' for the whole file). */
  pointer: string
  message: string
}

export interface CaseFile {
  file: string
  cases: TestCase[]
  problems: CaseProblem[]
  /** The file's parsed JSON (null when it did not parse). */
  json: unknown
  /** The file's text as read (null when unreadable): snapshots edit it in place. */
  text: string | null
}

/** The dir beside a pack's skill.json that holds its case files. */
export const TESTS_DIR = 'tests'

/** The case files of a pack dir, sorted by name; [] when there is no tests/ dir. */
export function caseFiles(packDir: string): string[] {
  const dir = join(packDir, TESTS_DIR)
  let names: string[]
  try {
    // Most packs have no tests/: asked without the exception readdirSync throws for it.
    if (statSync(dir, { throwIfNoEntry: false }) === undefined) return []
    names = readdirSync(dir, { withFileTypes: true })
      // tests/evals.json holds `eval`'s cases (core/agent/cases.ts), not these.
      .filter(
        (d) => (d.isFile() || d.isSymbolicLink()) && d.name.endsWith('.json') && d.name !== 'evals.json',
      )
      .map((d) => d.name)
  } catch {
    return []
  }
  return names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).map((n) => join(dir, n))
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * The most a case file (or the args_file it names) may hold: /dev/zero, /dev/urandom or a FIFO
 * in tests/ is a problem of that file, not a read for ever (a FIFO is not waited on either).
 */
export const MAX_CASE_FILE = 64 * 1024 * 1024

/** A case file's bytes, or args_file's: a regular file of at most MAX_CASE_FILE (or an editor's buffer). */
export function readCaseBytes(file: string, overlay?: Overlay): Buffer {
  return overlay?.get(fromText(file)) ?? readFileBounded(file, MAX_CASE_FILE, { regularOnly: true })
}

/**
 * Where a file a case file names really is, when that is outside the pack (`<pack>/tests/x.json`'s
 * `<pack>`); null inside it, or when either cannot be resolved (the read then says why). Case
 * files are ours, not the manager's: a symlink out of the pack (`/proc/self/environ`, a key) is
 * never read, so nothing of it reaches a finding, an annotation or an entry's stdin.
 */
export function outsidePack(path: string, caseFile: string): string | null {
  let real: string
  let pack: string
  try {
    real = realpathSync(path)
    pack = realpathSync(dirname(dirname(caseFile)))
  } catch {
    return null
  }
  return real === pack || real.startsWith(pack.endsWith(sep) ? pack : pack + sep) ? null : real
}

/** Reads and checks one case file (an editor's buffer when `overlay` holds one). */
export function loadCaseFile(file: string, overlay?: Overlay): CaseFile {
  const unread = (message: string): CaseFile => ({
    file,
    cases: [],
    problems: [{ kind: 'shape', file, pointer: '', message }],
    json: null,
    text: null,
  })
  const out = outsidePack(file, file)
  if (out !== null) return unread(`not read: its real path ${out} is outside the pack`)
  let text: string
  try {
    text = readCaseBytes(file, overlay).toString('utf8')
  } catch (e) {
    return unread(`cannot read: ${reasonText(e)}`)
  }
  return parseCaseFile(file, text, overlay)
}

/** Checks the text of a case file (file names the case file: args_file is relative to it). */
export function parseCaseFile(file: string, text: string, overlay?: Overlay): CaseFile {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    // Go's words and a position, never V8's excerpt of the content.
    return {
      file,
      cases: [],
      problems: [
        { kind: 'shape', file, pointer: '', message: `not JSON: ${jsonSyntaxText(fromText(text))}` },
      ],
      json: null,
      text,
    }
  }
  const out: CaseFile = { file, cases: [], problems: [], json, text }
  const list = Array.isArray(json) ? json : [json]
  const lines = caseLines(text, Array.isArray(json))
  list.forEach((raw, i) => {
    const index = Array.isArray(json) ? i : null
    const c = checkCase(file, raw, index === null ? '' : `/${i}`, index, out.problems, overlay)
    if (c) out.cases.push({ ...c, line: lines[i] ?? 1 })
  })
  const seen = new Map<string, number>()
  out.cases.forEach((c) => {
    const n = seen.get(c.name) ?? 0
    seen.set(c.name, n + 1)
    if (n === 1) {
      out.problems.push({
        kind: 'shape',
        file,
        pointer: c.index === null ? '/name' : `/${c.index}/name`,
        message: `case name ${JSON.stringify(c.name)} is used more than once in this file`,
      })
    }
  })
  return out
}

/**
 * The line each case starts on, in the text of a case file JSON.parse accepted: the value's own
 * line for a file of one case, each top-level element's for an array.
 */
export function caseLines(text: string, array: boolean): number[] {
  const starts: number[] = []
  let line = 1
  let depth = 0
  let inString = false
  let awaiting = !array
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]
    if (inString) {
      if (ch === '\\') i++
      else if (ch === '"') inString = false
      continue
    }
    if (ch === '\n') {
      line++
      continue
    }
    if (ch === ' ' || ch === '\t' || ch === '\r') continue
    if (ch === ']' || ch === '}') {
      depth--
      awaiting = false
      continue
    }
    if (awaiting && depth === (array ? 1 : 0)) {
      starts.push(line)
      awaiting = false
    }
    if (ch === '"') inString = true
    else if (ch === '[' || ch === '{') {
      depth++
      if (array && depth === 1 && starts.length === 0) awaiting = true
    } else if (ch === ',' && array && depth === 1) awaiting = true
  }
  return starts
}

function checkCase(
  file: string,
  raw: unknown,
  at: string,
  index: number | null,
  problems: CaseProblem[],
  overlay: Overlay | undefined,
): Omit<TestCase, 'line'> | null {
  const before = problems.length
  const bad = (pointer: string, message: string, kind: CaseProblem['kind'] = 'shape') =>
    problems.push({ kind, file, pointer: at + pointer, message })
  if (!isObject(raw)) {
    bad('', 'a case must be a JSON object')
    return null
  }
  for (const k of Object.keys(raw)) {
    if (!(CASE_KEYS as readonly string[]).includes(k))
      bad(`/${k}`, `unknown key ${JSON.stringify(k)} (known: ${CASE_KEYS.join(', ')})`, 'unknown-key')
  }
  const name = raw.name
  if (typeof name !== 'string' || name === '') bad('/name', '`name` must be a non-empty string')
  let args: string | null = null
  let argsValue: unknown
  if ('args' in raw && 'args_file' in raw) bad('/args_file', 'give `args` or `args_file`, not both')
  else if ('args' in raw) {
    if (!isObject(raw.args)) bad('/args', '`args` must be a JSON object')
    else {
      argsValue = raw.args
      args = stringify(raw.args)
    }
  } else if ('args_file' in raw) {
    if (typeof raw.args_file !== 'string' || raw.args_file === '')
      bad('/args_file', '`args_file` must be a path')
    else {
      const p = resolve(dirname(file), raw.args_file)
      // Its bytes are the entry's stdin: the CLI's own environ is not the entry's (env_allow).
      const out = outsidePack(p, file)
      if (out !== null) bad('/args_file', `not read: ${raw.args_file}'s real path ${out} is outside the pack`)
      else
        try {
          args = readCaseBytes(p, overlay).toString('utf8')
          try {
            argsValue = JSON.parse(args)
          } catch {}
        } catch (e) {
          bad('/args_file', `cannot read ${raw.args_file}: ${reasonText(e)}`)
        }
    }
  }
  const env: Record<string, string | null> = {}
  if ('env' in raw) {
    if (!isObject(raw.env)) bad('/env', '`env` must be an object of strings (null unsets a variable)')
    else
      for (const [k, v] of Object.entries(raw.env)) {
        if (typeof v !== 'string' && v !== null)
          bad(`/env/${k}`, 'an env value must be a string, or null to unset it')
        else Object.defineProperty(env, k, { value: v, enumerable: true, writable: true, configurable: true })
      }
  }
  let timeout: string | undefined
  if ('timeout' in raw) {
    const d = typeof raw.timeout === 'string' ? parseDuration(fromText(raw.timeout)) : null
    if (d === null || !d.ok || d.value <= 0n)
      bad('/timeout', '`timeout` must be a Go duration > 0, such as "500ms", "5s" or "1m30s"')
    else timeout = raw.timeout as string
  }
  let snapshot = false
  if ('snapshot' in raw) {
    if (typeof raw.snapshot !== 'boolean') bad('/snapshot', '`snapshot` must be true or false')
    else snapshot = raw.snapshot
  }
  const expect: Expect = { hasResult: false }
  if (!('expect' in raw)) {
    if (!snapshot) bad('', 'a case needs `expect` (or `"snapshot": true`)')
  } else if (!isObject(raw.expect)) bad('/expect', '`expect` must be an object')
  else {
    const e = raw.expect
    for (const k of Object.keys(e)) {
      if (!(EXPECT_KEYS as readonly string[]).includes(k))
        bad(
          `/expect/${k}`,
          `unknown key ${JSON.stringify(k)} in expect (known: ${EXPECT_KEYS.join(', ')})`,
          'unknown-key',
        )
    }
    if ('ok' in e) {
      if (typeof e.ok !== 'boolean') bad('/expect/ok', '`ok` must be true or false')
      else expect.ok = e.ok
    }
    if ('result' in e) {
      expect.result = e.result
      expect.hasResult = true
    }
    if ('result_schema' in e) {
      if (!isObject(e.result_schema) && typeof e.result_schema !== 'boolean')
        bad('/expect/result_schema', '`result_schema` must be a JSON Schema (an object)')
      else expect.resultSchema = e.result_schema
    }
    if ('error' in e) {
      const v = e.error
      if (typeof v === 'string') expect.error = { exact: v }
      else if (isObject(v) && typeof v.match === 'string' && Object.keys(v).length === 1) {
        try {
          new RegExp(v.match, 'u')
          expect.error = { match: v.match }
        } catch (err) {
          bad('/expect/error/match', `not a regular expression: ${(err as Error).message}`)
        }
      } else bad('/expect/error', '`error` must be the error text, or {"match": "regex"}')
    }
    if ('timed_out' in e) {
      if (typeof e.timed_out !== 'boolean') bad('/expect/timed_out', '`timed_out` must be true or false')
      else expect.timedOut = e.timed_out
    }
    if ('stderr_contains' in e) {
      if (typeof e.stderr_contains !== 'string')
        bad('/expect/stderr_contains', '`stderr_contains` must be a string')
      else expect.stderrContains = e.stderr_contains
    }
    if ('max_duration_ms' in e) {
      const v = e.max_duration_ms
      if (typeof v !== 'number' || !(v > 0))
        bad('/expect/max_duration_ms', '`max_duration_ms` must be a number > 0')
      else expect.maxDurationMs = v
    }
    if ('effects' in e) {
      const r = parseEffectPatterns(e.effects)
      if ('problems' in r) for (const [at, m] of r.problems) bad(`/expect/effects${at}`, m)
      else expect.effects = r.patterns
    }
    if (expect.ok === true && (expect.error !== undefined || expect.timedOut === true))
      bad('/expect/ok', '`ok: true` contradicts an expected error or timeout')
    if (expect.ok === false && (expect.hasResult || expect.resultSchema !== undefined))
      bad('/expect/ok', '`ok: false` contradicts an expected result (a failed run has none)')
    if (!snapshot && Object.keys(e).length === 0) bad('/expect', '`expect` asserts nothing')
  }
  if (problems.length > before) return null
  return {
    name: name as string,
    file,
    index,
    args,
    argsValue,
    env,
    timeout,
    expect,
    snapshot,
  }
}
