import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { createMysqlDb, mysqlSkip } from './fixtures/audit/db.js'
import { REPO, runCliSync } from './helpers/cli.js'
import { smokeCases } from './helpers/smoke.js'
import { tempRoot } from './helpers/tree.js'

/**
 * The single executable (`npm run build:sea`, scripts/build-sea.mjs), built here into a temp dir
 * (or the one ONGRID_SEA_BIN names), then every command from it with a PATH where no `node` can
 * be found: the commands of /usr/bin and /bin but node, nodejs, npm and npx.
 */
const T = tempRoot('ongrid-sea-')
after(T.cleanup)
const SEA = process.env.ONGRID_SEA_BIN ?? join(T.root, 'ongrid-skill-linux-x64')
const NO_NODE = join(T.root, 'path')
let built = { status: 0 as number | null, stderr: '' }

const mysql = { url: '', drop: async () => {} }
before(async () => {
  if (mysqlSkip() === false) Object.assign(mysql, await createMysqlDb())
})
after(() => mysql.drop())

before(() => {
  if (process.env.ONGRID_SEA_BIN === undefined) {
    const r = spawnSync(process.execPath, [join(REPO, 'scripts/build-sea.mjs'), SEA], { encoding: 'utf8' })
    built = { status: r.status, stderr: r.stderr }
  }
  mkdirSync(NO_NODE)
  for (const dir of ['/usr/local/bin', '/usr/bin', '/bin']) {
    if (!existsSync(dir)) continue
    for (const name of readdirSync(dir)) {
      if (['node', 'nodejs', 'npm', 'npx', 'corepack'].includes(name) || existsSync(join(NO_NODE, name)))
        continue
      symlinkSync(join(dir, name), join(NO_NODE, name))
    }
  }
})

describe('the single executable, on a PATH without node', () => {
  test('is built, and node is not on that PATH', () => {
    assert.equal(built.status, 0, built.stderr)
    const which = spawnSync('sh', ['-c', 'command -v node'], { env: { PATH: NO_NODE }, encoding: 'utf8' })
    assert.notEqual(which.status, 0, which.stdout)
  })

  for (const c of smokeCases(
    REPO,
    join(T.root, 'work'),
    mysqlSkip() === false ? () => mysql.url : undefined,
  )) {
    test(c.name, (t) => {
      if (built.status !== 0) return t.skip('not built (see the test above)')
      c.run((args, o = {}) =>
        runCliSync(args, {
          ...o,
          program: true,
          bin: SEA,
          env: { ...o.env, PATH: NO_NODE, ONGRID_SKILL_SEA_DIR: join(T.root, 'unpacked') },
        }),
      )
    })
  }
})

describe('the single executable runs only what it unpacked', () => {
  const run = (env: Record<string, string | undefined>) =>
    runCliSync(['--version'], { program: true, bin: SEA, env: { PATH: NO_NODE, ...env } })

  test('ONGRID_SKILL_SEA_DIR another user made (or may write): refused in one line, nothing run', (t) => {
    if (built.status !== 0) return t.skip('not built')
    const shared = join(T.root, 'shared')
    mkdirSync(shared)
    if (process.getuid?.() === 0) chownSync(shared, 65534, 65534)
    chmodSync(shared, 0o777)
    const r = run({ ONGRID_SKILL_SEA_DIR: shared })
    assert.equal(r.code, 2, r.stderr)
    assert.equal(r.stdout, '')
    assert.match(
      r.stderr,
      /^ongrid-skill: refused: .*shared: (owned by uid 65534, not by this user \(uid 0\)|writable by group and others \(mode 0777\)) \(set ONGRID_SKILL_SEA_DIR to a dir of your own\)\n$/,
    )
    assert.deepEqual(readdirSync(shared), [])
  })

  test('a launcher changed in the unpacked dir is not run: unpacked afresh', (t) => {
    if (built.status !== 0) return t.skip('not built')
    const base = join(T.root, 'tampered')
    const first = run({ ONGRID_SKILL_SEA_DIR: base })
    assert.equal(first.code, 0, first.stderr)
    const [hash] = readdirSync(base)
    const launcher = join(base, hash as string, 'bin', 'run.js')
    const real = readFileSync(launcher, 'utf8')
    writeFileSync(launcher, real.replace('(ongrid manager ', '(PLANTD manager '))
    const again = run({ ONGRID_SKILL_SEA_DIR: base })
    assert.equal(again.code, 0, again.stderr)
    assert.equal(again.stdout, first.stdout)
    assert.equal(readFileSync(launcher, 'utf8'), real)
    assert.deepEqual(readdirSync(base), [hash])
  })
})
