/**
 * Database failures as one line that names the problem: unreachable, refused credentials, a
 * missing database, table or column, a locked, corrupt or missing SQLite file. `transient` marks
 * the ones worth retrying while following (a lost connection, a server restarting, a lock).
 */
import { EXIT, firstLine, UserError } from '../errors.js'
import type { MysqlTarget } from './dsn.js'

export class AuditError extends UserError {
  constructor(
    message: string,
    /** Retry while following: the server went away, or the file is locked for now. */
    readonly transient = false,
    /** The short cause of a transient failure (`connection refused`), for `connection lost (…)`. */
    readonly reason = message,
  ) {
    super(message, EXIT.usage)
  }
}

const UNKNOWN_MANAGER = 'wrong database, or a manager version this tool does not know'

interface DriverError {
  code?: string
  errno?: number
  message?: string
  sqlMessage?: string
}

/** Connection-level codes: the server is (or went) away; retried while following. */
const MYSQL_LOST = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'EAI_AGAIN',
  'ENOENT', // a unix socket removed while the server restarts
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'ER_SERVER_SHUTDOWN',
  'ER_CONNECTION_KILLED',
  'ER_CON_COUNT_ERROR',
  'ER_CLIENT_INTERACTION_TIMEOUT',
  'ER_QUERY_INTERRUPTED',
  'ER_SERVER_GONE_ERROR',
  'CR_SERVER_LOST',
])

const REACH: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ETIMEDOUT: 'timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EHOSTDOWN: 'host down',
  ENOTFOUND: 'unknown host',
  EAI_AGAIN: 'host name lookup failed',
  ENOENT: 'no such socket',
  EACCES: 'permission denied',
}

/** A mysql2 error, said in one line about `t`. `table` is the table the query reads first. */
export function mysqlFailure(e: unknown, t: MysqlTarget, table: string): AuditError {
  if (e instanceof AuditError) return e
  const err = (e ?? {}) as DriverError
  const code = err.code ?? ''
  const text = firstLine(err.sqlMessage ?? err.message ?? String(e)).trim()
  const where = `MySQL at ${t.address}`
  switch (code) {
    case 'ER_ACCESS_DENIED_ERROR':
    case 'ER_ACCESS_DENIED_NO_PASSWORD_ERROR':
      return new AuditError(`MySQL refused user ${t.user}: wrong password or no access (${t.address})`)
    case 'ER_DBACCESS_DENIED_ERROR':
      return new AuditError(`MySQL refused user ${t.user} access to database ${t.database} (${t.address})`)
    case 'ER_TABLEACCESS_DENIED_ERROR':
    case 'ER_COLUMNACCESS_DENIED_ERROR':
      return new AuditError(`MySQL refused user ${t.user} reading ${table}: ${text} (${t.address})`)
    case 'ER_BAD_DB_ERROR':
      return new AuditError(`database ${t.database} does not exist on ${where}`)
    case 'ER_NO_SUCH_TABLE': {
      const m = /Table '(?:[^'.]*\.)?([^']*)' doesn't exist/.exec(text)
      return new AuditError(
        `table ${m ? m[1] : table} not found in database ${t.database} (${where}): ${UNKNOWN_MANAGER}`,
      )
    }
    case 'ER_BAD_FIELD_ERROR': {
      const m = /Unknown column '([^']*)'/.exec(text)
      return new AuditError(columnMessage(m ? m[1] : text, table, `database ${t.database} (${where})`))
    }
  }
  if (code in REACH && !/^ER_/.test(code)) {
    const why = code === 'ENOTFOUND' ? `unknown host ${t.host}` : REACH[code]
    return new AuditError(`cannot reach ${where} (${why})`, MYSQL_LOST.has(code), why)
  }
  if (MYSQL_LOST.has(code) || /closed state|connection lost|server has gone away/i.test(text)) {
    return new AuditError(`lost the connection to ${where} (${text})`, true, text)
  }
  return new AuditError(`${where}: ${text}`)
}

/** A node:sqlite error (its code named by ./sqlite.ts), said in one line about the file at `path`. */
export function sqliteFailure(e: unknown, path: string, table: string): AuditError {
  if (e instanceof AuditError) return e
  const err = (e ?? {}) as DriverError
  const code = err.code ?? ''
  const text = firstLine(err.message ?? String(e)).trim()
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
    return new AuditError(`SQLite file ${path} is locked by another process (${text})`, true)
  }
  if (code === 'SQLITE_NOTADB') return new AuditError(`${path} is not a SQLite database (${text})`)
  if (code.startsWith('SQLITE_CORRUPT')) return new AuditError(`SQLite file ${path} is corrupt (${text})`)
  if (code.startsWith('SQLITE_CANTOPEN')) return new AuditError(`cannot open SQLite file ${path} (${text})`)
  if (code.startsWith('SQLITE_IOERR'))
    return new AuditError(`I/O error reading SQLite file ${path} (${text})`)
  let m = /^no such table: (?:\w+\.)?(\S+)/.exec(text)
  if (m) return new AuditError(`table ${m[1]} not found in ${path}: ${UNKNOWN_MANAGER}`)
  m = /^no such column: (\S+)/.exec(text)
  if (m) return new AuditError(columnMessage(m[1], table, path))
  return new AuditError(`SQLite file ${path}: ${text}`)
}

/** `chat_tool_calls.status` → table chat_tool_calls, column status; bare names belong to `table`. */
function columnMessage(column: string, table: string, where: string): string {
  const dot = column.lastIndexOf('.')
  const t = dot >= 0 ? column.slice(0, dot) : table
  const c = dot >= 0 ? column.slice(dot + 1) : column
  return `table ${t} in ${where} has no column ${c}: a manager version this tool does not know`
}
