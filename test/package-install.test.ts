import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { createMysqlDb, mysqlSkip } from './fixtures/audit/db.js'
import { REPO, runCliSync, startCli } from './helpers/cli.js'
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

/**
 * The installed-size budget of `npm run bench` (figure `install`, du -sb of the installed package,
 * MB = 10⁶ bytes): checked here too, so a dependency that brings back tens of megabytes fails a
 * test and not only the bench.
 */
const SIZE_BUDGET = 40e6

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

  test(`installed size within the bench's budget (≤ ${SIZE_BUDGET / 1e6} MB)`, (t) => {
    if (install.status !== 0) return t.skip('not installed (see the test above)')
    const du = spawnSync('du', ['-sb', INSTALLED], { encoding: 'utf8' })
    assert.equal(du.status, 0, du.stderr)
    const bytes = Number(du.stdout.split('\t')[0])
    assert.ok(bytes > 1e6, du.stdout)
    assert.ok(bytes <= SIZE_BUDGET, `installed size ${(bytes / 1e6).toFixed(1)} MB > ${SIZE_BUDGET / 1e6} MB`)
  })

  test('the packages bundled at build time are not installed, and their licenses are shipped', (t) => {
    if (install.status !== 0) return t.skip('not installed (see the test above)')
    const names = new Set(installedPackages(INSTALLED).map((d) => d.name))
    for (const bundled of [
      'ink',
      'tar-stream',
      'mysql2',
      'recheck',
      '@modelcontextprotocol/sdk',
      'es-toolkit',
    ]) {
      assert.ok(!names.has(bundled), `${bundled} installed`)
    }
    assert.deepEqual(
      [...names].filter((n) => n.startsWith('recheck-')),
      [],
      "recheck's native and Java backends installed",
    )
    for (const [file, pkgs] of [
      ['dist/vendor/THIRD-PARTY-LICENSES.txt', ['ink', 'tar-stream', 'mysql2', 'recheck', 'synckit']],
      ['dist/bundle/THIRD-PARTY-LICENSES.txt', ['@modelcontextprotocol/sdk', 'zod', 'hono']],
    ] as const) {
      const text = readFileSync(join(INSTALLED, file), 'utf8')
      for (const p of pkgs)
        assert.match(text, new RegExp(`^${p.replace('/', '\\/')}@\\d\\S* \\(`, 'm'), `${p} in ${file}`)
      assert.match(text, /Permission is hereby granted/)
    }
  })

  test('mcp --http (the Streamable HTTP bundle): initialize over HTTP', async (t) => {
    if (install.status !== 0) return t.skip('not installed (see the test above)')
    const skills = join(INSTALLED, 'examples/skills')
    const child = startCli(['mcp', skills, '--no-audit', '--http', '0'], {
      program: true,
      bin: CLI,
      cwd: T.root,
      stdin: 'ignore',
    })
    let err = ''
    try {
      const url = await new Promise<string>((resolve, reject) => {
        child.stderr.on('data', (c: Buffer) => {
          err += c
          const m = /Streamable HTTP on (http:\/\/127\.0\.0\.1:\d+\/mcp)\n/.exec(err)
          if (m) resolve(m[1])
        })
        child.once('exit', () => reject(new Error(`exited: ${err}`)))
      })
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: {
            protocolVersion: '2025-06-18',
            capabilities: {},
            clientInfo: { name: 'pkg', version: '1' },
          },
        }),
      })
      assert.equal(res.status, 200, err)
      assert.ok(res.headers.get('mcp-session-id'))
      assert.match(await res.text(), /"serverInfo":\{"name":"ongrid-skill"/)
    } finally {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r))
        child.kill('SIGTERM')
        await exited
      }
    }
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
