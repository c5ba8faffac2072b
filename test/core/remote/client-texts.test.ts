import assert from 'node:assert/strict'
import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { after, describe, test } from 'node:test'
import { fromText } from '../../../src/core/go/gostring.js'
import { type ConfigError, loadConfig } from '../../../src/core/lint/config.js'
import { refusal } from '../../../src/core/remote/client.js'
import {
  CredentialStore,
  credentialsPath,
  type Session,
  tokenExpiry,
} from '../../../src/core/remote/credentials.js'
import {
  diffManager,
  type InstalledPack,
  type RemoteSkill,
  SUBPROCESS_PREVIEW,
} from '../../../src/core/remote/diff.js'
import {
  exchange,
  managerUrl,
  REMOTE_EXIT,
  type RemoteError,
  replyText,
} from '../../../src/core/remote/http.js'
import { makeTree, tempRoot } from '../../helpers/tree.js'

const tmp = tempRoot('ongrid-remote-core-')
after(() => tmp.cleanup())

describe('managerUrl', () => {
  test('https://host[:port], a trailing / or /api dropped', () => {
    assert.equal(managerUrl('https://ongrid.example.com/', false), 'https://ongrid.example.com')
    assert.equal(managerUrl('https://ongrid.example.com:8443/api', false), 'https://ongrid.example.com:8443')
    assert.equal(managerUrl('http://127.0.0.1:8080', false), 'http://127.0.0.1:8080')
    assert.equal(managerUrl('http://127.8.9.10', false), 'http://127.8.9.10')
    assert.equal(managerUrl('http://[::1]:80', false), 'http://[::1]')
    assert.equal(managerUrl('http://localhost:1', false), 'http://localhost:1')
    assert.equal(managerUrl('http://ongrid.lan', true), 'http://ongrid.lan')
  })

  test('refused: http off loopback, user info, a path, a query, another scheme, not a URL', () => {
    assert.throws(() => managerUrl('http://ongrid.lan', false), /plain http to a host that is not loopback/)
    assert.throws(() => managerUrl('http://128.0.0.1', false), /not loopback/)
    assert.throws(
      () => managerUrl('https://u:p@ongrid.lan', false),
      (e: Error) => !e.message.includes('u:p'),
    )
    assert.throws(() => managerUrl('https://ongrid.lan/console', false), /not a path/)
    assert.throws(() => managerUrl('https://ongrid.lan/?token=x', false), /no query/)
    assert.throws(() => managerUrl('ftp://ongrid.lan', false), /scheme ftp/)
    assert.throws(() => managerUrl('ongrid.lan', false), /is not a URL/)
  })
})

describe('the manager error texts', () => {
  const reply = (status: number, contentType: string, body: string) => ({
    status,
    contentType,
    body: Buffer.from(body),
  })

  test('a JSON {error, code}, a text/plain body without its newline, an HTML page by its title', () => {
    assert.deepEqual(
      replyText(reply(403, 'application/json', '{"error":"forbidden","code":"forbidden"}\n')),
      {
        text: 'forbidden',
        code: 'forbidden',
      },
    )
    assert.deepEqual(replyText(reply(401, 'text/plain; charset=utf-8', 'invalid token\n')), {
      text: 'invalid token',
    })
    assert.deepEqual(
      replyText(reply(504, 'text/html', '<html><head><title>504 Gateway Time-out</title></head></html>')),
      { text: '504 Gateway Time-out' },
    )
  })

  test('quoted on one line (errors.Join newlines as \\n), with the exit code and hint of its status', () => {
    const e = refusal(
      'POST /x',
      reply(400, 'application/json', '{"error":"invalid argument\\nEOF","code":"invalid"}'),
      'B',
    )
    assert.equal(e.message, 'POST /x: the manager answered 400 "invalid argument\\nEOF"')
    assert.equal(e.exitCode, REMOTE_EXIT.refused)
    assert.deepEqual([e.status, e.code, e.managerText], [400, 'invalid', 'invalid argument\nEOF'])
    const auth = refusal('GET /y', reply(401, 'text/plain', 'missing bearer token\n'), 'https://m')
    assert.equal(auth.exitCode, REMOTE_EXIT.auth)
    assert.equal(auth.hint, 'log in: ongrid-skill remote login --manager https://m')
    assert.match(refusal('l', reply(429, 'text/plain', 'too many attempts\n'), 'B').hint ?? '', /15 minutes/)
    assert.match(refusal('u', reply(413, 'text/html', '<title>413</title>'), 'B').hint ?? '', /70 MiB/)
    assert.match(
      refusal('g', reply(404, 'text/plain', '404 page not found\n'), 'B').hint ?? '',
      /an ongrid manager/,
    )
  })
})

