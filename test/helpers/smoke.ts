/**
 * A smoke of every command, for an installed copy of the CLI (the npm package in a temp prefix,
 * the single executable): each case starts it as a user would, from a temp dir, and checks the
 * exit code and one line it must print. The installed package's own examples/ are the packs.
 */
import assert from 'node:assert/strict'
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { CliOptions, CliResult } from './cli.js'

export type Runner = (args: string[], o?: CliOptions) => CliResult

export interface SmokeCase {
  name: string
  run: (cli: Runner) => void
}

/** MCP messages: initialize, then tools/list; the server answers both and ends at EOF. */
const MCP_INPUT = `${[
  {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'smoke', version: '1' } },
  },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '2.0', id: 2, method: 'tools/list' },
]
  .map((m) => JSON.stringify(m))
  .join('\n')}\n`

const ok = (r: CliResult, what: string, code = 0) =>
  assert.equal(r.code, code, `${what}: exit ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`)

/**
 * The cases, in order (later ones use what earlier ones wrote). `pkg` is where the package's
 * examples/ are; `work` an empty dir; `mysqlUrl` gives a database with the manager's tables.
 */
export function smokeCases(pkg: string, work: string, mysqlUrl?: () => string): SmokeCase[] {
  const skills = join(pkg, 'examples/skills')
  const disk = join(skills, 'disk_usage')
  const market = join(pkg, 'examples/marketplace/hello-pack')
  const store = join(work, 'state/ongrid-skill/audit.db')
  const env = { XDG_STATE_HOME: join(work, 'state'), HOME: work }
  const o = (more: CliOptions = {}): CliOptions => ({ cwd: work, ...more, env: { ...env, ...more.env } })
  mkdirSync(work, { recursive: true })
  const cases: SmokeCase[] = [
    {
      name: '--version',
      run: (cli) => {
        const r = cli(['--version'], o())
        ok(r, '--version')
        assert.match(r.stdout, /^ongrid-skill\/\d+\.\d+\.\d+ linux-x64 node-v\d+/)
      },
    },
    {
      name: 'help (oclif)',
      run: (cli) => {
        const r = cli(['help', 'lint'], o())
        ok(r, 'help')
        assert.match(r.stdout, /USAGE\n {2}\$ ongrid-skill lint/)
      },
    },
    {
      name: 'validate',
      run: (cli) => {
        const r = cli(['validate', disk], o())
        ok(r, 'validate')
        assert.match(r.stdout, /no problems/)
      },
    },
    {
      name: 'lint --format github',
      run: (cli) => {
        const r = cli(['lint', join(skills, 'bad_name'), '--format', 'github'], o())
        ok(r, 'lint', 1)
        assert.match(r.stdout, /^::error /m)
      },
    },
    {
      name: 'lint: a ReDoS pattern (recheck, bundled)',
      run: (cli) => {
        const pack = join(work, 'redos')
        cpSync(disk, pack, { recursive: true })
        const manifest = JSON.parse(readFileSync(join(pack, 'skill.json'), 'utf8'))
        manifest.schema.properties.path = { type: 'string', pattern: '^(a+)+$' }
        writeFileSync(join(pack, 'skill.json'), JSON.stringify(manifest, null, 2))
        const r = cli(['lint', pack], o())
        ok(r, 'lint')
        assert.match(r.stdout, /backtracks catastrophically \(exponential time\).*schema\/redos-pattern/)
      },
    },
    {
      name: 'load-dirs',
      run: (cli) => {
        const r = cli(['load-dirs', skills], o())
        ok(r, 'load-dirs')
        assert.match(r.stdout, /registered subprocess skill "disk_usage"/)
      },
    },
    {
      name: 'run (writes the local audit store)',
      run: (cli) => {
        const r = cli(['run', disk, '--json'], o())
        ok(r, 'run')
        const j = JSON.parse(r.stdout)
        assert.equal(j.ok, true, r.stdout)
        assert.equal(j.audit.recorded, true, r.stdout)
        assert.equal(r.stderr, '')
        assert.ok(existsSync(store))
      },
    },
    {
      name: 'run on a terminal (the ink view)',
      run: (cli) => {
        const r = cli(['run', disk], o({ tty: true, columns: 100, env: { TERM: 'xterm' } }))
        ok(r, 'run on a terminal')
        assert.match(r.stdout, /disk_usage/)
        assert.doesNotMatch(r.stdout, /ExperimentalWarning|Error:/)
      },
    },
    {
      name: 'audit tail over SQLite',
      run: (cli) => {
        const r = cli(['audit', 'tail', '-n', '5', '--json'], o())
        ok(r, 'audit tail')
        // JSON lines: the rows, then the document (schemas/output/audit-tail.schema.json).
        const lines = r.stdout
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l))
        const doc = lines.pop()
        assert.equal(doc.command, 'audit tail', r.stdout)
        assert.equal(doc.rows, 2, r.stdout)
        assert.equal(lines.length, 2, r.stdout)
        assert.equal(lines[0].skill, 'disk_usage')
        assert.equal(r.stderr, '')
        const s = cli(['audit', 'tail', '--db', `sqlite:${store}`, '-n', '1'], o())
        ok(s, 'audit tail --db sqlite:')
        assert.match(s.stdout, /disk_usage/)
      },
    },
    {
      name: 'init, then test its cases',
      run: (cli) => {
        const i = cli(
          ['init', 'smoke_skill', '--no-input', '-d', 'A skill of the smoke test.', '-t', 'bash'],
          o(),
        )
        ok(i, 'init')
        const t = cli(['test', join(work, 'smoke-skill')], o())
        ok(t, 'test')
        assert.match(t.stdout, /pass/)
      },
    },
    {
      name: 'marketplace keygen, sign, verify, check, pack',
      run: (cli) => {
        const packDir = join(work, 'hello-pack')
        mkdirSync(packDir, { recursive: true })
        // A copy to sign, so the package's own example is never written.
        const cp = cli(['marketplace', 'pack', market, '-o', join(work, 'hello.tar.gz')], o())
        ok(cp, 'marketplace pack')
        ok(cli(['marketplace', 'check', market], o()), 'marketplace check')
        ok(cli(['marketplace', 'check', join(work, 'hello.tar.gz')], o()), 'marketplace check (archive)')
        const k = cli(['marketplace', 'keygen', '--out', join(work, 'key.pem')], o())
        ok(k, 'marketplace keygen')
        assert.ok(readFileSync(join(work, 'key.pub'), 'utf8').includes('PUBLIC KEY'))
        const v = cli(['marketplace', 'verify', join(work, 'hello.tar.gz')], o())
        ok(v, 'marketplace verify')
      },
    },
    {
      name: 'mcp over stdio: initialize, tools/list',
      run: (cli) => {
        const r = cli(['mcp', skills], o({ input: MCP_INPUT, timeoutMs: 30_000 }))
        ok(r, 'mcp')
        const answers = r.stdout
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l))
        const list = answers.find((a) => a.id === 2)
        assert.ok(
          list?.result?.tools?.some((t: { name: string }) => t.name === 'disk_usage'),
          r.stdout,
        )
      },
    },
    {
      name: 'completion',
      run: (cli) => {
        const r = cli(['completion', 'bash'], o())
        ok(r, 'completion')
        assert.match(r.stdout, /-F _ongrid_skill ongrid-skill$/m)
      },
    },
    {
      name: 'an unknown command: one line, exit 2',
      run: (cli) => {
        const r = cli(['lnit'], o())
        ok(r, 'unknown command', 2)
        assert.match(r.stderr, /^ongrid-skill: /)
      },
    },
  ]
  if (mysqlUrl !== undefined) {
    cases.push({
      name: 'audit tail over MySQL',
      run: (cli) => {
        const r = cli(['audit', 'tail', '--db', mysqlUrl(), '-n', '1'], o())
        ok(r, 'audit tail --db mysql://')
      },
    })
  }
  return cases
}
