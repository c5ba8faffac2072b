import assert from 'node:assert/strict'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { describe, test } from 'node:test'
import { runCli } from '../helpers/cli.js'
import { remoteHarness, VIEWER } from '../helpers/remote-cli.js'
import { makeTree } from '../helpers/tree.js'
import { until } from '../helpers/until.js'

/**
 * `remote` says what the manager said, as it said it (remote-contract §10), against the test
 * manager (test/helpers/manager-server.ts): the result's bytes, every refusal's status, text and
 * code, push then diff of every pack shape, the role of the token a call carries, what a client
 * timeout does, a server that is not a manager. No output may carry a password or a token.
 */

const { tmp, next, home, run, server, login } = remoteHarness('ongrid-remote-answers-')

describe('remote exec: the result as the manager sent it', () => {
  test('printed as its bytes, and in --json as those bytes and as text: no digit changed', async () => {
    const text = '{"id":9007199254740993,"ratio":1.0,"big":1e400,"s":"\\u003c"}'
    const s = await server({ outcomes: { disk_usage: { resultText: text } } })
    const h = home()
    await login(s, h)
    const r = await run(['exec', 'disk_usage', '-q'], { home: h })
    assert.equal(r.code, 0, r.stderr)
    assert.equal(r.stdout, `${text}\n`)
    const j = await run(['exec', 'disk_usage', '--json'], { home: h })
    assert.equal(j.code, 0, j.stderr)
    assert.ok(j.stdout.includes(`"result": ${text},`), j.stdout)
    assert.equal(JSON.parse(j.stdout).result_text, text)
  })

  test('a result that is not an object (a string, a number) and none at all', async () => {
    const s = await server({
      outcomes: { disk_usage: { resultText: '12345678901234567890' }, query_promql: { result: undefined } },
    })
    const h = home()
    await login(s, h)
    const r = await run(['exec', 'disk_usage', '-q'], { home: h })
    assert.equal(r.stdout, '12345678901234567890\n')
    const none = await run(['exec', 'query_promql', '--json'], { home: h })
    const doc = JSON.parse(none.stdout)
    assert.deepEqual([doc.result, doc.result_text], [null, null])
  })
})

describe('every refusal document carries the status, the text and the code the manager answered', () => {
  test('an unknown skill (get, exec), bind of a pack not installed, push of an installed pack', async () => {
    const s = await server()
    const h = home()
    await login(s, h)
    const refused = async (args: string[], status: number, text: string, code: string) => {
      const r = await run([...args, '--json'], { home: h })
      assert.equal(r.code, 5, r.stderr)
      const e = JSON.parse(r.stdout).error
      assert.deepEqual(
        [e.kind, e.http_status, e.manager_error, e.manager_code],
        ['refused', status, text, code],
        `${args.join(' ')}: ${r.stdout}`,
      )
    }
    await refused(['get', 'nope'], 404, 'not found', 'not-found')
    await refused(['exec', 'nope'], 404, 'not found', 'not-found')
    await refused(['get', 'terraform_runner'], 404, 'not found', 'not-found')
    await refused(['bind', 'nope', 'a=b'], 404, 'not found', 'not-found')
    const dir = join(tmp.root, 'dup', 'dup-pack')
    makeTree(dir, {
      'openclaw.plugin.json': JSON.stringify({ id: 'dup-pack', name: 'Dup', version: '1.0.0' }),
      'skills/dup_skill/SKILL.md': '---\nname: dup_skill\ndescription: Dup.\n---\n',
    })
    assert.equal((await run(['push', dir], { home: h })).code, 0)
    await refused(
      ['push', dir],
      409,
      'conflict: pack "dup-pack" already installed (use Update or Uninstall first)',
      'conflict',
    )
    // Refused before calling: what the execute handler would answer.
    await refused(
      ['exec', 'wipe_all'],
      403,
      'forbidden: dangerous skills require SOP signature (not implemented)',
      'forbidden',
    )
  })
})