describe('exchange', () => {
  test('a stalled manager: the deadline, then one line (exit 3); an abort ends the wait at once', async () => {
    const held: http.ServerResponse[] = []
    const s = http.createServer((_, res) => held.push(res))
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r))
    const base = `http://127.0.0.1:${(s.address() as AddressInfo).port}`
    try {
      await assert.rejects(
        exchange({ base, timeoutMs: 200 }, 'GET', '/api/v1/skills'),
        (e: RemoteError) =>
          e.exitCode === 3 && /^GET \/api\/v1\/skills: no answer from .* within 0.2s$/.test(e.message),
      )
      const c = new AbortController()
      const started = Date.now()
      const p = exchange({ base, timeoutMs: 60_000, signal: c.signal }, 'GET', '/api/v1/skills')
      setTimeout(() => c.abort(), 50)
      await assert.rejects(p, /stopped/)
      assert.ok(Date.now() - started < 30_000)
    } finally {
      for (const r of held) r.destroy()
      s.closeAllConnections()
      s.close()
    }
  })

  test('a closed port is one line with no stack', async () => {
    const s = http.createServer()
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r))
    const base = `http://127.0.0.1:${(s.address() as AddressInfo).port}`
    await new Promise<void>((r) => s.close(() => r()))
    await assert.rejects(exchange({ base, timeoutMs: 5000 }, 'GET', '/'), {
      message: `cannot reach the manager at ${base}: connection refused`,
    })
  })
})

describe('the credential store', () => {
  const session: Session = {
    email: 'a@b',
    role: 'admin',
    access_token: 'h.eyJleHAiOjEwfQ.s',
    refresh_token: 'r',
    access_expires_at: 10,
    refresh_expires_at: 0,
  }

  test('under XDG_CONFIG_HOME (absolute only), else ~/.config', () => {
    assert.equal(credentialsPath({ XDG_CONFIG_HOME: '/x', HOME: '/h' }), '/x/ongrid-skill/credentials.json')
    assert.equal(
      credentialsPath({ XDG_CONFIG_HOME: 'rel', HOME: '/h' }),
      '/h/.config/ongrid-skill/credentials.json',
    )
  })

  test('per manager URL; the file 0600 and its dir 0700, also when they were wider', () => {
    const dir = join(tmp.root, 'cfg', 'ongrid-skill')
    const path = join(dir, 'credentials.json')
    const store = new CredentialStore(path)
    assert.equal(store.get('https://a'), null)
    store.put('https://a', session)
    store.put('https://b', { ...session, email: 'c@d' })
    assert.equal(statSync(path).mode & 0o777, 0o600)
    assert.equal(statSync(dir).mode & 0o777, 0o700)
    assert.deepEqual(store.managers(), ['https://a', 'https://b'])
    chmodSync(path, 0o644)
    chmodSync(dir, 0o755)
    assert.equal(store.delete('https://a'), true)
    assert.equal(store.delete('https://a'), false)
    assert.equal(statSync(path).mode & 0o777, 0o600)
    assert.equal(statSync(dir).mode & 0o777, 0o700)
    assert.equal(new CredentialStore(path).get('https://b')?.email, 'c@d')
    assert.deepEqual(Object.keys(JSON.parse(readFileSync(path, 'utf8')).managers), ['https://b'])
  })

  test('a file that is not JSON, or not a regular file: one line', () => {
    const bad = join(tmp.root, 'bad.json')
    writeFileSync(bad, '{')
    assert.throws(() => new CredentialStore(bad).get('x'), /credentials .*bad.json: not JSON/)
    makeTree(tmp.root, { 'adir/credentials.json': { dir: true } })
    assert.throws(() => new CredentialStore(join(tmp.root, 'adir/credentials.json')).get('x'), /credentials /)
  })

  test("a token's exp, read without checking it", () => {
    assert.equal(tokenExpiry(session.access_token), 10)
    assert.equal(tokenExpiry('nodots'), null)
    assert.equal(tokenExpiry('a.!!!.c'), null)
  })
})

