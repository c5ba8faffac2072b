import assert from 'node:assert/strict'
import { chownSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, describe, test } from 'node:test'
import { type CliResult, runCli } from '../helpers/cli.js'
import { ManagerServer } from '../helpers/manager-server.js'
import { makeTree, tempRoot } from '../helpers/tree.js'

/**
 * `remote` facing what another user or a server planted: credentials are written only into a
 * dir and file of the user running it, the manager's strings are escaped on a terminal, an
 * installed pack with fields left out is shown, and NODE_DEBUG=net never prints the token.
 */

const ADMIN = { email: 'admin@example.com', password: 'admin-pass-1' }
const tmp = tempRoot('ongrid-remote-hard-')
const servers: ManagerServer[] = []
after(async () => {
  for (const s of servers) await s.close()
  tmp.cleanup()
})

let n = 0
function home(): string {
  const d = join(tmp.root, `home-${n++}`)
  makeTree(d, { '.keep': '' })
  return d
}

function run(
  args: string[],
  h: string,
  o: { tty?: boolean; env?: Record<string, string> } = {},
): Promise<CliResult> {
  return runCli(['remote', ...args], {
    env: {
      XDG_CONFIG_HOME: h,
      HOME: h,
      ONGRID_MANAGER_URL: undefined,
      ONGRID_EMAIL: undefined,
      NODE_EXTRA_CA_CERTS: undefined,
      ONGRID_PASSWORD: ADMIN.password,
      ...o.env,
    },
    tty: o.tty,
    timeoutMs: 30_000,
  })
}

async function server(opts: ConstructorParameters<typeof ManagerServer>[0] = {}): Promise<ManagerServer> {
  const s = await new ManagerServer(opts).start()
  servers.push(s)
  return s
}

const NOBODY = 65534
const asRoot = process.getuid?.() === 0

describe('credentials only where the user running the command owns them', {
  skip: !asRoot && 'needs root to plant files as nobody',
}, () => {
  test('a credentials dir another user made: refused, naming it and its owner; their file untouched', async () => {
    const s = await server()
    const h = home()
    const dir = join(h, 'ongrid-skill')
    mkdirSync(dir, { mode: 0o777 })
    writeFileSync(join(dir, 'credentials.json'), '{}\n', { mode: 0o666 })
    chownSync(dir, NOBODY, NOBODY)
    chownSync(join(dir, 'credentials.json'), NOBODY, NOBODY)
    const r = await run(['login', '--manager', s.url, '--email', ADMIN.email], h)
    assert.equal(r.code, 2, r.stderr)
    assert.match(
      r.stderr,
      new RegExp(
        `^ongrid-skill: credentials ${dir}: owned by nobody \\(uid 65534\\), not by root \\(uid 0\\) who runs this: tokens are not written there\\n$`,
      ),
    )
    assert.equal(readFileSync(join(dir, 'credentials.json'), 'utf8'), '{}\n')
    assert.equal(statSync(join(dir, 'credentials.json')).uid, NOBODY)
  })

  test('a credentials file another user planted in our own dir: refused, naming the file', async () => {
    const s = await server()
    const h = home()
    const dir = join(h, 'ongrid-skill')
    mkdirSync(dir, { mode: 0o700 })
    const file = join(dir, 'credentials.json')
    writeFileSync(file, '{}\n', { mode: 0o644 })
    chownSync(file, NOBODY, NOBODY)
    const r = await run(['login', '--manager', s.url, '--email', ADMIN.email], h)
    assert.equal(r.code, 2, r.stderr)
    assert.match(
      r.stderr,
      new RegExp(`^ongrid-skill: credentials ${file}: owned by nobody \\(uid 65534\\), not by root`),
    )
    assert.equal(readFileSync(file, 'utf8'), '{}\n')
  })
})

