import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { createMysqlDb, mysqlSkip } from './fixtures/audit/db.js'
import { REPO, runCliSync } from './helpers/cli.js'
import { smokeCases } from './helpers/smoke.js'
import { tempRoot } from './helpers/tree.js'

/**
 * The npm package as a user installs it: `npm pack` (the dist/ built by `npm test`, scripts off),
 * then `npm install -g ./ongrid-skill-<v>.tgz` into an empty prefix, from npm's cache when it has
 * the packages (CI's `npm ci` just filled it) — then every command from that prefix's bin/.
 */
const T = tempRoot('ongrid-pkg-')
after(T.cleanup)
const PREFIX = join(T.root, 'prefix')
const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8'))
const INSTALLED = join(PREFIX, 'lib/node_modules', pkg.name)
const CLI = join(PREFIX, 'bin', pkg.name)

let install: { status: number | null; stderr: string; stdout: string } = {
  status: null,
  stderr: '',
  stdout: '',
}

const mysql = { url: '', drop: async () => {} }
before(async () => {
  if (mysqlSkip() === false) Object.assign(mysql, await createMysqlDb())
})
after(() => mysql.drop())

before(() => {
  const packed = spawnSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', T.root], {
    cwd: REPO,
    encoding: 'utf8',
  })
  assert.equal(packed.status, 0, packed.stderr)
  const tgz = join(T.root, JSON.parse(packed.stdout)[0].filename)
  // From the temp dir: the repository's .npmrc and node_modules play no part.
  install = spawnSync(
    'npm',
    ['install', '-g', '--prefix', PREFIX, '--prefer-offline', '--no-audit', '--no-fund', tgz],
    { cwd: T.root, encoding: 'utf8', env: { ...process.env, npm_config_loglevel: 'warn' } },
  )
})

/** Every package.json under node_modules/, nested ones included. */
function installedPackages(dir: string): { name: string; json: Record<string, unknown> }[] {
  const out: { name: string; json: Record<string, unknown> }[] = []
  const nm = join(dir, 'node_modules')
  if (!existsSync(nm)) return out
  for (const e of readdirSync(nm)) {
    const names = e.startsWith('@') ? readdirSync(join(nm, e)).map((s) => `${e}/${s}`) : [e]
    for (const name of names) {
      const p = join(nm, name, 'package.json')
      if (e.startsWith('.') || !existsSync(p)) continue
      out.push({ name, json: JSON.parse(readFileSync(p, 'utf8')) })
      out.push(...installedPackages(join(nm, name)))
    }
  }
  return out
}

describe('npm install -g ./ongrid-skill-<v>.tgz into an empty prefix', () => {
  test('installs with only runtime dependencies and nothing built at install', () => {
    assert.equal(install.status, 0, install.stderr)
    // The bin link is the launcher of the installed package.
    assert.equal(realpathSync(CLI), join(realpathSync(INSTALLED), 'bin/run.js'))
    for (const f of ['dist/bundle/fast.js', 'dist/bundle/fast.cache', 'oclif.manifest.json']) {
      assert.ok(statSync(join(INSTALLED, f)).size > 0, f)
    }
    const deps = installedPackages(INSTALLED)
    const names = new Set(deps.map((d) => d.name))
    // A devDependency is there only as some runtime package's own dependency (or peer).
    const needed = new Set(
      deps.flatMap((d) =>
        Object.keys({
          ...(d.json.dependencies ?? {}),
          ...(d.json.optionalDependencies ?? {}),
          ...(d.json.peerDependencies ?? {}),
        }),
      ),
    )
    for (const dev of Object.keys(pkg.devDependencies)) {
      assert.ok(!names.has(dev) || needed.has(dev), `devDependency ${dev} installed`)
    }
    for (const tool of [
      'typescript',
      'oclif',
      'esbuild',
      'better-sqlite3',
      '@modelcontextprotocol/inspector',
    ]) {
      assert.ok(!names.has(tool), `${tool} installed`)
    }
    for (const run of Object.keys(pkg.dependencies)) assert.ok(names.has(run), `${run} missing`)
    // No install step: no package runs a script, and no native addon is anywhere.
    for (const d of deps) {
      const scripts = (d.json.scripts ?? {}) as Record<string, string>
      for (const s of ['preinstall', 'install', 'postinstall']) {
        assert.equal(scripts[s], undefined, `${d.name} has an ${s} script`)
      }
      assert.ok(
        !existsSync(join(INSTALLED, 'node_modules', d.name, 'binding.gyp')),
        `${d.name} builds an addon`,
      )
    }
    const addons = spawnSync('find', [INSTALLED, '-name', '*.node', '-type', 'f'], { encoding: 'utf8' })
    assert.equal(addons.stdout, '')
  })

  for (const c of smokeCases(
    INSTALLED,
    join(T.root, 'work'),
    mysqlSkip() === false ? () => mysql.url : undefined,
  )) {
    test(c.name, (t) => {
      if (install.status !== 0) return t.skip('not installed (see the test above)')
      c.run((args, o = {}) => runCliSync(args, { ...o, program: true, bin: CLI }))
    })
  }
})
