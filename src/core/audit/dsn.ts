/**
 * Where the audit rows are: the local store, a SQLite file, or a MySQL server — from `--db` or,
 * with `--db manager`, from the manager's own settings (ONGRID_DB_DIALECT / ONGRID_DB_DSN /
 * ONGRID_DB_PATH, with the manager's defaults).
 */
import { resolve } from 'node:path'
import { UserError } from '../errors.js'
import { fromText, toText } from '../go/gostring.js'
import { reasonText } from '../go/os/errors.js'
import { parseDuration } from '../go/time/duration.js'
import { readFileBounded } from '../read-bounded.js'
import { defaultAuditPath } from './local-store.js'
import { parseZone, type Zone } from './zone.js'

export const DB_DIALECT_ENV = 'ONGRID_DB_DIALECT'
export const DB_DSN_ENV = 'ONGRID_DB_DSN'
export const DB_PATH_ENV = 'ONGRID_DB_PATH'
/** The manager's defaults (`internal/pkg/config/config.go`). */
export const DEFAULT_DSN = 'ongrid:ongrid@tcp(127.0.0.1:3306)/ongrid?parseTime=true&charset=utf8mb4&loc=Local'
export const DEFAULT_DB_PATH = './data/ongrid.db'

export interface MysqlTarget {
  user: string
  password: string
  /** TCP host and port, or a unix socket path. */
  host?: string
  port?: number
  socketPath?: string
  database: string
  /** How DATETIME wall clocks are read (the DSN's `loc`). */
  zone: Zone
  connectTimeoutMs: number
  /** The DSN's `tls`: undefined (none), true (verify), 'skip-verify'. */
  tls?: true | 'skip-verify'
  /** host:port or the socket path, for messages. */
  address: string
}

export type Source = { kind: 'sqlite'; path: string; local: boolean } | { kind: 'mysql'; target: MysqlTarget }

/** A --db or its variables that name no usable source: a usage error. */
export class SourceError extends UserError {}

const CONNECT_TIMEOUT_MS = 5000

/**
 * `--db` → a source. undefined or `local`: the local store `run` writes; `manager`: the
 * manager's settings from `env`; `sqlite:PATH`; `mysql://user:pass@host:port/db?loc=…`; or a
 * go-sql-driver DSN (`user:pass@tcp(host:port)/db?…`); or one of these last three read from the
 * variable NAME (`env:NAME`) or the first line of a file (`file:PATH`).
 */
export function resolveSource(db: string | undefined, env: NodeJS.ProcessEnv = process.env): Source {
  if (db === undefined || db === 'local') return { kind: 'sqlite', path: defaultAuditPath(env), local: true }
  if (db === 'manager') return managerSource(env)
  // A DSN with a password is seen by every local user in `ps` when given on the command line:
  // `env:NAME` and `file:PATH` keep it out of argv.
  if (db.startsWith('env:')) return fromIndirect(db, dsnFromEnv(db.slice(4), env))
  if (db.startsWith('file:')) return fromIndirect(db, dsnFromFile(db.slice(5)))
  return resolveDirect(db)
}

/** The most of a `--db file:PATH` read: a DSN is one line. */
export const MAX_DSN_FILE = 64 * 1024

function dsnFromEnv(name: string, env: NodeJS.ProcessEnv): string {
  const v = env[name]
  if (name === '' || v === undefined || v === '')
    throw new SourceError(
      `--db env:${name}: the variable ${name === '' ? '(no name)' : name} is not set or empty`,
    )
  return v
}

function dsnFromFile(path: string): string {
  if (path === '') throw new SourceError('--db file:PATH needs a path')
  let text: string
  try {
    text = readFileBounded(path, MAX_DSN_FILE).toString('utf8')
  } catch (e) {
    throw new SourceError(`--db file:${path}: ${reasonText(e)}`)
  }
  // The first line, as `echo DSN > file` writes it.
  const line = text.split(/\r?\n/)[0].trim()
  if (line === '') throw new SourceError(`--db file:${path}: the file holds no DSN on its first line`)
  return line
}

