import assert from 'node:assert/strict'
import { mkdirSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { before, describe, test } from 'node:test'
import { runCli, startCli } from '../helpers/cli.js'
import { type ManagerServer, makeCertificate } from '../helpers/manager-server.js'
import { ADMIN, remoteHarness, VIEWER } from '../helpers/remote-cli.js'
import { makeTree, manifest } from '../helpers/tree.js'
import { until } from '../helpers/until.js'

/**
 * `remote` against our test double of the manager's REST API (test/helpers/manager-server.ts,
 * written from ../shared/spec/remote-contract.md). Every output of every run is kept and, at the
 * end, searched for the passwords and every token the server signed: none may appear. Every
 * --json document is checked against its schema by the CLI helpers (test/helpers/json-output.ts).
 */

const { tmp, outputs, next, home, run, server, login } = remoteHarness('ongrid-remote-')

const credFile = (h: string) => join(h, 'ongrid-skill', 'credentials.json')

describe('remote login, whoami, logout', () => {
  let s: ManagerServer
  before(async () => {
    s = await server()
  })

  test('login keeps the tokens 0600 in a 0700 dir, per manager URL; whoami shows user, role, version, expiry', async () => {
    const h = home()
    await login(s, h)
    assert.equal(statSync(credFile(h)).mode & 0o777, 0o600)
    assert.equal(statSync(join(h, 'ongrid-skill')).mode & 0o777, 0o700)
    const kept = JSON.parse(readFileSync(credFile(h), 'utf8'))
    assert.deepEqual(Object.keys(kept.managers), [s.url])
    assert.ok(!JSON.stringify(kept).includes(ADMIN.password), 'the password is never stored')
    // The one manager logged in to is the default.
    const w = await run(['whoami', '--json'], { home: h })
    assert.equal(w.code, 0, w.stderr)
    const doc = JSON.parse(w.stdout)
    assert.deepEqual(doc.user, { id: 1, email: ADMIN.email, role: 'admin' })
    assert.equal(doc.manager_version, 'v0.13.4')
    assert.equal(doc.access_expires_at, new Date((s.now + 900) * 1000).toISOString())
    assert.equal(doc.refresh_expires_at, new Date((s.now + 168 * 3600) * 1000).toISOString())
    const t = await run(['whoami'], { home: h })
    assert.match(t.stdout, /^role {6}admin$/m)
    // The login body went as JSON with the two fields.
    assert.deepEqual(JSON.parse(s.authBodies.at(-1) ?? ''), { email: ADMIN.email, password: ADMIN.password })
  })

  test('ONGRID_PASSWORD; without a password and no terminal: exit 2, never argv', async () => {
    const h = home()
    const r = await run(['login', '--manager', s.url, '--email', VIEWER.email], {
      home: h,
      env: { ONGRID_PASSWORD: VIEWER.password },
    })
    assert.equal(r.code, 0, r.stderr)
    const none = await run(['login', '--manager', s.url, '--email', VIEWER.email], { home: home() })
    assert.equal(none.code, 2)
    assert.match(none.stderr, /no password: stdin is not a terminal/)
    const argv = await run(['login', '--manager', s.url, '--email', VIEWER.email, '--password', 'x'], {
      home: home(),
    })
    assert.equal(argv.code, 2)
  })

  test("a wrong password is the manager's 401 quoted, exit 4; the throttle's 429 says when to retry", async () => {
    const t = await server()
    const h = home()
    for (let i = 0; i < 6; i++) {
      const r = await run(['login', '--manager', t.url, '--email', ADMIN.email, '--password-stdin'], {
        home: h,
        input: 'wrong\n',
      })
      assert.equal(r.code, 4)
      assert.equal(
        r.stderr,
        `ongrid-skill: login as ${ADMIN.email}: the manager answered 401 "unauthorized"\nhint: wrong email or password, or the user is disabled\n`,
      )
    }
    // Blocked now, even with the right password.
    const r = await run(['login', '--manager', t.url, '--email', ADMIN.email, '--password-stdin'], {
      home: h,
      input: `${ADMIN.password}\n`,
    })
    assert.equal(r.code, 5)
    assert.match(r.stderr, /answered 429 "too many attempts"\nhint: .*try again in 15 minutes/)
    assert.equal(t.requests.filter((q) => q.url === '/api/v1/auth/login').length, 7)
  })

  test('logout forgets the session; then a command asks for login (exit 4)', async () => {
    const h = home()
    await login(s, h)
    const out = await run(['logout', '--manager', s.url], { home: h })
    assert.equal(
      JSON.parse((await run(['logout', '--manager', s.url, '--json'], { home: h })).stdout).forgotten,
      false,
    )
    assert.equal(out.code, 0)
    assert.match(out.stdout, /tokens stay valid until they expire/)
    const r = await run(['whoami', '--manager', s.url], { home: h })
    assert.equal(r.code, 4)
    assert.equal(
      r.stderr,
      `ongrid-skill: not logged in to ${s.url}\nhint: log in: ongrid-skill remote login --manager ${s.url}\n`,
    )
  })

  test('a server that is not an ongrid manager: said so, its own text quoted', async () => {
    const other = http.createServer((_, res) => {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' })
      res.end('404 page not found\n')
    })
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', r))
    const url = `http://127.0.0.1:${(other.address() as AddressInfo).port}`
    try {
      const r = await run(['login', '--manager', url, '--email', 'a@b', '--password-stdin'], {
        home: home(),
        input: 'pw\n',
      })
      assert.equal(r.code, 3)
      assert.match(r.stderr, /answered 404 "404 page not found"\nhint: is .* an ongrid manager\?/)
    } finally {
      other.close()
    }
  })

  test('plain http only to loopback; a user or password in the URL refused', async () => {
    const r = await run(['whoami', '--manager', 'http://ongrid.example.com'], { home: home() })
    assert.equal(r.code, 2)
    assert.match(r.stderr, /plain http to a host that is not loopback/)
    const u = await run(['whoami', '--manager', 'https://me:secret-in-url@ongrid.example.com'], {
      home: home(),
    })
    assert.equal(u.code, 2)
    assert.ok(!u.stderr.includes('secret-in-url'))
  })
})

describe('remote ls, get, exec', () => {
  let s: ManagerServer
  let h: string
  before(async () => {
    s = await server({
      outcomes: {
        disk_usage: { result: { used: 42 } },
        query_promql: { error: 'prometheus: no datasource configured' },
        host_probe_tcp: { transport: 'tunnel closed' },
      },
    })
    h = home()
    await login(s, h)
  })

  test('ls: the manager fields as they are, each skill with its kind', async () => {
    const r = await run(['ls', '--json'], { home: h })
    assert.equal(r.code, 0, r.stderr)
    const doc = JSON.parse(r.stdout)
    assert.deepEqual(
      doc.skills.map((x: { key: string; kind: string }) => [x.key, x.kind]),
      [
        ['disk_usage', 'subprocess'],
        ['host_probe_tcp', 'builtin'],
        ['host_restart_service', 'builtin'],
        ['query_promql', 'bridged-tool'],
        ['wipe_all', 'subprocess'],
        ['terraform_runner', 'skill-md'],
      ],
    )
    const tcp = doc.skills.find((x: { key: string }) => x.key === 'host_probe_tcp')
    assert.deepEqual(tcp.params[1], { name: 'timeout_ms', type: 'int', default: 0, desc: 'timeout' })
    const cat = JSON.parse((await run(['ls', '--category', 'telemetry', '--json'], { home: h })).stdout)
    assert.deepEqual(
      cat.skills.map((x: { key: string }) => x.key),
      ['query_promql'],
    )
    assert.ok(s.requests.some((q) => q.url === '/api/v1/skills?category=telemetry'))
  })

  test('get: a SKILL.md skill is listed but never fetched, and said so; an unknown key quotes the 404', async () => {
    const md = await run(['get', 'terraform_runner'], { home: h })
    assert.equal(md.code, 5)
    assert.match(md.stderr, /terraform_runner is a SKILL.md skill/)
    const none = await run(['get', 'nope'], { home: h })
    assert.equal(none.code, 5)
    assert.match(none.stderr, /GET \/api\/v1\/skills\/nope: the manager answered 404 "not found"/)
  })

  test('exec: the result; a 200 carrying error is exit 1; a 500 is the manager refusing', async () => {
    const ok = await run(['exec', 'disk_usage', '--arg', 'path=/var', '--json'], { home: h })
    assert.equal(ok.code, 0, ok.stderr)
    const doc = JSON.parse(ok.stdout)
    assert.deepEqual([doc.ok, doc.result, doc.error, doc.args], [true, { used: 42 }, null, { path: '/var' }])
    assert.deepEqual(s.executions.at(-1), {
      key: 'disk_usage',
      edge_id: 0,
      role: 'admin',
      params: { path: '/var' },
    })
    const failed = await run(['exec', 'query_promql'], { home: h })
    assert.equal(failed.code, 1)
    assert.match(failed.stderr, /query_promql failed on the manager: "prometheus: no datasource configured"/)
    const failedJson = JSON.parse((await run(['exec', 'query_promql', '--json'], { home: h })).stdout)
    assert.deepEqual([failedJson.ok, failedJson.exit_code, failedJson.result], [false, 1, null])
    assert.deepEqual(failedJson.error, {
      message: 'query_promql failed on the manager: "prometheus: no datasource configured"',
      kind: 'failed',
      manager_error: 'prometheus: no datasource configured',
    })
    const tr = await run(
      ['exec', 'host_probe_tcp', '--edge', '4', '--arg', 'target=db:5432', '--arg', 'timeout_ms=7'],
      {
        home: h,
      },
    )
    assert.equal(tr.code, 5)
    assert.match(
      tr.stderr,
      /answered 500 "execute skill \\"host_probe_tcp\\" on edge 4: frontierbound: tunnel closed"/,
    )
    // --arg typed by the declared params: timeout_ms is an int.
    assert.deepEqual(s.executions.at(-1)?.params, { target: 'db:5432', timeout_ms: 7 })
  })

  test('exec: the class gate is shown and applied before calling (dangerous, viewer and mutating), host scope needs --edge', async () => {
    const before = s.requests.filter((q) => q.url.endsWith('/execute')).length
    const d = await run(['exec', 'wipe_all'], { home: h })
    assert.equal(d.code, 5)
    assert.match(d.stderr, /^wipe_all: dangerous, runs in the manager; role admin is refused\n/)
    assert.match(
      d.stderr,
      /"forbidden: dangerous skills require SOP signature \(not implemented\)" \(not called\)/,
    )
    const v = home()
    await login(s, v, VIEWER)
    const m = await run(['exec', 'host_restart_service', '--edge', '1', '--arg', 'unit=nginx'], { home: v })
    assert.equal(m.code, 5)
    assert.match(m.stderr, /"forbidden: viewer role cannot run mutating skills" \(not called\)/)
    const e = await run(['exec', 'host_probe_tcp', '--arg', 'target=x'], { home: h })
    assert.equal(e.code, 2)
    assert.match(e.stderr, /give --edge ID \(not called\)/)
    assert.equal(s.requests.filter((q) => q.url.endsWith('/execute')).length, before, 'nothing was executed')
  })
})

describe('remote: sessions that end, managers that stall, TLS', () => {
  test('an access token that expires mid-session is refreshed once; a refresh token past its end asks for login', async () => {
    const s = await server({ accessTtl: 60, refreshTtl: 600 })
    const h = home()
    await login(s, h)
    s.now += 120 // the access token has expired on the manager's clock
    const r = await run(['ls', '--json'], { home: h })
    assert.equal(r.code, 0, r.stderr)
    const calls = s.requests.slice(-3).map((q) => `${q.method} ${q.url}`)
    assert.deepEqual(calls, ['GET /api/v1/skills', 'POST /api/v1/auth/refresh', 'GET /api/v1/skills'])
    // The new pair was kept: the next call needs no refresh.
    const n = s.requests.length
    assert.equal((await run(['ls', '--json'], { home: h })).code, 0)
    assert.deepEqual(
      s.requests.slice(n).map((q) => q.url),
      ['/api/v1/skills'],
    )
    s.now += 1000 // past the refresh token too
    const ended = await run(['whoami'], { home: h })
    assert.equal(ended.code, 4)
    assert.match(
      ended.stderr,
      /^ongrid-skill: the session with .* has ended: refresh: the manager answered 401 "unauthorized"\nhint: log in: ongrid-skill remote login --manager /,
    )
  })

  test('an access token past its expiry here is refreshed before the call, not after a 401', async () => {
    const s = await server()
    const h = home()
    await login(s, h)
    const kept = JSON.parse(readFileSync(credFile(h), 'utf8'))
    kept.managers[s.url].access_expires_at = 1
    writeFileSync(credFile(h), JSON.stringify(kept))
    const n = s.requests.length
    assert.equal((await run(['ls', '--json'], { home: h })).code, 0)
    assert.deepEqual(
      s.requests.slice(n).map((q) => q.url),
      ['/api/v1/auth/refresh', '/api/v1/skills'],
    )
    assert.ok(JSON.parse(readFileSync(credFile(h), 'utf8')).managers[s.url].access_expires_at > 1)
  })

  test('a manager that stalls: --timeout gives up (exit 3); Ctrl-C ends the wait with 130', async () => {
    const s = await server()
    const h = home()
    await login(s, h)
    s.stall = true
    const r = await run(['ls', '--timeout', '1s'], { home: h })
    assert.equal(r.code, 3)
    assert.match(r.stderr, /GET \/api\/v1\/skills: no answer from .* within 1s/)
    const child = startCli(['remote', 'exec', 'disk_usage'], {
      env: { XDG_CONFIG_HOME: h, HOME: h, ONGRID_MANAGER_URL: undefined },
    })
    let err = ''
    child.stderr.on('data', (c: Buffer) => {
      err += c.toString()
    })
    const stalledBefore = s.requests.length
    await until('the request reached the manager', () => s.requests.length > stalledBefore, 20_000)
    child.kill('SIGINT')
    const code = await new Promise<number | null>((res) => child.on('close', (c) => res(c)))
    outputs.push(err)
    assert.equal(code, 130)
    assert.ok(!err.includes('internal error'), err)
  })

  test('https with a certificate made here: --ca trusts it; without, a one-line TLS error; --insecure warns on every call', async () => {
    const dir = join(tmp.root, 'tls')
    makeTree(dir, { '.keep': '' })
    const cert = makeCertificate(dir)
    const s = await server({ tls: { key: cert.key, cert: cert.cert } })
    const h = home()
    const no = await run(['login', '--manager', s.url, '--email', ADMIN.email, '--password-stdin'], {
      home: h,
      input: ADMIN.password,
    })
    assert.equal(no.code, 3)
    assert.match(
      no.stderr,
      /cannot reach the manager at https:.*: its TLS certificate is not trusted\nhint: .*--ca FILE/,
    )
    const ok = await run(
      ['login', '--manager', s.url, '--ca', cert.certFile, '--email', ADMIN.email, '--password-stdin'],
      {
        home: h,
        input: ADMIN.password,
      },
    )
    assert.equal(ok.code, 0, ok.stderr)
    const viaEnv = await run(['whoami'], { home: h, env: { NODE_EXTRA_CA_CERTS: cert.certFile } })
    assert.equal(viaEnv.code, 0, viaEnv.stderr)
    const ins = await run(['whoami', '--insecure'], { home: h })
    assert.equal(ins.code, 0, ins.stderr)
    // A manager: profile in .ongrid-skill.yaml names the manager and its CA (relative to the file).
    const repo = join(tmp.root, 'repo')
    makeTree(repo, {
      '.ongrid-skill.yaml': `manager:\n  default:\n    url: ${s.url}\n    ca: ../tls/cert.pem\n  other:\n    url: https://127.0.0.1:1\n`,
      'sub/.keep': '',
    })
    const viaProfile = await run(['whoami', '--json'], { home: h, cwd: join(repo, 'sub') })
    assert.equal(viaProfile.code, 0, viaProfile.stderr)
    assert.equal(JSON.parse(viaProfile.stdout).manager, s.url)
    const missing = await run(['whoami', '--profile', 'nope'], { home: h, cwd: repo })
    assert.equal(missing.code, 2)
    assert.match(missing.stderr, /has no such manager profile \(it has default, other\)/)
    // whoami makes two calls: two warnings.
    assert.equal(
      ins.stderr.match(/warning: TLS certificate of https:\S+ not checked \(--insecure\)/g)?.length,
      2,
    )
  })
})

describe('remote push, installed, bind, uninstall, registries', () => {
  let s: ManagerServer
  let h: string
  before(async () => {
    s = await server()
    h = home()
    await login(s, h)
  })

  const pack = () => {
    const dir = join(tmp.root, `pack-${next()}`, 'tf-pack')
    makeTree(dir, {
      'openclaw.plugin.json': JSON.stringify({ id: 'tf-pack', name: 'TF pack', version: '1.2.0' }),
      'skills/terraform_runner/SKILL.md':
        '---\nname: terraform_runner\ndescription: Runs terraform.\n---\nBody.\n',
    })
    return dir
  }

  test('push DIR: checked, packed, uploaded; the install response shown; again: the 409 and what to do', async () => {
    const dir = pack()
    const r = await run(['push', dir, '--json'], { home: h })
    assert.equal(r.code, 0, r.stderr)
    const doc = JSON.parse(r.stdout)
    assert.equal(doc.pack.pack_id, 'tf-pack')
    assert.equal(doc.pack.version, '1.2.0')
    assert.deepEqual(doc.pack.capabilities.skills, [
      { name: 'terraform_runner', scope: 'manager', tool_classes: null },
    ])
    assert.deepEqual(doc.warnings, [])
    const again = await run(['push', dir], { home: h })
    assert.equal(again.code, 5)
    assert.match(
      again.stderr,
      /upload: the manager answered 409 "conflict: pack \\"tf-pack\\" already installed \(use Update or Uninstall first\)"\nhint: the manager has no update route: uninstall it/,
    )
  })

  test('push refuses what the manager would refuse, without sending it', async () => {
    const dir = join(tmp.root, 'not-a-pack')
    makeTree(dir, { 'README.md': 'nothing here\n' })
    const n = s.requests.length
    const r = await run(['push', dir], { home: h })
    assert.equal(r.code, 1)
    assert.match(r.stderr, /not a recognized pack layout/)
    assert.equal(s.requests.length, n, 'nothing was sent')
  })

  test('push: an archive over the upload limit is refused before sending', async () => {
    const big = join(tmp.root, 'big.tar.gz')
    writeFileSync(big, '')
    truncateSync(big, 65 << 20)
    const n = s.requests.length
    const r = await run(['push', big], { home: h })
    assert.equal(r.code, 1)
    assert.match(r.stderr, /not sent, the manager would refuse it: .*request body too large/)
    assert.equal(s.requests.length, n)
  })

  test('installed, bind, uninstall; registries shows dev mode', async () => {
    const inst = JSON.parse((await run(['installed', '--json'], { home: h })).stdout)
    assert.deepEqual(
      inst.packs.map((p: { pack_id: string }) => p.pack_id),
      ['tf-pack'],
    )
    const b = await run(['bind', 'tf-pack', 'tencentcloud=prod-tencent', ' aws = ops-aws '], { home: h })
    assert.equal(b.code, 0, b.stderr)
    assert.equal(s.installed[0].BindingsJSON, '{"aws":"ops-aws","tencentcloud":"prod-tencent"}')
    const missing = await run(['bind', 'nope', 'a=b'], { home: h })
    assert.equal(missing.code, 5)
    const reg = await run(['registries'], { home: h })
    assert.match(reg.stdout, /<dev-mode>\nThe manager runs in dev mode/)
    const u = await run(['uninstall', 'tf-pack'], { home: h })
    assert.match(u.stdout, /^Uninstalled tf-pack/)
    assert.equal(JSON.parse((await run(['registries', '--json'], { home: h })).stdout).dev_mode, true)
    assert.equal((await run(['bind', 'tf-pack', '--clear', '--json'], { home: h })).code, 5)
    const u2 = await run(['uninstall', 'tf-pack'], { home: h })
    assert.equal(
      JSON.parse((await run(['uninstall', 'tf-pack', '--json'], { home: h })).stdout).was_installed,
      false,
    )
    assert.match(u2.stdout, /was not installed \(the manager answers 204 all the same\)/)
    const v = home()
    await login(s, v, VIEWER)
    const refused = await run(['uninstall', 'x'], { home: v })
    assert.equal(refused.code, 5)
    assert.match(refused.stderr, /answered 403 "forbidden"/)
  })
})

test('failures with --json are the envelope, with what the manager said', async () => {
  const s = await server()
  const h = home()
  const r = await run(['login', '--manager', s.url, '--email', ADMIN.email, '--password-stdin', '--json'], {
    home: h,
    input: 'wrong',
  })
  assert.equal(r.code, 4)
  const doc = JSON.parse(r.stdout)
  assert.deepEqual(doc.error, {
    message: `login as ${ADMIN.email}: the manager answered 401 "unauthorized"`,
    kind: 'unauthorized',
    hint: 'wrong email or password, or the user is disabled',
    http_status: 401,
    manager_error: 'unauthorized',
  })
  await login(s, h)
  const nf = JSON.parse((await run(['get', 'nope', '--json'], { home: h })).stdout)
  assert.deepEqual([nf.exit_code, nf.error.kind, nf.error.http_status], [5, 'refused', 404])
})

describe('remote diff', () => {
  test('subprocess packs by key, marketplace packs by manifest sha256; what is not compared; exit 1 on drift', async () => {
    const s = await server()
    const h = home()
    await login(s, h)
    const root = join(tmp.root, 'diff')
    makeTree(root, {
      'skills/disk_usage/skill.json': manifest({ name: 'disk_usage', description: 'Reports disk usage.' }),
      'skills/disk_usage/run.sh': { exec: '#!/bin/sh\necho {}\n' },
      'skills/wipe_all/skill.json': manifest({ name: 'wipe_all', description: 'Wipes.', class: 'dangerous' }),
      'skills/wipe_all/run.sh': { exec: '#!/bin/sh\necho {}\n' },
      'tf-pack/openclaw.plugin.json': JSON.stringify({ id: 'tf-pack', version: '1.0.0' }),
      'tf-pack/skills/terraform_runner/SKILL.md': '---\nname: terraform_runner\ndescription: Runs.\n---\n',
    })
    const same = await run(['diff', join(root, 'skills'), '--json'], { home: h })
    assert.equal(same.code, 0, same.stderr)
    const doc = JSON.parse(same.stdout)
    assert.equal(doc.drift, false)
    assert.match(doc.not_compared[0], /schema, entry, env_allow, timeout_seconds/)
    writeFileSync(
      join(root, 'skills/wipe_all/skill.json'),
      manifest({ name: 'wipe_all', description: 'Wipes everything.', class: 'dangerous' }),
    )
    const changed = await run(['diff', join(root, 'skills'), join(root, 'tf-pack')], { home: h })
    assert.equal(changed.code, 1)
    assert.match(changed.stdout, /^changed {2}subprocess wipe_all/m)
    assert.match(changed.stdout, /description: here "Wipes everything.", there "Wipes."/)
    assert.match(changed.stdout, /^missing there {2}marketplace tf-pack/m)
    assert.match(changed.stdout, /^not compared: marketplace packs: SKILL.md, script and binary contents/m)
    // Pushed, it is the same on both sides, by its manifest's sha256.
    assert.equal((await run(['push', join(root, 'tf-pack')], { home: h })).code, 0)
    const after = JSON.parse((await run(['diff', join(root, 'tf-pack'), '--json'], { home: h })).stdout)
    assert.deepEqual(after.entries, [
      { kind: 'marketplace', id: 'tf-pack', state: 'same', changes: [], path: join(root, 'tf-pack') },
    ])
    writeFileSync(
      join(root, 'tf-pack/openclaw.plugin.json'),
      JSON.stringify({ id: 'tf-pack', version: '1.0.1' }),
    )
    const drift = JSON.parse((await run(['diff', join(root, 'tf-pack'), '--json'], { home: h })).stdout)
    assert.deepEqual(
      drift.entries[0].changes.map((c: { field: string }) => c.field),
      ['manifest_sha256', 'version'],
    )
  })

  test('a DIR named in Latin-1 (not UTF-8) is the dir given: its packs are compared', async () => {
    const s = await server()
    const h = home()
    await login(s, h)
    const dir = Buffer.from(join(tmp.root, 'caf\xe9'), 'latin1')
    const at = (rel: string) => Buffer.concat([dir, Buffer.from(rel)])
    mkdirSync(at('/skills/latin'), { recursive: true })
    writeFileSync(at('/skills/latin/skill.json'), manifest({ name: 'latin', description: 'Latin.' }))
    writeFileSync(at('/skills/latin/run.sh'), '#!/bin/sh\necho {}\n', { mode: 0o755 })
    const r = await runCli(['remote', 'diff', '--json'], {
      sh: `exec "$0" "$@" "$(printf '${tmp.root}/caf\\351/skills')"`,
      env: { XDG_CONFIG_HOME: h, HOME: h, ONGRID_MANAGER_URL: undefined },
      timeoutMs: 30_000,
    })
    outputs.push(r.stdout, r.stderr)
    assert.equal(r.code, 1, r.stderr)
    const doc = JSON.parse(r.stdout)
    const latin = doc.entries.find((e: { id: string }) => e.id === 'latin')
    assert.equal(latin?.kind, 'subprocess', r.stdout)
    assert.notEqual(latin?.state, 'same')
  })
})
