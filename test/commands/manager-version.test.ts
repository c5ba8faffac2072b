/**
 * `--manager-version` as a user meets it: each difference between the releases at its boundary
 * (goldens in test/core/releases/release.test.ts, read from the manager's code at each tag), the
 * refusal of any other value, and which of flag, env and config wins.
 */
import assert from 'node:assert/strict'
import { existsSync, readFileSync, rmSync } from 'node:fs'
import { after, before, describe, test } from 'node:test'
import { type CliResult, runCli } from '../helpers/cli.js'
import { frame, startLsp, stopLsp, unframe, uri } from '../helpers/lsp.js'
import { ManagerServer } from '../helpers/manager-server.js'
import { makeTree, manifest, tempRoot } from '../helpers/tree.js'

const SUPPORTED = 'v0.10.1, v0.10.2, v0.11.0, v0.11.1, v0.12.0, v0.13.0, v0.13.1, v0.13.2, v0.13.3, v0.13.4'

let R = ''
let cleanup = () => {}
before(() => {
  ;({ root: R, cleanup } = tempRoot('ongrid-manager-version-'))
  const pack = (name: string) => ({
    [`${name}/p/skill.json`]: manifest({ name, description: 'Probes a host.', class: 'safe' }),
    // The entry leaves a mark: a refused run must not start it.
    [`${name}/p/run.sh`]: { exec: `#!/bin/sh\ntouch "${'$'}0.ran"\necho '{}'\n` },
  })
  const agent = (extra: string) =>
    `---\nname: helper\ndescription: Helps.\nwhen_to_use: When help is needed.\n${extra}---\nYou help.\n`
  makeTree(R, {
    ...pack('host_probe_ping'),
    ...pack('execute_k8s_action'),
    ...pack('send_notification'),
    ...pack('query_network_devices'),
    'agents-pack/.claude-plugin/plugin.json': JSON.stringify({
      name: 'demo',
      version: '1.0.0',
      description: 'A pack.',
    }),
    'agents-pack/skills/hello/SKILL.md': '---\nname: hello\ndescription: Says hello.\n---\nSay hello.\n',
    'agents-pack/agents/typed.md': agent(
      'can_delegate: true\ncapabilities:\n  - id: triage\n    max_tool_calls: 3\n',
    ),
    'agents-pack/agents/mistyped.md': agent('can_delegate: maybe\n'),
    'config/.ongrid-skill.yaml': 'manager_version: v0.12.0\n',
    'config/bad/.ongrid-skill.yaml': 'manager_version: 13\n',
    'home/.keep': '',
  })
})
after(() => cleanup())

const cli = (
  argv: string[],
  env: Record<string, string | undefined> = {},
  cwd = `${R}/home`,
): Promise<CliResult> => runCli(argv, { cwd, env, timeoutMs: 60_000 })

/** load-dirs' one line for the pack named `name`. */
async function loaderLine(name: string, more: string[] = [], env = {}, cwd?: string): Promise<string> {
  const r = await cli(['load-dirs', `${R}/${name}`, ...more], env, cwd)
  assert.equal(r.code, 0, r.stderr)
  return r.stdout.trimEnd()
}

const registered = (name: string) =>
  `skill loader: registered subprocess skill "${name}" from ${R}/${name}/p/skill.json`
const taken = (name: string) =>
  `skill loader: skill "${name}" already registered, skipping ${R}/${name}/p/skill.json`

describe('builtin keys: host_probe_ping is one from v0.13.0', () => {
  test('load-dirs: registered on v0.12.0, "already registered" on v0.13.0 and by default', async () => {
    assert.equal(
      await loaderLine('host_probe_ping', ['--manager-version', 'v0.12.0']),
      registered('host_probe_ping'),
    )
    assert.equal(
      await loaderLine('host_probe_ping', ['--manager-version', 'v0.13.0']),
      taken('host_probe_ping'),
    )
    assert.equal(await loaderLine('host_probe_ping'), taken('host_probe_ping'))
  })

  test('validate: the builtin-name error on v0.13.0 only; the summary names a release that is not the default', async () => {
    const old = await cli(['validate', `${R}/host_probe_ping`, '--manager-version', 'v0.12.0'])
    assert.equal(old.code, 0, old.stdout)
    assert.match(old.stdout, /answered for ongrid manager v0\.12\.0 \(the newest supported is v0\.13\.4\)\n$/)
    const now = await cli(['validate', `${R}/host_probe_ping`, '--manager-version', 'v0.13.0', '--json'])
    assert.equal(now.code, 1)
    const doc = JSON.parse(now.stdout)
    assert.equal(doc.manager_version, 'v0.13.0')
    assert.deepEqual(
      doc.files[0].findings.map((f: { rule_id: string }) => f.rule_id),
      ['manager/builtin-name'],
    )
    const newest = await cli(['validate', `${R}/host_probe_ping`])
    assert.equal(newest.code, 1)
    assert.doesNotMatch(newest.stdout, /answered for/)
  })

  test('run by name: a builtin from v0.13.0, a pack before', async () => {
    const byName = ['run', 'host_probe_ping', '--dirs', `${R}/host_probe_ping`, '--no-audit', '-q']
    const old = await cli([...byName, '--manager-version', 'v0.12.0'])
    assert.equal(old.code, 0, old.stderr)
    assert.equal(old.stdout, '{}\n')
    const now = await cli([...byName, '--manager-version', 'v0.13.0'])
    assert.equal(now.code, 2)
    assert.match(now.stderr, /host_probe_ping is a builtin skill of the manager, not a subprocess pack/)
  })
})

