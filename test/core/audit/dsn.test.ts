import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { describe, test } from 'node:test'
import {
  auditStorePath,
  DEFAULT_DSN,
  describeSource,
  parseGoDsn,
  parseMysqlUrl,
  redact,
  resolveSource,
  SourceError,
} from '../../../src/core/audit/dsn.js'

describe('parseGoDsn (go-sql-driver/mysql ParseDSN)', () => {
  test("the manager's default DSN", () => {
    const t = parseGoDsn(DEFAULT_DSN)
    assert.deepEqual(
      { user: t.user, password: t.password, host: t.host, port: t.port, db: t.database, zone: t.zone },
      { user: 'ongrid', password: 'ongrid', host: '127.0.0.1', port: 3306, db: 'ongrid', zone: 'Local' },
    )
    assert.equal(t.address, '127.0.0.1:3306')
  })

  test('splits at the last slash, the last @ before it and the first colon', () => {
    const t = parseGoDsn('us:er:p@ss/w:rd@tcp(db.internal:3307)/ongrid')
    assert.equal(t.user, 'us')
    assert.equal(t.password, 'er:p@ss/w:rd')
    assert.equal(t.host, 'db.internal')
    assert.equal(t.port, 3307)
    assert.equal(t.database, 'ongrid')
  })

  test('defaults: tcp 127.0.0.1:3306, port 3306 added, no loc means UTC', () => {
    assert.equal(parseGoDsn('u@/db').address, '127.0.0.1:3306')
    assert.equal(parseGoDsn('u:p@tcp(db)/x').address, 'db:3306')
    assert.equal(parseGoDsn('u:p@tcp([::1]:3310)/x').address, '[::1]:3310')
    assert.equal(parseGoDsn('u:p@tcp(db)/x').zone, 'UTC')
    assert.equal(parseGoDsn('/x').user, '')
  })

  test('unix sockets', () => {
    const t = parseGoDsn('u:p@unix(/run/mysqld/mysqld.sock)/ongrid?loc=UTC')
    assert.equal(t.socketPath, '/run/mysqld/mysqld.sock')
    assert.equal(t.host, undefined)
    assert.equal(t.address, '/run/mysqld/mysqld.sock')
    assert.equal(parseGoDsn('u@unix/x').socketPath, '/tmp/mysql.sock')
  })

  test('params: loc (escaped IANA name), timeout (Go duration), tls', () => {
    const t = parseGoDsn('u:p@tcp(h:1)/d?parseTime=true&loc=Asia%2FShanghai&timeout=1m30s&tls=skip-verify')
    assert.deepEqual(t.zone, { iana: 'Asia/Shanghai' })
    assert.equal(t.connectTimeoutMs, 90_000)
    assert.equal(t.tls, 'skip-verify')
    assert.equal(parseGoDsn('u@tcp(h)/d?tls=true').tls, true)
  })

  test('errors', () => {
    assert.throws(() => parseGoDsn('u:p@tcp(h:1)'), /missing the slash/)
    assert.throws(() => parseGoDsn('u:p@tcp(h:1/d'), /missing closing brace/)
    assert.throws(() => parseGoDsn('u:p@udp(h)/d'), /unknown network udp/)
    assert.throws(() => parseGoDsn('u:p@tcp(h)/d?loc=Mars%2FOlympus'), /unknown time zone Mars\/Olympus/)
    assert.throws(
      () => parseGoDsn('u:p@tcp(h)/d?timeout=5'),
      /invalid timeout: time: missing unit in duration "5"/,
    )
    assert.throws(() => parseGoDsn('u:p@tcp(h)/d?oops'), /invalid DSN parameter oops/)
  })
})

describe('parseMysqlUrl', () => {
  test('user, password (percent-encoded), host, port, database; loc defaults to Local', () => {
    const t = parseMysqlUrl('mysql://ongrid:p%40ss%3Aw@db.internal:3307/ongrid')
    assert.equal(t.user, 'ongrid')
    assert.equal(t.password, 'p@ss:w')
    assert.equal(t.address, 'db.internal:3307')
    assert.equal(t.database, 'ongrid')
    assert.equal(t.zone, 'Local')
    assert.equal(parseMysqlUrl('mysql://u@h/d?loc=UTC').zone, 'UTC')
    assert.equal(parseMysqlUrl('mysql://u@h/d').port, 3306)
    assert.equal(parseMysqlUrl('mysql://u@[::1]:3310/d').address, '[::1]:3310')
  })

  test('a database is required', () => {
    assert.throws(() => parseMysqlUrl('mysql://u:p@h:1'), /names no database/)
    assert.throws(() => parseMysqlUrl('mysql://u:p@h:1/'), /names no database/)
  })
})

