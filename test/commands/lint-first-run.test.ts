/**
 * The first `lint` of a pack `init` makes loads neither ajv, recheck, a worker thread nor
 * node:crypto: its pattern is proved linear (core/schema/linear-pattern.ts), its schema is proved
 * valid and its success case's args valid without ajv (core/schema/simple.ts), and only the
 * cases that expect success have their args checked. What each costs is in `npm run bench`
 * (lint-init-*); this holds the loading itself, which no clock decides.
 */
import assert from 'node:assert/strict'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, describe, test } from 'node:test'
import { runCli } from '../helpers/cli.js'
import { HAVE_SHELLCHECK } from '../helpers/shellcheck.js'
import { initCli } from './init-helpers.js'

const work = mkdtempSync(join(tmpdir(), 'ongrid-first-lint-'))
after(() => rmSync(work, { recursive: true, force: true }))

// Preloaded into the CLI's node: notes every module it resolves (import and require) and, at
// exit, writes what of interest was loaded to a file.
const hook = join(work, 'loads.mjs')
const report = join(work, 'loads.json')
writeFileSync(
  hook,
  `import { registerHooks } from 'node:module'
import { writeFileSync } from 'node:fs'
const seen = new Set()
registerHooks({ resolve(spec, ctx, next) { const r = next(spec, ctx); if (/ajv|recheck/.test(r.url)) seen.add(/recheck/.test(r.url) ? 'recheck' : 'ajv'); return r } })
process.on('exit', () => {
  for (const m of process.moduleLoadList) {
    if (m === 'NativeModule worker_threads') seen.add('worker_threads')
    if (m === 'NativeModule crypto') seen.add('node:crypto')
  }
  writeFileSync(${JSON.stringify(report)}, JSON.stringify([...seen].sort()))
})
`,
)

// ShellCheck's results are kept in this cache (fresh: the bash pack's first lint writes one).
const XDG_CACHE_HOME = join(work, 'cache')
mkdirSync(XDG_CACHE_HOME, { mode: 0o700 })
const wroteShellcheck = HAVE_SHELLCHECK

async function lintLoads(pack: string): Promise<{ code: number | null; loaded: string[]; out: string }> {
  rmSync(report, { force: true })
  const r = await runCli(['lint', pack], { node: ['--import', hook], env: { NO_COLOR: '1', XDG_CACHE_HOME } })
  return {
    code: r.code,
    loaded: JSON.parse(readFileSync(report, 'utf8')) as string[],
    out: r.stdout + r.stderr,
  }
}

describe('the first lint of a scaffolded pack loads nothing heavy', () => {
  for (const template of ['python', 'node', 'bash', 'go']) {
    test(`init -t ${template}`, async () => {
      const parent = mkdtempSync(join(work, `${template}-`))
      const made = await initCli(
        ['init', 'check_port', '-y', '-t', template, '-d', 'Checks whether a TCP port is open'],
        {
          cwd: parent,
        },
      )
      assert.equal(made.code, 0, made.stderr)
      const pack = join(parent, 'check-port')
      const manifest = JSON.parse(readFileSync(join(pack, 'skill.json'), 'utf8'))
      assert.equal(typeof manifest.schema.properties.host.pattern, 'string', 'the template has a pattern')
      const r = await lintLoads(pack)
      assert.equal(r.code, 0, r.out)
      // A shell entry's first check keeps ShellCheck's result (its temp file's random name loads
      // node:crypto, a few ms beside ShellCheck's own run); the next lint reads it back, loading nothing.
      assert.deepEqual(r.loaded, template === 'bash' && wroteShellcheck ? ['node:crypto'] : [])
      if (template === 'bash') assert.deepEqual((await lintLoads(pack)).loaded, [])
    })
  }

  /** The python template's pack, changed by `edit`, with one more case file. */
  async function changedPack(
    name: string,
    edit: (manifest: { schema: { properties: { host: { pattern?: string } } } }) => void,
    extraCase: object,
  ): Promise<string> {
    const parent = mkdtempSync(join(work, `${name}-`))
    const made = await initCli(['init', 'check_port', '-y', '-d', 'Checks whether a TCP port is open'], {
      cwd: parent,
    })
    assert.equal(made.code, 0, made.stderr)
    const pack = join(parent, 'check-port')
    const file = join(pack, 'skill.json')
    const manifest = JSON.parse(readFileSync(file, 'utf8'))
    edit(manifest)
    writeFileSync(file, JSON.stringify(manifest, null, 2))
    writeFileSync(join(pack, 'tests', 'more.json'), JSON.stringify(extraCase))
    return pack
  }

  test('the hook sees ajv: a case that expects success with bad args needs its messages', async () => {
    const pack = await changedPack('bad-args', () => {}, {
      name: 'port zero',
      args: { host: 'h', port: 0 },
      expect: { ok: true },
    })
    const r = await lintLoads(pack)
    assert.match(r.out, /tests\/args-schema/)
    assert.deepEqual(r.loaded, ['ajv'])
  })

  test('the hook sees recheck and the worker: a pattern the pre-filter cannot prove', async () => {
    const pack = await changedPack(
      'nested',
      (m) => {
        m.schema.properties.host.pattern = '^([a-z0-9]+)+$'
      },
      { name: 'one host', args: { host: 'h', port: 1 }, expect: { ok: true } },
    )
    const r = await lintLoads(pack)
    assert.match(r.out, /schema\/redos-pattern/)
    assert.ok(r.loaded.includes('recheck') && r.loaded.includes('worker_threads'), r.loaded.join())
  })
})
