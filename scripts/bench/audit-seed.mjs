#!/usr/bin/env node
// A SQLite file with the manager's skill_executions table (and its indexes) holding N rows, for
// the `audit-tail-1m` bench figure. Deterministic from a seed, generated in one transaction with
// one prepared statement (about 10 s for 1,000,000 rows), and cached: a file whose `.done` marker
// is missing (an interrupted run) is rebuilt.
//
//   node scripts/bench/audit-seed.mjs [--rows N] [--seed S] [--dir DIR] [--regen]
//   prints the path of the file
//
// From the bench:  import { checkAuditTail, seedAuditDb } from './bench/audit-seed.mjs' (both synchronous)
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
/** Bump when the generated content changes, so cached files are rebuilt. */
const VERSION = 1

// The manager's DDL for SQLite, from the built CLI (src/core/audit/local-store.ts): the same text the
// local store and the tests use. The bench measures dist/ anyway; without it, seeding says so.
const built = join(REPO, 'dist', 'core', 'audit', 'local-store.js')
const DDL = existsSync(built) ? (await import(pathToFileURL(built).href)).SKILL_EXECUTIONS_DDL : null

const SKILLS = [
  'disk_usage',
  'host_probe_http',
  'restart_nginx',
  'web_search',
  'log_grep',
  'dns_lookup',
  'cert_expiry',
]
const ROLES = ['admin', 'user', 'system', 'viewer', 'local']

/** mulberry32 */
function rng(seed) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** The manager's SQLite time text: `2006-01-02 15:04:05.999999999+00:00`, trailing zeros trimmed. */
function sqliteTime(ms, nanos) {
  const iso = new Date(ms).toISOString()
  let s = `${iso.slice(0, 10)} ${iso.slice(11, 19)}`
  const frac = (ms % 1000) * 1_000_000 + nanos
  if (frac !== 0) s += `.${String(frac).padStart(9, '0').replace(/0+$/, '')}`
  return `${s}+00:00`
}

/**
 * Returns { path, rows, generated, ms }: `dir`/skill-executions-<rows>-<seed>-v<VERSION>.db.
 */
export function seedAuditDb({
  dir = join(REPO, '.bench', 'audit'),
  rows = 1_000_000,
  seed = 1,
  regen = false,
} = {}) {
  const path = join(dir, `skill-executions-${rows}-${seed}-v${VERSION}.db`)
  const done = `${path}.done`
  if (!regen && existsSync(path) && existsSync(done)) return { path, rows, generated: false, ms: 0 }
  const t0 = Date.now()
  mkdirSync(dir, { recursive: true })
  for (const p of [path, `${path}-wal`, `${path}-shm`, done]) rmSync(p, { force: true })
  // Synchronous (the bench's prepare steps are): Node's own SQLite, as the audit store uses.
  const { DatabaseSync } = createRequire(import.meta.url)('node:sqlite')
  const db = new DatabaseSync(path)
  // No journal while loading (a throwaway file); WAL at the end, as the manager keeps it.
  db.exec('PRAGMA journal_mode = OFF')
  db.exec('PRAGMA synchronous = OFF')
  // The table first, its indexes after the rows: building an index once is faster than
  // maintaining it through a million inserts. The result is the same file layout-wise.
  if (DDL === null) throw new Error(`${built} is missing: run npm run build first`)
  const [table, ...indexes] = DDL.split(';\n')
  db.exec(table)
  const insert = db.prepare(
    `INSERT INTO skill_executions (skill_key, edge_id, caller_id, caller_role, class, params_json, result_json, error, started_at, finished_at, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  )
  const r = rng(seed)
  const start = Date.UTC(2026, 0, 1)
  db.exec('BEGIN')
  for (let i = 0; i < rows; i++) {
    const skill = SKILLS[Math.floor(r() * SKILLS.length)]
    const at = start + i * 2000 + Math.floor(r() * 1000)
    const took = Math.floor(r() * 3000)
    const nanos = Math.floor(r() * 1_000_000)
    const fate = r()
    const error =
      fate < 0.03
        ? `subprocess skill ${skill}: timed out after 30s`
        : fate < 0.1
          ? `subprocess skill ${skill}: exit 1 (stderr: ${'x'.repeat(Math.floor(r() * 80))})`
          : ''
    const ended = sqliteTime(at + took, nanos)
    insert.run(
      skill,
      Math.floor(r() * 8),
      Math.floor(r() * 50),
      ROLES[Math.floor(r() * ROLES.length)],
      skill === 'restart_nginx' ? 'mutating' : 'safe',
      `{"path":"/var/log/${i % 97}","limit":${i % 13}}`,
      error === '' ? `{"used":${Math.floor(r() * 1e9)},"ok":true}\n` : '',
      error,
      sqliteTime(at, Math.floor(r() * 1_000_000)),
      ended,
      ended,
    )
  }
  db.exec('COMMIT')
  db.exec(indexes.join(';\n'))
  db.exec('PRAGMA journal_mode = WAL')
  db.close()
  writeFileSync(done, `${rows}\n`)
  return { path, rows, generated: true, ms: Date.now() - t0 }
}

/**
 * The bench figure's output check: `audit tail -n N --json` over the seeded file prints the
 * last N ids, oldest first, one JSON object per line. Returns null or what is wrong.
 */
export function checkAuditTail(stdoutPath, rows, n) {
  const lines = readFileSync(stdoutPath, 'utf8').split('\n')
  if (lines.pop() !== '') return 'output does not end with a newline'
  // The rows, then the closing document (schemas/output/audit-tail.schema.json).
  const last = lines.pop() ?? ''
  if (!last.includes('"command":"audit tail"')) return 'no closing document'
  if (lines.length !== n) return `${lines.length} lines, expected ${n}`
  for (let i = 0; i < n; i++) {
    let o
    try {
      o = JSON.parse(lines[i])
    } catch {
      return `line ${i + 1} is not JSON`
    }
    if (o.id !== rows - n + 1 + i) return `line ${i + 1} has id ${o.id}, expected ${rows - n + 1 + i}`
  }
  return null
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const o = { rows: 1_000_000, seed: 1, regen: false }
  const argv = process.argv.slice(2)
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--rows') o.rows = Number(argv[++i])
    else if (argv[i] === '--seed') o.seed = Number(argv[++i])
    else if (argv[i] === '--dir') o.dir = argv[++i]
    else if (argv[i] === '--regen') o.regen = true
    else {
      process.stderr.write(
        'usage: node scripts/bench/audit-seed.mjs [--rows N] [--seed S] [--dir DIR] [--regen]\n',
      )
      process.exit(2)
    }
  }
  const r = seedAuditDb(o)
  process.stderr.write(
    r.generated ? `audit-seed: ${r.rows} rows in ${(r.ms / 1000).toFixed(1)} s\n` : 'audit-seed: cached\n',
  )
  process.stdout.write(`${r.path}\n`)
}