describe('resolveSource', () => {
  const env = { HOME: '/home/op', XDG_STATE_HOME: '/state' }

  test('no --db, or local: the local store', () => {
    assert.deepEqual(resolveSource(undefined, env), {
      kind: 'sqlite',
      path: join('/state', 'ongrid-skill', 'audit.db'),
      local: true,
    })
    assert.deepEqual(resolveSource('local', env), resolveSource(undefined, env))
  })

  test('sqlite:PATH, relative to the current dir', () => {
    assert.deepEqual(resolveSource('sqlite:data/ongrid.db', env), {
      kind: 'sqlite',
      path: resolve('data/ongrid.db'),
      local: false,
    })
    assert.equal((resolveSource('sqlite:///var/ongrid.db', env) as { path: string }).path, '/var/ongrid.db')
    assert.throws(() => resolveSource('sqlite:', env), SourceError)
  })

  test('mysql:// URLs and go-sql-driver DSNs', () => {
    const u = resolveSource('mysql://u:p@h:1/d', env)
    assert.equal(u.kind === 'mysql' && u.target.address, 'h:1')
    const d = resolveSource('u:p@tcp(h:2)/d?loc=UTC', env)
    assert.equal(d.kind === 'mysql' && d.target.address, 'h:2')
  })

  test("manager: the manager's own settings, with its defaults", () => {
    const def = resolveSource('manager', {})
    assert.equal(def.kind, 'mysql')
    assert.equal(def.kind === 'mysql' && def.target.address, '127.0.0.1:3306')
    assert.equal(def.kind === 'mysql' && def.target.zone, 'Local')
    // An empty variable means the default, as in the manager.
    assert.deepEqual(resolveSource('manager', { ONGRID_DB_DIALECT: '', ONGRID_DB_DSN: '' }), def)
    const dsn = resolveSource('manager', { ONGRID_DB_DSN: 'a:b@tcp(db:3310)/og?loc=UTC' })
    assert.equal(dsn.kind === 'mysql' && dsn.target.database, 'og')
    assert.deepEqual(resolveSource('manager', { ONGRID_DB_DIALECT: 'sqlite' }), {
      kind: 'sqlite',
      path: resolve('./data/ongrid.db'),
      local: false,
    })
    assert.deepEqual(resolveSource('manager', { ONGRID_DB_DIALECT: 'sqlite', ONGRID_DB_PATH: '/var/o.db' }), {
      kind: 'sqlite',
      path: '/var/o.db',
      local: false,
    })
  })

  test('manager: what the manager refuses', () => {
    assert.throws(
      () => resolveSource('manager', { ONGRID_DB_DIALECT: 'MySQL' }),
      /^Error: ONGRID_DB_DIALECT=MySQL: the manager accepts mysql or sqlite \(exactly\)$/,
    )
    assert.throws(
      () => resolveSource('manager', { ONGRID_DB_DIALECT: 'sqlite', ONGRID_DB_PATH: ':memory:' }),
      /lives in its memory/,
    )
    assert.throws(
      () => resolveSource('manager', { ONGRID_DB_DSN: 'nonsense' }),
      /^Error: ONGRID_DB_DSN: invalid DSN/,
    )
  })

  test('anything else is a usage error naming the forms', () => {
    assert.throws(() => resolveSource('/var/ongrid.db', env), /expected local, manager, sqlite:PATH/)
  })
})

test('redact hides passwords in both forms', () => {
  assert.equal(redact('mysql://u:secret@h:1/d'), 'mysql://u:***@h:1/d')
  assert.equal(redact('u:se@cret@tcp(h)/d'), 'u:***@tcp(h)/d')
  assert.equal(redact('u@tcp(h)/d'), 'u@tcp(h)/d')
})

test('redact: everything up to the last @, whatever the password holds', () => {
  assert.equal(redact('mysql://u:p@ss@h:1/d'), 'mysql://u:***@h:1/d')
  assert.equal(redact('mysql://u:p/a:s@s@h/d'), 'mysql://u:***@h/d')
  assert.equal(redact('mysql:u:p@ss/w@tcp(h)/d'), 'mysql:u:***@tcp(h)/d')
  assert.equal(redact('user:pass@foo(x)/db'), 'user:***@foo(x)/db')
})