/** A DSN read from a variable or a file: its own errors name where it came from, never it. */
function fromIndirect(where: string, dsn: string): Source {
  if (dsn === 'local' || dsn === 'manager' || dsn.startsWith('env:') || dsn.startsWith('file:'))
    throw new SourceError(
      `--db ${where}: expected a DSN (sqlite:PATH, mysql://… or user:pass@tcp(…)/db), not ${dsn}`,
    )
  try {
    return resolveDirect(dsn)
  } catch (e) {
    if (e instanceof SourceError) throw new SourceError(`--db ${where}: ${e.message.replace(/^--db /, '')}`)
    throw e
  }
}

function resolveDirect(db: string): Source {
  if (db.startsWith('sqlite:')) return { kind: 'sqlite', path: sqlitePath('--db', db), local: false }
  if (db.startsWith('mysql://')) return { kind: 'mysql', target: parseMysqlUrl(db) }
  if (/^[^/]*(tcp|unix)\(/.test(db) || db.startsWith('mysql:')) {
    return { kind: 'mysql', target: parseGoDsn(db.startsWith('mysql:') ? db.slice(6) : db) }
  }
  throw new SourceError(
    `--db ${redact(db)}: expected local, manager, sqlite:PATH, mysql://user:pass@host:port/db or a go-sql-driver DSN like user:pass@tcp(host:3306)/db (or env:NAME, file:PATH holding one)`,
  )
}

/**
 * What `--db manager` fell back to, when the manager's settings are unset or empty (one line:
 * which variables, and the defaults read instead), or null when they are all given.
 */
export function managerDefaultsNote(env: NodeJS.ProcessEnv): string | null {
  const unset = (k: string) => env[k] === undefined || env[k] === ''
  const dialect = unset(DB_DIALECT_ENV) ? 'mysql' : (env[DB_DIALECT_ENV] as string)
  const fell: [string, string][] = []
  if (unset(DB_DIALECT_ENV)) fell.push([DB_DIALECT_ENV, 'mysql'])
  if (dialect === 'mysql' && unset(DB_DSN_ENV)) fell.push([DB_DSN_ENV, redact(DEFAULT_DSN)])
  if (dialect === 'sqlite' && unset(DB_PATH_ENV)) fell.push([DB_PATH_ENV, resolve(DEFAULT_DB_PATH)])
  if (fell.length === 0) return null
  const names = fell.map(([k]) => k)
  return `--db manager: ${names.join(' and ')} ${names.length === 1 ? 'is' : 'are'} not set; reading the manager's default${fell.length === 1 ? '' : 's'}: ${fell.map(([k, v]) => `${k}=${v}`).join(', ')}`
}

/** What the manager itself opens (`internal/pkg/dbx`): an empty variable means its default. */
export function managerSource(env: NodeJS.ProcessEnv): Source {
  const get = (k: string, def: string) => (env[k] === undefined || env[k] === '' ? def : (env[k] as string))
  const dialect = get(DB_DIALECT_ENV, 'mysql')
  if (dialect === 'sqlite') {
    const path = get(DB_PATH_ENV, DEFAULT_DB_PATH)
    if (path === ':memory:') {
      throw new SourceError(
        `${DB_PATH_ENV}=:memory:: the manager's database lives in its memory, nothing to read`,
      )
    }
    return { kind: 'sqlite', path: resolve(path), local: false }
  }
  if (dialect !== 'mysql') {
    throw new SourceError(`${DB_DIALECT_ENV}=${dialect}: the manager accepts mysql or sqlite (exactly)`)
  }
  try {
    return { kind: 'mysql', target: parseGoDsn(get(DB_DSN_ENV, DEFAULT_DSN)) }
  } catch (e) {
    if (e instanceof SourceError) throw new SourceError(`${DB_DSN_ENV}: ${e.message}`)
    throw e
  }
}

/**
 * go-sql-driver/mysql's ParseDSN: `[user[:password]@][net[(addr)]]/dbname[?param=value&…]`,
 * split the way the driver splits it (the last `/`, then the last `@` before it, then the first
 * `:`), so passwords may hold `@`, `:` and `/`. Net `tcp` (default 127.0.0.1:3306, port 3306
 * added when missing) or `unix` (default /tmp/mysql.sock). Params read: `loc` (default UTC, as
 * in the driver), `timeout` (a Go duration, the dial timeout), `tls` (true, skip-verify; other values: no TLS).
 */
export function parseGoDsn(dsn: string): MysqlTarget {
  const slash = dsn.lastIndexOf('/')
  if (slash < 0)
    throw new SourceError(`invalid DSN ${redact(dsn)}: missing the slash before the database name`)
  let user = ''
  let password = ''
  let net = ''
  let addr = ''
  const left = dsn.slice(0, slash)
  const at = left.lastIndexOf('@')
  if (at >= 0) {
    const cred = left.slice(0, at)
    const colon = cred.indexOf(':')
    user = colon >= 0 ? cred.slice(0, colon) : cred
    password = colon >= 0 ? cred.slice(colon + 1) : ''
  }
  const proto = left.slice(at + 1)
  const paren = proto.indexOf('(')
  if (paren >= 0) {
    if (!proto.endsWith(')')) {
      throw new SourceError(
        `invalid DSN ${redact(dsn)}: network address not terminated (missing closing brace)`,
      )
    }
    net = proto.slice(0, paren)
    addr = proto.slice(paren + 1, -1)
  } else net = proto
  const rest = dsn.slice(slash + 1)
  const q = rest.indexOf('?')
  const rawDb = q >= 0 ? rest.slice(0, q) : rest
  let database: string
  try {
    database = decodeURIComponent(rawDb)
  } catch {
    throw new SourceError(`invalid DSN ${redact(dsn)}: invalid dbname ${JSON.stringify(rawDb)}`)
  }
  const params = new Map<string, string>()
  if (q >= 0) {
    for (const kv of rest.slice(q + 1).split('&')) {
      if (kv === '') continue
      const eq = kv.indexOf('=')
      if (eq < 0) throw new SourceError(`invalid DSN ${redact(dsn)}: invalid DSN parameter ${kv}`)
      params.set(kv.slice(0, eq), kv.slice(eq + 1))
    }
  }
  if (net === '') net = 'tcp'
  const t: MysqlTarget = {
    user,
    password,
    database,
    zone: 'UTC',
    connectTimeoutMs: CONNECT_TIMEOUT_MS,
    address: '',
  }
  if (net === 'unix') {
    t.socketPath = addr === '' ? '/tmp/mysql.sock' : addr
    t.address = t.socketPath
  } else if (net === 'tcp' || net === 'tcp4' || net === 'tcp6') {
    const { host, port } = splitHostPort(addr === '' ? '127.0.0.1:3306' : addr, dsn)
    t.host = host
    t.port = port
    t.address = hostPort(host, port)
  } else throw new SourceError(`invalid DSN ${redact(dsn)}: unknown network ${net}`)
  applyParams(t, params, (v) => {
    try {
      return decodeURIComponent(v.replace(/\+/g, ' '))
    } catch {
      return v
    }
  })
  return t
}

/**
 * `mysql://user:pass@host:port/db?loc=…&timeout=…&tls=…` (user and password percent-encoded).
 * `loc` defaults to Local here, as in the manager's default DSN; say `?loc=UTC` for a manager
 * whose DSN has no loc.
 */
export function parseMysqlUrl(text: string): MysqlTarget {
  let u: URL
  try {
    u = new URL(text)
  } catch {
    throw new SourceError(`invalid MySQL URL ${redact(text)}`)
  }
  const host = u.hostname.replace(/^\[(.*)\]$/, '$1') || '127.0.0.1'
  const port = u.port === '' ? 3306 : Number(u.port)
  let database: string
  try {
    database = decodeURIComponent(u.pathname.replace(/^\//, ''))
  } catch {
    throw new SourceError(`invalid MySQL URL ${redact(text)}: bad database name`)
  }
  if (database === '' || database.includes('/')) {
    throw new SourceError(`MySQL URL ${redact(text)} names no database (mysql://user:pass@host:port/db)`)
  }
  let user: string
  let password: string
  try {
    user = decodeURIComponent(u.username)
    password = decodeURIComponent(u.password)
  } catch {
    throw new SourceError(
      `invalid MySQL URL ${redact(text)}: bad percent-encoding in the user or password (write % as %25)`,
    )
  }
  const t: MysqlTarget = {
    user,
    password,
    host,
    port,
    database,
    zone: 'Local',
    connectTimeoutMs: CONNECT_TIMEOUT_MS,
    address: hostPort(host, port),
  }
  applyParams(t, new Map(u.searchParams), (v) => v)
  return t
}

function applyParams(t: MysqlTarget, params: Map<string, string>, decode: (v: string) => string): void {
  const loc = params.get('loc')
  if (loc !== undefined) {
    const z = parseZone(decode(loc))
    if (z === null) throw new SourceError(`unknown time zone ${decode(loc)} (loc)`)
    t.zone = z
  }
  const timeout = params.get('timeout')
  if (timeout !== undefined) {
    const d = parseDuration(fromText(decode(timeout)))
    if (!d.ok) throw new SourceError(`invalid timeout: ${toText(d.err.error())}`)
    if (d.value > 0n) t.connectTimeoutMs = Number(d.value / 1_000_000n)
  }
  const tls = params.get('tls')
  if (tls === 'true') t.tls = true
  else if (tls === 'skip-verify') t.tls = 'skip-verify'
}

function splitHostPort(addr: string, dsn: string): { host: string; port: number } {
  const m = /^\[([^\]]*)\](?::(\d+))?$/.exec(addr) ?? /^([^:]*)(?::(\d+))?$/.exec(addr)
  if (!m) {
    // A bare IPv6 address without brackets: the driver adds the default port to it.
    if (addr.includes(':') && !addr.includes('[')) return { host: addr, port: 3306 }
    throw new SourceError(`invalid DSN ${redact(dsn)}: bad address ${addr}`)
  }
  return { host: m[1] === '' ? '127.0.0.1' : m[1], port: m[2] === undefined ? 3306 : Number(m[2]) }
}

function hostPort(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`
}

/**
 * A DSN or URL with its password replaced by `***`, for messages: everything from the first `:`
 * of the user part up to the last `@` (a password may hold `@`, `/` and `:`; a name cut short is
 * better than a password shown).
 */
export function redact(dsn: string): string {
  const scheme = /^(mysql:\/\/|mysql:)/.exec(dsn)?.[0] ?? ''
  const rest = dsn.slice(scheme.length)
  const at = rest.lastIndexOf('@')
  if (at < 0) return dsn
  const colon = rest.indexOf(':')
  if (colon < 0 || colon > at) return dsn
  return `${scheme}${rest.slice(0, colon + 1)}***${rest.slice(at)}`
}

/** One line saying where the rows come from, for messages and `--help`-like notices. */
export function describeSource(s: Source): string {
  if (s.kind === 'sqlite') return s.local ? `local audit store ${s.path}` : `SQLite file ${s.path}`
  return `MySQL at ${s.target.address}, database ${s.target.database}`
}

/**
 * `--audit-db` of run, test and mcp: the local SQLite file they record to. A MySQL address there
 * (a URL or a go-sql-driver DSN, as `audit tail --db` takes) would otherwise be taken as a
 * relative file name and a SQLite file made under it: a usage error instead, the password never
 * echoed. `sqlite:PATH` is taken as PATH.
 */
export function auditStorePath(value: string | undefined): string | undefined {
  if (value === undefined) return undefined
  if (value.startsWith('sqlite:')) return sqlitePath('--audit-db', value)
  if (value.startsWith('mysql:') || /^[^/]*(tcp|unix)\(/.test(value))
    throw new SourceError(
      `--audit-db ${redact(value)}: a MySQL address; --audit-db is the local SQLite file this command records to (the manager's database is read with audit tail --db)`,
    )
  return value
}

/** `sqlite:PATH` (or `sqlite:///abs/path`) → the absolute PATH; `flag` names the flag in its error. */
function sqlitePath(flag: string, value: string): string {
  let path = value.slice('sqlite:'.length)
  if (path.startsWith('//')) path = path.slice(2) // sqlite:///abs/path
  if (path === '') throw new SourceError(`${flag} sqlite:PATH needs a path`)
  return resolve(path)
}