describe('diffManager', () => {
  const remoteSkill = (key: string, over: Partial<RemoteSkill> = {}): RemoteSkill => ({
    key,
    name: key,
    description: 'd',
    class: 'safe',
    scope: 'manager',
    category: 'external',
    params: [],
    result_preview: SUBPROCESS_PREVIEW,
    ...over,
  })
  const local = (key: string, over = {}) => ({
    key,
    description: 'd',
    class: 'safe',
    category: 'external',
    path: `/r/${key}/skill.json`,
    ...over,
  })
  const pack = (over: Partial<InstalledPack> = {}): InstalledPack => ({
    ID: 1,
    PackID: 'p',
    DisplayName: 'P',
    Version: '1.0.0',
    Source: 'local',
    ManifestSHA256: 'aa',
    SignatureState: 'unsigned',
    CapabilitiesJSON: '{"skills":[{"name":"s"}]}',
    BindingsJSON: '',
    InstalledAt: '',
    ...over,
  })

  test('subprocess packs: same, changed field by field, missing on either side, a builtin with the key', () => {
    const d = diffManager(
      {
        skills: [
          local('a'),
          local('b', { class: 'mutating', category: 'ops' }),
          local('c'),
          local('web_search'),
        ],
        packs: [],
      },
      {
        skills: [
          remoteSkill('a'),
          remoteSkill('b'),
          remoteSkill('z'),
          remoteSkill('web_search', { result_preview: 'x' }),
        ],
        installed: [pack()],
      },
    )
    assert.deepEqual(
      d.entries.map((e) => [e.id, e.state, e.changes.map((c) => c.field)]),
      [
        ['a', 'same', []],
        ['b', 'changed', ['class', 'category']],
        ['c', 'missing-there', []],
        ['web_search', 'other-kind-there', ['kind']],
        ['z', 'missing-here', []],
      ],
    )
    assert.equal(d.drift, true)
    // No local marketplace pack given: installed packs are not reported missing here.
    assert.ok(!d.entries.some((e) => e.kind === 'marketplace'))
    assert.equal(d.not_compared.length, 2)
  })

  test('marketplace packs: by id, manifest sha256, version, display name, skill names', () => {
    const l = { id: 'p', displayName: 'P', version: '1.0.0', manifestSha256: 'aa', skills: ['s'], path: '/p' }
    assert.equal(diffManager({ skills: [], packs: [l] }, { skills: [], installed: [pack()] }).drift, false)
    const d = diffManager(
      {
        skills: [],
        packs: [
          { ...l, manifestSha256: 'bb', skills: ['s', 't'] },
          { ...l, id: 'q' },
        ],
      },
      { skills: [], installed: [pack(), pack({ PackID: 'r' })] },
    )
    assert.deepEqual(
      d.entries.map((e) => [e.id, e.state, e.changes.map((c) => c.field)]),
      [
        ['p', 'changed', ['manifest_sha256', 'skills']],
        ['q', 'missing-there', []],
        ['r', 'missing-here', []],
      ],
    )
  })
})

describe('manager: profiles in .ongrid-skill.yaml', () => {
  const load = async (yaml: string) => {
    const dir = join(tmp.root, `cfg-${Math.random().toString(16).slice(2)}`)
    makeTree(dir, { '.ongrid-skill.yaml': yaml })
    return loadConfig(fromText(join(dir, '.ongrid-skill.yaml')), null).then((c) => ({ c, dir }))
  }

  test('profile name to url, ca (relative to the file), insecure; lint ignores them', async () => {
    const { c, dir } = await load(
      'rules: {}\nmanager:\n  default: {url: "https://a", ca: ca.pem}\n  lab: {url: "https://b", ca: /etc/ca.pem, insecure: true}\n',
    )
    assert.deepEqual(
      [...(c.managers ?? [])],
      [
        ['default', { url: 'https://a', ca: `${dir}/ca.pem` }],
        ['lab', { url: 'https://b', ca: '/etc/ca.pem', insecure: true }],
      ],
    )
    assert.equal(c.rules.size, 0)
  })

  test('a profile of the wrong shape is a one-line config error', async () => {
    await assert.rejects(
      load('manager: https://a\n'),
      /manager: expected a mapping of profile name to \{url, ca\}/,
    )
    await assert.rejects(load('manager:\n  x: {ca: a}\n'), /manager: x: url: expected the manager's URL/)
    await assert.rejects(
      load('manager:\n  x: {url: u, token: t}\n'),
      /x: unknown key "token" \(expected url, ca, insecure\)/,
    )
    await assert.rejects(
      load('managers: {}\n'),
      (e: ConfigError) => /unknown key "managers"/.test(e.message) && e.hint === 'did you mean "manager"?',
    )
  })
})