describe("the manager's strings on a terminal", () => {
  test('login and whoami show the version, email and role escaped, not obeyed', async () => {
    // Lower case: the manager matches emails lowercased. An OSC 8 link, and ESC[2J in the version.
    const EVIL = 'ev\x1b]8;;http://x\x07il@example.com'
    const s = await server({
      version: 'v0.13.4\x1b]0;owned\x07\x1b[2J',
      users: [{ id: 1, email: EVIL, password: ADMIN.password, role: 'admin\x1b]52;c;Zm9v\x07' }],
    })
    const h = home()
    const l = await run(['login', '--manager', s.url, '--email', EVIL], h, { tty: true })
    assert.equal(l.code, 0, l.stdout)
    const w = await run(['whoami'], h, { tty: true })
    assert.equal(w.code, 0, w.stdout)
    for (const out of [l.stdout, w.stdout]) {
      assert.ok(!out.includes('\x1b'), JSON.stringify(out))
      assert.match(out, /ongrid v0\.13\.4\\x1b\]0;owned\\a/)
      assert.match(out, /ev\\x1b\]8;;http:\/\/x\\ail@example\.com/)
    }
  })
})

describe("exec's gate line and result on a terminal", () => {
  test("a skill's class from the manager is escaped in the gate line, not obeyed", async () => {
    const s = await server({
      skills: [
        {
          key: 'evil',
          name: 'evil',
          description: 'E.',
          class: 'safe\x1b]0;owned\x07' as never,
          scope: 'manager',
          params: [],
        },
      ],
      outcomes: { evil: { resultText: '{"ok":true}' } },
    })
    const h = home()
    assert.equal((await run(['login', '--manager', s.url, '--email', ADMIN.email], h)).code, 0)
    const r = await run(['exec', 'evil'], h, { tty: true })
    assert.equal(r.code, 0, r.stdout)
    assert.ok(!r.stdout.includes('\x1b'), JSON.stringify(r.stdout))
    assert.match(r.stdout, /^evil: safe\\x1b\]0;owned\\a, runs in the manager; role admin may run it\r?$/m)
  })
})

describe('an installed pack with fields left out', () => {
  test('installed (table and --json), push answers and diff never fail on a missing field', async () => {
    const s = await server({
      skills: [{ key: 'bare_skill', class: 'safe', params: [] } as never],
    })
    const h = home()
    assert.equal((await run(['login', '--manager', s.url, '--email', ADMIN.email], h)).code, 0)
    s.installed.push({ PackID: 'partial', ID: 7 } as never, {} as never)
    const t = await run(['installed'], h, { tty: true })
    assert.equal(t.code, 0, t.stdout)
    assert.match(t.stdout, /^partial\b/m)
    const j = await run(['installed', '--json'], h)
    assert.equal(j.code, 0, j.stderr)
    const doc = JSON.parse(j.stdout)
    assert.deepEqual(
      [doc.packs[1].pack_id, doc.packs[1].manifest_sha256, doc.packs[1].capabilities],
      ['partial', null, null],
    )
    const ls = await run(['ls'], h, { tty: true })
    assert.equal(ls.code, 0, ls.stdout)
    assert.match(ls.stdout, /^bare_skill\b/m)
    const pack = join(tmp.root, 'partial')
    makeTree(pack, {
      'openclaw.plugin.json': JSON.stringify({ id: 'partial', version: '1.0.0' }),
      'skills/p/SKILL.md': '---\nname: p\ndescription: P.\n---\n',
    })
    const d = await run(['diff', pack, '--json'], h)
    assert.equal(d.code, 1, d.stderr)
    assert.deepEqual(
      JSON.parse(d.stdout).entries[0].changes.map((c: { field: string; there: unknown }) => [
        c.field,
        c.there,
      ]),
      [
        ['manifest_sha256', null],
        ['version', null],
        ['display_name', null],
      ],
    )
  })
})

test('NODE_DEBUG=net: Node prints the request options, never the Bearer token', async () => {
  const s = await server()
  const h = home()
  assert.equal((await run(['login', '--manager', s.url, '--email', ADMIN.email], h)).code, 0)
  const r = await run(['whoami'], h, { env: { NODE_DEBUG: 'net,http,tls' } })
  assert.equal(r.code, 0, r.stderr)
  assert.match(r.stderr, /^NET \d+:/m, 'Node printed its debug lines')
  for (const t of s.issued) assert.ok(!r.stderr.includes(t.split('.')[2]), 'a token reached the debug output')
})