describe("the agents' tools (practice/agent-tool-name)", () => {
  /** lint's practice/agent-tool-name messages for the pack named `name` at this release. */
  async function toolFindings(name: string, version: string): Promise<string[]> {
    const r = await cli(['lint', `${R}/${name}`, '--json', '--manager-version', version])
    const doc = JSON.parse(r.stdout)
    assert.equal(doc.manager_version, version)
    return doc.files
      .flatMap((f: { findings: { rule_id: string; message: string }[] }) => f.findings)
      .filter((x: { rule_id: string }) => x.rule_id === 'practice/agent-tool-name')
      .map((x: { message: string }) =>
        x.message.replace(/^"[a-z_0-9]+" is a built-in tool of the manager's (\w+) agent.*$/, '$1'),
      )
  }

  test("execute_k8s_action: the graph agent's before v0.12.0, the legacy agent's from it", async () => {
    assert.deepEqual(await toolFindings('execute_k8s_action', 'v0.11.1'), ['graph'])
    assert.deepEqual(await toolFindings('execute_k8s_action', 'v0.12.0'), ['legacy'])
  })

  test('query_network_devices joins the graph agent in v0.12.0, send_notification in v0.13.0', async () => {
    assert.deepEqual(await toolFindings('query_network_devices', 'v0.11.1'), [])
    assert.deepEqual(await toolFindings('query_network_devices', 'v0.12.0'), ['graph'])
    assert.deepEqual(await toolFindings('send_notification', 'v0.12.0'), [])
    assert.deepEqual(await toolFindings('send_notification', 'v0.13.0'), ['graph'])
  })
})

describe("eval: the request's tools are the release's", () => {
  /** The names of the tools eval's first request offers, and where each comes from. */
  async function offered(pack: string, version: string, more: string[] = []): Promise<Map<string, string>> {
    const r = await cli([
      'eval',
      `${R}/${pack}`,
      '--print-request',
      '--prompt',
      'ping db1',
      '--json',
      '--manager-version',
      version,
      ...more,
    ])
    assert.equal(r.code, 0, r.stderr)
    const doc = JSON.parse(r.stdout) as { manager_version: string; tools: { name: string; kind: string }[] }
    assert.equal(doc.manager_version, version)
    return new Map(doc.tools.map((t) => [t.name, t.kind]))
  }
  test('host_probe_ping: the pack on v0.12.0, the builtin skill from v0.13.0', async () => {
    assert.equal((await offered('host_probe_ping', 'v0.12.0')).get('host_probe_ping'), 'pack')
    assert.equal((await offered('host_probe_ping', 'v0.13.0')).get('host_probe_ping'), 'builtin')
  })
  test('execute_k8s_action, for an admin with write actions on: a tool of the legacy agent from v0.12.0', async () => {
    // The pack of that name replaces the builtin in the registry where there is one (v0.12.0).
    assert.equal(
      (await offered('send_notification', 'v0.11.1', ['--k8s-write'])).has('execute_k8s_action'),
      false,
    )
    assert.equal(
      (await offered('send_notification', 'v0.12.0', ['--k8s-write'])).get('execute_k8s_action'),
      'builtin',
    )
  })
})

describe('chatruntime.Agent: capabilities and can_delegate decoded from v0.13.0', () => {
  async function check(version: string) {
    const r = await cli(['marketplace', 'check', `${R}/agents-pack`, '--json', '--manager-version', version])
    assert.equal(r.code, 0, r.stderr)
    return JSON.parse(r.stdout) as {
      manager_version: string
      agents: { name: string; path: string }[]
      warnings: { path: string; code: string; reason: string }[]
    }
  }

  test('v0.12.0 ignores them as unknown fields: both agents load', async () => {
    const doc = await check('v0.12.0')
    assert.equal(doc.manager_version, 'v0.12.0')
    assert.deepEqual(doc.agents.map((a) => a.path.replace(/^.*\//, '')).sort(), ['mistyped.md', 'typed.md'])
    assert.deepEqual(
      doc.warnings.filter((w) => w.code === 'parse_failed'),
      [],
    )
  })

  test('v0.13.0 decodes them: a mistyped can_delegate fails its agent with parse_failed', async () => {
    const doc = await check('v0.13.0')
    assert.equal(doc.agents.length, 1)
    assert.match(doc.agents[0].path, /typed\.md$/)
    assert.doesNotMatch(doc.agents[0].path, /mistyped/)
    const failed = doc.warnings.filter((w) => w.code === 'parse_failed')
    assert.equal(failed.length, 1)
    assert.match(failed[0].path, /mistyped\.md$/)
    assert.match(
      failed[0].reason,
      /frontmatter: yaml: unmarshal errors:\n {2}line 4: cannot unmarshal !!str `maybe` into bool$/,
    )
  })
})

describe('any other release is refused: one line, exit 2, nothing done', () => {
  const commands = (): string[][] => [
    ['validate', `${R}/host_probe_ping`],
    ['lint', `${R}/host_probe_ping`],
    ['load-dirs', `${R}/host_probe_ping`],
    ['run', `${R}/host_probe_ping/p`, '--no-audit'],
    ['test', `${R}/host_probe_ping`],
    ['mcp', `${R}/host_probe_ping`],
    ['marketplace', 'check', `${R}/agents-pack`],
    ['eval', `${R}/host_probe_ping`, '--print-request', '--prompt', 'x'],
  ]
  const line = (from: string, v: string) =>
    `ongrid-skill: ${from}: unsupported manager version "${v}": supported are ${SUPPORTED}\n`

  test('the flag, on every command that takes it', async () => {
    rmSync(`${R}/host_probe_ping/p/run.sh.ran`, { force: true })
    for (const argv of commands()) {
      const r = await cli([...argv, '--manager-version', 'v0.13.5'])
      assert.equal(r.code, 2, `${argv.join(' ')}: ${r.stderr}`)
      assert.equal(r.stdout, '', argv.join(' '))
      assert.equal(r.stderr, line('--manager-version', 'v0.13.5'), argv.join(' '))
    }
    assert.equal(existsSync(`${R}/host_probe_ping/p/run.sh.ran`), false, 'run started the entry')
  })

  test('the env and the config, named as where the value came from; --json is one document', async () => {
    const env = await cli(['load-dirs', `${R}/host_probe_ping`], { ONGRID_MANAGER_VERSION: 'latest' })
    assert.equal(env.code, 2)
    assert.equal(env.stderr, line('ONGRID_MANAGER_VERSION', 'latest'))
    const config = await cli(['validate', `${R}/host_probe_ping`], {}, `${R}/config/bad`)
    assert.equal(config.code, 2)
    assert.equal(
      config.stderr,
      `ongrid-skill: ${R}/config/bad/.ongrid-skill.yaml: manager_version: expected a release, as v0.13.4\n`,
    )
    const json = await cli(['run', `${R}/host_probe_ping/p`, '--json', '--manager-version', '0.13.4'])
    assert.equal(json.code, 2)
    const doc = JSON.parse(json.stdout)
    assert.equal(doc.error.message, line('--manager-version', '0.13.4').slice('ongrid-skill: '.length, -1))
    assert.equal('manager_version' in doc, false)
  })
})

describe('which release: the flag, else ONGRID_MANAGER_VERSION, else the config, else the newest', () => {
  test('precedence', async () => {
    const cfg = `${R}/config`
    // The config (in the working dir's ancestry) says v0.12.0.
    assert.equal(await loaderLine('host_probe_ping', [], {}, cfg), registered('host_probe_ping'))
    // The env wins over it, the flag over both.
    assert.equal(
      await loaderLine('host_probe_ping', [], { ONGRID_MANAGER_VERSION: 'v0.13.0' }, cfg),
      taken('host_probe_ping'),
    )
    assert.equal(
      await loaderLine(
        'host_probe_ping',
        ['--manager-version', 'v0.12.0'],
        { ONGRID_MANAGER_VERSION: 'v0.13.0' },
        cfg,
      ),
      registered('host_probe_ping'),
    )
    // --no-config and --config: validate reads the config it is told to.
    const none = await cli(['validate', `${R}/host_probe_ping`, '--no-config', '--json'], {}, cfg)
    assert.equal(JSON.parse(none.stdout).manager_version, 'v0.13.4')
    const named = await cli([
      'validate',
      `${R}/host_probe_ping`,
      '--config',
      `${cfg}/.ongrid-skill.yaml`,
      '--json',
    ])
    assert.equal(JSON.parse(named.stdout).manager_version, 'v0.12.0')
    // Nothing names one: the newest.
    assert.equal(await loaderLine('host_probe_ping'), taken('host_probe_ping'))
  })

  test('version --json lists the releases supported, the default last', async () => {
    const r = await cli(['version', '--json'])
    const doc = JSON.parse(r.stdout)
    assert.deepEqual(doc.manager_versions, SUPPORTED.split(', '))
    assert.equal(doc.manager_release, 'v0.13.4')
  })
})

describe('lsp: the managerVersion setting', () => {
  test('v0.12.0: host_probe_ping is no builtin; another value: initialize fails with the line', async () => {
    const file = `${R}/host_probe_ping/p/skill.json`
    const codes = async (init: Record<string, unknown>) => {
      const c = await startLsp(`${R}/host_probe_ping`, { init })
      try {
        await c.open(file, readFileSync(file, 'utf8'))
        const d = await c.waitDiagnostics(uri(file))
        return d.map((x) => x.code)
      } finally {
        await stopLsp(c)
      }
    }
    assert.ok((await codes({})).includes('manager/builtin-name'))
    assert.equal((await codes({ managerVersion: 'v0.12.0' })).includes('manager/builtin-name'), false)
    // Another value: initialize is answered with the one line (a client then says it and stops).
    const r = await runCli(['lsp', '--stdio'], {
      input:
        frame({
          id: 1,
          method: 'initialize',
          params: {
            processId: null,
            rootUri: null,
            capabilities: {},
            initializationOptions: { managerVersion: 'v9' },
          },
        }) + frame({ method: 'exit' }),
      timeoutMs: 60_000,
    })
    const answer = unframe(r.stdoutBytes).find((m) => m.id === 1) as
      | { error?: { message: string } }
      | undefined
    assert.equal(
      answer?.error?.message,
      `managerVersion: unsupported manager version "v9": supported are ${SUPPORTED}`,
    )
  })
})

describe('remote: the release deployed there', () => {
  const ADMIN = { email: 'admin@example.com', password: 'admin-pass-1' }
  const servers: ManagerServer[] = []
  after(async () => {
    for (const s of servers) await s.close()
  })

  /** A manager answering GET /api/v1/version with `version`, logged in to from a fresh home. */
  async function loggedIn(version: string) {
    const s = await new ManagerServer({ version }).start()
    servers.push(s)
    const home = `${R}/home-${version}`
    makeTree(home, { '.keep': '' })
    const env = { XDG_CONFIG_HOME: home, HOME: home, ONGRID_MANAGER_URL: undefined }
    const r = await runCli(
      ['remote', 'login', '--manager', s.url, '--email', ADMIN.email, '--password-stdin'],
      {
        env,
        input: `${ADMIN.password}\n`,
        timeoutMs: 30_000,
      },
    )
    assert.equal(r.code, 0, r.stderr)
    return { s, env }
  }

  test("remote diff loads the local side with the deployed release's builtin keys", async () => {
    const keys = async (version: string) => {
      const { s, env } = await loggedIn(version)
      const r = await runCli(['remote', 'diff', `${R}/host_probe_ping`, '--manager', s.url, '--json'], {
        env,
        timeoutMs: 30_000,
      })
      const doc = JSON.parse(r.stdout)
      assert.equal(doc.manager_version, version)
      return doc.entries
        .filter((e: { path?: string }) => e.path?.startsWith(R))
        .map((e: { id: string }) => e.id)
    }
    // v0.12.0 registers the local pack (so it is compared); v0.13.0 skips it as a builtin.
    assert.deepEqual(await keys('v0.12.0'), ['host_probe_ping'])
    assert.deepEqual(await keys('v0.13.0'), [])
  })

  test('a local command warns when the default profile runs another release', async () => {
    const { s, env } = await loggedIn('v0.12.0')
    const dir = `${R}/profiled`
    makeTree(dir, { '.ongrid-skill.yaml': `manager:\n  default:\n    url: ${s.url}\n` })
    const other = await runCli(['load-dirs', `${R}/host_probe_ping`], { env, cwd: dir, timeoutMs: 30_000 })
    assert.equal(
      other.stderr.split('\n')[0],
      `ongrid-skill: warning: the default manager profile (${s.url}) runs "v0.12.0", this answers for v0.13.4 (--manager-version v0.12.0 to answer for it)`,
    )
    const same = await runCli(['load-dirs', `${R}/host_probe_ping`, '--manager-version', 'v0.12.0'], {
      env,
      cwd: dir,
      timeoutMs: 30_000,
    })
    assert.doesNotMatch(same.stderr, /warning/)
  })
})