describe('push, then diff of the same folder: no drift, whatever the pack shape', () => {
  const shapes: [string, string, Record<string, string>][] = [
    [
      'an openclaw manifest',
      'oc-pack',
      {
        'openclaw.plugin.json': JSON.stringify({ id: 'oc-pack', name: 'OC Pack', version: '1.0.0' }),
        'skills/oc_skill/SKILL.md': '---\nname: oc_skill\ndescription: OC.\n---\n',
      },
    ],
    [
      'a claude manifest',
      'Claude_Dir',
      {
        '.claude-plugin/plugin.json': JSON.stringify({ name: 'claude-pack', version: '2.0.0' }),
        'skills/cl_skill/SKILL.md': '---\nname: cl_skill\ndescription: CL.\n---\n',
      },
    ],
    [
      'no manifest, skills/<name>/SKILL.md, a folder name that is not an id',
      'W5_Bare',
      { 'skills/w5_skill/SKILL.md': '---\nname: w5_skill\ndescription: W5.\n---\n' },
    ],
    [
      'no manifest, a SKILL.md at the root',
      'Root Skill Pack',
      { 'SKILL.md': '---\nname: root_skill\ndescription: Root.\n---\n' },
    ],
  ]
  for (const [what, folder, files] of shapes) {
    test(what, async () => {
      const s = await server()
      const h = home()
      await login(s, h)
      const dir = join(tmp.root, `shape-${next()}`, folder)
      makeTree(dir, files)
      const p = await run(['push', dir, '--json'], { home: h })
      assert.equal(p.code, 0, p.stderr)
      const d = await run(['diff', dir, '--json'], { home: h })
      assert.equal(d.code, 0, d.stdout)
      const doc = JSON.parse(d.stdout)
      assert.equal(doc.drift, false, d.stdout)
      assert.deepEqual(
        doc.entries.map((e: { state: string }) => e.state),
        ['same'],
      )
      if (!('openclaw.plugin.json' in files) && !('.claude-plugin/plugin.json' in files)) {
        // The manager shows the folder's own name.
        assert.equal(s.installed[0].DisplayName, folder)
      }
    })
  }
})

describe('the role of the token a call carries', () => {
  test('a viewer promoted to user: the exec after the refresh that brings the new role runs', async () => {
    const s = await server({ accessTtl: 60 })
    const h = home()
    await login(s, h, VIEWER)
    const viewer = s.users.find((u) => u.email === VIEWER.email)
    assert.ok(viewer)
    viewer.role = 'user'
    // whoami: the database's role, and the token's, which the manager still checks.
    const w = await run(['whoami', '--json'], { home: h })
    assert.deepEqual([JSON.parse(w.stdout).user.role, JSON.parse(w.stdout).token_role], ['user', 'viewer'])
    const wt = await run(['whoami'], { home: h })
    assert.match(wt.stdout, /^role {6}user \(the session's token still says viewer: /m)
    s.now += 120 // the access token has expired: the next call refreshes it first
    const r = await run(['exec', 'host_restart_service', '--edge', '1', '--arg', 'unit=nginx'], { home: h })
    assert.equal(r.code, 0, r.stderr)
    assert.match(r.stderr, /role user may run it/)
    assert.equal(s.executions.at(-1)?.role, 'user')
  })
})

describe('remote exec --timeout', () => {
  test('said to cancel the skill on the manager: help, message, client_timeout in --json', async () => {
    const s = await server()
    const h = home()
    await login(s, h)
    s.stallExecute = true
    const r = await run(['exec', 'disk_usage', '--timeout', '1s', '--json'], { home: h })
    assert.equal(r.code, 3, r.stderr)
    const e = JSON.parse(r.stdout).error
    assert.equal(e.client_timeout, true)
    assert.match(e.message, /no answer from .* within 1s: the client gave up.*disk_usage was killed there/)
    await until('the manager saw its caller go', () => s.cancelled.includes('disk_usage'), 10_000)
    const help = await runCli(['remote', 'exec', '--help'])
    assert.match(help.stdout.replace(/\s+/g, ' '), /the manager then kills the skill/)
    // Another command's timeout kills nothing: no such field.
    s.stall = true
    const ls = await run(['ls', '--timeout', '1s', '--json'], { home: h })
    assert.equal(ls.code, 3)
    assert.equal(JSON.parse(ls.stdout).error.client_timeout, undefined)
  })
})

describe('a server that is not a manager', () => {
  for (const [status, type, body] of [
    [404, 'text/html', '<html><body>Not Found</body></html>'],
    [404, 'text/plain; charset=utf-8', '404 page not found\n'],
    [501, 'text/plain', 'Not Implemented\n'],
  ] as const) {
    test(`${status} ${type} at login: not an ongrid manager, exit 3 with the hint`, async () => {
      const other = http.createServer((_, res) => {
        res.writeHead(status, { 'Content-Type': type })
        res.end(body)
      })
      await new Promise<void>((r) => other.listen(0, '127.0.0.1', r))
      const url = `http://127.0.0.1:${(other.address() as AddressInfo).port}`
      try {
        const r = await run(['login', '--manager', url, '--email', 'a@b', '--password-stdin', '--json'], {
          home: home(),
          input: 'pw\n',
        })
        assert.equal(r.code, 3, r.stderr)
        assert.match(
          r.stderr,
          new RegExp(
            `^ongrid-skill: ${url} is not an ongrid manager: POST /api/v1/auth/login answered ${status} .*\\nhint: is ${url} an ongrid manager\\? its API has no such route\\n$`,
          ),
        )
        const e = JSON.parse(r.stdout).error
        assert.deepEqual([e.kind, e.http_status], ['unreachable', status])
      } finally {
        other.close()
      }
    })
  }
})
