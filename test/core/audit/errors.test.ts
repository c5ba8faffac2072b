import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { parseGoDsn } from '../../../src/core/audit/dsn.js'
import { mysqlFailure, sqliteFailure } from '../../../src/core/audit/errors.js'

const t = parseGoDsn('ongrid:pw@tcp(db.internal:3306)/ongrid')
const my = (e: object, table = 'skill_executions') => {
  const a = mysqlFailure(e, t, table)
  return [a.message, a.transient]
}

describe('mysqlFailure', () => {
  test('unreachable', () => {
    assert.deepEqual(my({ code: 'ECONNREFUSED' }), [
      'cannot reach MySQL at db.internal:3306 (connection refused)',
      true,
    ])
    assert.deepEqual(my({ code: 'ETIMEDOUT' }), ['cannot reach MySQL at db.internal:3306 (timed out)', true])
    assert.deepEqual(my({ code: 'ENOTFOUND' }), [
      'cannot reach MySQL at db.internal:3306 (unknown host db.internal)',
      false,
    ])
  })

  test('refused credentials and missing database', () => {
    assert.deepEqual(my({ code: 'ER_ACCESS_DENIED_ERROR', message: "Access denied for user 'ongrid'" }), [
      'MySQL refused user ongrid: wrong password or no access (db.internal:3306)',
      false,
    ])
    assert.deepEqual(my({ code: 'ER_DBACCESS_DENIED_ERROR' }), [
      'MySQL refused user ongrid access to database ongrid (db.internal:3306)',
      false,
    ])
    assert.deepEqual(my({ code: 'ER_BAD_DB_ERROR' }), [
      'database ongrid does not exist on MySQL at db.internal:3306',
      false,
    ])
  })

  test('a missing table or column: wrong database, or an unknown manager version', () => {
    assert.deepEqual(
      my({ code: 'ER_NO_SUCH_TABLE', sqlMessage: "Table 'ongrid.chat_messages' doesn't exist" }),
      [
        'table chat_messages not found in database ongrid (MySQL at db.internal:3306): wrong database, or a manager version this tool does not know',
        false,
      ],
    )
    assert.deepEqual(
      my({ code: 'ER_BAD_FIELD_ERROR', sqlMessage: "Unknown column 'class' in 'field list'" }),
      [
        'table skill_executions in database ongrid (MySQL at db.internal:3306) has no column class: a manager version this tool does not know',
        false,
      ],
    )
    assert.equal(
      my({
        code: 'ER_BAD_FIELD_ERROR',
        sqlMessage: "Unknown column 'chat_tool_calls.status' in 'where clause'",
      })[0],
      'table chat_tool_calls in database ongrid (MySQL at db.internal:3306) has no column status: a manager version this tool does not know',
    )
  })

  test('a lost connection is transient', () => {
    assert.deepEqual(
      my({ code: 'PROTOCOL_CONNECTION_LOST', message: 'Connection lost: The server closed the connection.' }),
      [
        'lost the connection to MySQL at db.internal:3306 (Connection lost: The server closed the connection.)',
        true,
      ],
    )
    assert.equal(my({ code: 'ER_SERVER_SHUTDOWN', message: 'Server shutdown in progress' })[1], true)
    assert.equal(my({ message: "Can't add new command when connection is in closed state" })[1], true)
  })

  test('anything else: the server’s first line', () => {
    assert.deepEqual(my({ code: 'ER_X', message: 'something\nelse' }), [
      'MySQL at db.internal:3306: something',
      false,
    ])
  })
})

describe('sqliteFailure', () => {
  const sq = (code: string, message: string) => {
    const a = sqliteFailure({ code, message }, '/var/o.db', 'skill_executions')
    return [a.message, a.transient]
  }

  test('locked, not a database, corrupt', () => {
    assert.deepEqual(sq('SQLITE_BUSY', 'database is locked'), [
      'SQLite file /var/o.db is locked by another process (database is locked)',
      true,
    ])
    assert.deepEqual(sq('SQLITE_NOTADB', 'file is not a database'), [
      '/var/o.db is not a SQLite database (file is not a database)',
      false,
    ])
    assert.deepEqual(sq('SQLITE_CORRUPT', 'database disk image is malformed'), [
      'SQLite file /var/o.db is corrupt (database disk image is malformed)',
      false,
    ])
  })

  test('missing table or column', () => {
    assert.deepEqual(sq('SQLITE_ERROR', 'no such table: skill_executions'), [
      'table skill_executions not found in /var/o.db: wrong database, or a manager version this tool does not know',
      false,
    ])
    assert.deepEqual(sq('SQLITE_ERROR', 'no such column: caller_role'), [
      'table skill_executions in /var/o.db has no column caller_role: a manager version this tool does not know',
      false,
    ])
  })
})
