import assert from 'node:assert/strict'
import { join } from 'node:path'
import { after } from 'node:test'
import { type CliResult, runCli } from './cli.js'
import { ManagerServer } from './manager-server.js'
import { makeTree, tempRoot } from './tree.js'

/** The accounts the test manager (manager-server.ts) knows. */
export const ADMIN = { email: 'admin@example.com', password: 'admin-pass-1' }
export const VIEWER = { email: 'viewer@example.com', password: 'viewer-pass-2' }

export interface RemoteRunOptions {
  home: string
  input?: string
  env?: Record<string, string | undefined>
  timeoutMs?: number
  cwd?: string
}

/**
 * `remote` run as a user runs it, against test managers this file starts. Every output of every
 * run is kept (`outputs`; a test may add its own) and, once the file's tests are over, searched
 * for the passwords and every token the servers signed, whole or its signature part alone: none
 * may appear.
 */
export function remoteHarness(prefix: string) {
  const outputs: string[] = []
  const servers: ManagerServer[] = []
  const tmp = tempRoot(prefix)
  after(async () => {
    // Closed first: a failed assertion below must not leave them holding the process open.
    for (const s of servers) await s.close()
    tmp.cleanup()
    const all = outputs.join('\n')
    for (const s of servers) {
      for (const t of s.issued) assert.ok(!all.includes(t), 'a token reached an output')
      for (const t of s.issued)
        assert.ok(!all.includes(t.split('.')[2]), 'a token signature reached an output')
      for (const u of s.users)
        assert.ok(!all.includes(u.password), `the password of ${u.email} reached an output`)
    }
  })

  let count = 0
  /** A number not given before in this file (for dir names). */
  const next = () => count++
  /** A fresh config home (credentials.json under it). */
  const home = (): string => {
    const d = join(tmp.root, `home-${next()}`)
    makeTree(d, { '.keep': '' })
    return d
  }
  const run = async (args: string[], o: RemoteRunOptions = { home: '' }): Promise<CliResult> => {
    const r = await runCli(['remote', ...args], {
      env: {
        XDG_CONFIG_HOME: o.home,
        HOME: o.home,
        ONGRID_MANAGER_URL: undefined,
        ONGRID_PASSWORD: undefined,
        ONGRID_EMAIL: undefined,
        NODE_EXTRA_CA_CERTS: undefined,
        ...o.env,
      },
      input: o.input,
      cwd: o.cwd,
      timeoutMs: o.timeoutMs ?? 30_000,
    })
    outputs.push(r.stdout, r.stderr)
    return r
  }
  const server = async (
    opts: ConstructorParameters<typeof ManagerServer>[0] = {},
  ): Promise<ManagerServer> => {
    const s = await new ManagerServer(opts).start()
    servers.push(s)
    return s
  }
  const login = async (s: ManagerServer, h: string, who = ADMIN): Promise<void> => {
    const r = await run(['login', '--manager', s.url, '--email', who.email, '--password-stdin'], {
      home: h,
      input: `${who.password}\n`,
    })
    assert.equal(r.code, 0, r.stderr)
  }
  return { tmp, outputs, next, home, run, server, login }
}
