import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, describe, test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { Database } from '../../../src/core/audit/sqlite.js'
import { tempRoot } from '../../helpers/tree.js'

const MODULE = fileURLToPath(new URL('../../../src/core/audit/sqlite.js', import.meta.url))
const T = tempRoot('ongrid-sqlite-mod-')
after(T.cleanup)

/**
 * Node's loading of node:sqlite as the lines that warn do it (22.13 to 22.x, 23): the
 * ExperimentalWarning is emitted as the module loads. Preloaded, so the test does not depend on
 * whether this Node still warns.
 */
const WARNS = join(T.root, 'warns.cjs')
writeFileSync(
  WARNS,
  `const get = process.getBuiltinModule
process.getBuiltinModule = (id) => {
  if (id === 'node:sqlite') process.emitWarning('SQLite is an experimental feature and might change at any time', 'ExperimentalWarning')
  return get(id)
}
`,
)

/** A fresh Node that loads the module, opens an in-memory database, then runs `more`. */
const node = (more = '') =>
  spawnSync(
    process.execPath,
    [
      '--require',
      WARNS,
      '--input-type=module',
      '-e',
      `const { Database } = await import(${JSON.stringify(MODULE)}); new Database(':memory:').close(); ${more}`,
    ],
    { encoding: 'utf8' },
  )

describe('node:sqlite behind core/audit/sqlite.ts', () => {
  test('loading it prints nothing on stderr, though Node warns that SQLite is experimental', () => {
    const r = node()
    assert.equal(r.status, 0, r.stderr)
    assert.equal(r.stderr, '')
  })

  test('other warnings still reach stderr', () => {
    const r = node("process.emitWarning('something else', 'ExperimentalWarning')")
    assert.match(r.stderr, /ExperimentalWarning: something else/)
  })

  test('errors carry the SQLite result code’s name, as the callers test them', () => {
    const junk = join(T.root, 'junk.db')
    writeFileSync(junk, 'not a database, not at all'.repeat(40))
    assert.throws(() => new Database(junk, { readonly: true }).prepare('SELECT 1 FROM t'), {
      code: 'SQLITE_NOTADB',
    })
    assert.throws(() => new Database(join(T.root, 'none/x.db'), { readonly: true }), {
      code: 'SQLITE_CANTOPEN',
    })
    const path = join(T.root, 'locked.db')
    const a = new Database(path)
    a.exec('CREATE TABLE t(x)')
    a.pragma('journal_mode = DELETE')
    a.exec('BEGIN EXCLUSIVE')
    a.exec('INSERT INTO t VALUES (1)')
    const b = new Database(path, { timeout: 0 })
    assert.throws(() => b.prepare('SELECT * FROM t').all(), {
      code: 'SQLITE_BUSY',
      message: 'database is locked',
    })
    a.exec('ROLLBACK')
    a.close()
    b.close()
    b.close()
  })

  test('integers past 2^53 stay exact with safeIntegers', () => {
    const db = new Database(':memory:')
    const st = db.prepare('SELECT 9007199254740993 AS n').safeIntegers()
    assert.deepEqual({ ...st.get() }, { n: 9007199254740993n })
    assert.equal(db.pragma('journal_mode'), 'memory')
    db.close()
  })
})