describe('no echo of a password', () => {
  const env = {}
  const message = (db: string) => {
    try {
      resolveSource(db, env)
    } catch (e) {
      assert.ok(e instanceof SourceError, String(e))
      return e.message
    }
    assert.fail(`${db} was accepted`)
  }
  for (const db of [
    'user:s3cret@foo(h)/db',
    'user:s3cret@tcp(h/db',
    'user:s3cret@tcp(h)/db?x',
    'user:s3cret@bogus(h)/db',
    'mysql://user:s3cret@h:1/',
    'mysql://user:s3c@ret@h:1/',
    'mysql://user:s3cret%zz@h:1/d',
    'mysql://user:s3cret@h:99999999/d',
  ]) {
    test(db, () => {
      const m = message(db)
      assert.doesNotMatch(m, /s3c/, m)
    })
  }
})

describe('a mysql:// URL with bad percent-encoding', () => {
  test('is a SourceError (a usage error), not a crash', () => {
    assert.throws(
      () => resolveSource('mysql://u:100%@h/d', {}),
      (e: unknown) =>
        e instanceof SourceError &&
        e.message ===
          'invalid MySQL URL mysql://u:***@h/d: bad percent-encoding in the user or password (write % as %25)',
    )
    assert.throws(() => resolveSource('mysql://%E0%A4%A@h/d', {}), SourceError)
  })
})

describe('a DSN kept out of argv: env:NAME and file:PATH', () => {
  test('env:NAME reads the variable', () => {
    const s = resolveSource('env:MY_DSN', { MY_DSN: 'mysql://u:p@h:1/d' })
    assert.equal(s.kind, 'mysql')
    assert.equal(s.kind === 'mysql' && s.target.password, 'p')
    assert.throws(
      () => resolveSource('env:NOPE', {}),
      /^Error: --db env:NOPE: the variable NOPE is not set or empty$/,
    )
    assert.throws(
      () => resolveSource('env:MY_DSN', { MY_DSN: 'u:s3cret@bogus(h)/d' }),
      (e: unknown) =>
        e instanceof SourceError && e.message.startsWith('--db env:MY_DSN: ') && !e.message.includes('s3c'),
    )
  })
  test('file:PATH reads the first line of a file, bounded', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ongrid-dsn-'))
    try {
      writeFileSync(join(dir, 'dsn'), 'u:p@tcp(db:3307)/ongrid\n# more\n')
      const s = resolveSource(`file:${join(dir, 'dsn')}`, {})
      assert.equal(s.kind === 'mysql' && s.target.address, 'db:3307')
      assert.throws(() => resolveSource(`file:${join(dir, 'none')}`, {}), /: no such file or directory$/)
      assert.throws(
        () => resolveSource('file:/dev/zero', {}),
        /^Error: --db file:\/dev\/zero: larger than 64 KiB$/,
      )
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

test('describeSource', () => {
  assert.equal(describeSource({ kind: 'sqlite', path: '/a.db', local: true }), 'local audit store /a.db')
  assert.equal(describeSource(resolveSource('mysql://u@h:1/d')), 'MySQL at h:1, database d')
})

test('auditStorePath: a file path or sqlite:PATH; a MySQL address is refused, its password unsaid', () => {
  assert.equal(auditStorePath(undefined), undefined)
  assert.equal(auditStorePath('/tmp/a.db'), '/tmp/a.db')
  assert.equal(auditStorePath('rel/a.db'), 'rel/a.db')
  assert.equal(auditStorePath('sqlite:///tmp/a.db'), '/tmp/a.db')
  assert.equal(auditStorePath('sqlite:rel/a.db'), resolve('rel/a.db'))
  assert.throws(
    () => auditStorePath('sqlite:'),
    (e: unknown) => e instanceof SourceError && e.message === '--audit-db sqlite:PATH needs a path',
  )
  for (const [dsn, shown] of [
    ['mysql://u:p@ss@db.internal:3306/ongrid', 'mysql://u:***@db.internal:3306/ongrid'],
    ['u:secret@tcp(127.0.0.1:3306)/ongrid', 'u:***@tcp(127.0.0.1:3306)/ongrid'],
    ['mysql:u:secret@unix(/run/mysqld.sock)/ongrid', 'mysql:u:***@unix(/run/mysqld.sock)/ongrid'],
  ]) {
    assert.throws(
      () => auditStorePath(dsn),
      (e: unknown) =>
        e instanceof SourceError &&
        e.message.startsWith(`--audit-db ${shown}: a MySQL address;`) &&
        !e.message.includes('secret') &&
        !e.message.includes('p@ss'),
    )
  }
})
