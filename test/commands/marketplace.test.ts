import assert from 'node:assert/strict'
import { readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { extractUpload } from '../../src/core/marketplace/archive.js'
import { tarBytes } from '../../src/core/marketplace/archive-write.js'
import { verifySignature } from '../../src/core/marketplace/signature.js'
import { cli } from '../helpers/lint-fixtures.js'
import { makeTree, tempRoot } from '../helpers/tree.js'

const SKILL = '---\nname: hello\ndescription: Says hello.\n---\nHi\n'

describe('ongrid-skill marketplace', () => {
  let R = ''
  let cleanup = () => {}
  before(() => {
    ;({ root: R, cleanup } = tempRoot('ongrid-mp-cli-'))
  })
  after(() => cleanup())
  let n = 0
  const pack = (nodes: Parameters<typeof makeTree>[1], name = `p${n++}`) => {
    makeTree(join(R, name), nodes)
    return join(R, name)
  }
  const PACK = {
    '.claude-plugin/plugin.json': '{"id":"demo","version":"1.0.0"}',
    'skills/hello/SKILL.md': SKILL,
    'skills/hello/run.sh': { exec: '#!/bin/sh\necho hi\n' },
  }

  test('round trip: keygen → sign → verify → pack → extract as the endpoint → verify; tampering and pins', async () => {
    const key = join(R, 'k.pem')
    let r = cli(['marketplace', 'keygen', '--out', key])
    assert.equal(r.code, 0, r.stderr)
    assert.equal(statSync(key).mode & 0o777, 0o600)
    assert.equal(cli(['marketplace', 'keygen', '--out', key]).code, 2, 'never overwrites a key')
    const dir = pack(PACK, 'demo')
    r = cli(['marketplace', 'sign', dir, '--key', key])
    assert.equal(r.code, 0, r.stderr)
    assert.match(r.stdout, /not covered by the signature.*\n {2}skills\/hello\/run\.sh\n/s)
    r = cli(['marketplace', 'verify', dir, '--pinned-key', join(R, 'k.pub'), '--json'])
    assert.equal(r.code, 0, r.stdout)
    assert.equal(JSON.parse(r.stdout).signature.state, 'verified')
    const out = join(R, 'demo.tgz')
    r = cli(['marketplace', 'pack', dir, '-o', out])
    assert.equal(r.code, 0, r.stderr)
    const first = readFileSync(out)
    assert.equal(cli(['marketplace', 'pack', dir, '-o', out]).code, 2, 'does not overwrite')
    assert.equal(cli(['marketplace', 'pack', dir, '-o', out, '--force']).code, 0)
    assert.ok(first.equals(readFileSync(out)), 'the same pack gives the same bytes')
    const x = await extractUpload(out)
    assert.ok(x.ok)
    try {
      assert.equal(x.value.root, join(x.value.dest, 'demo'))
      assert.equal(statSync(join(x.value.root, 'skills/hello/run.sh')).mode & 0o777, 0o755)
      assert.equal(verifySignature(x.value.root, '').state, 'verified')
    } finally {
      x.value.cleanup()
    }
    assert.equal(cli(['marketplace', 'verify', out, '--require-signed']).code, 0)
    assert.equal(
      cli(['marketplace', 'pack', dir, '-o', join(R, 'new/dir/demo.tgz')]).code,
      0,
      'makes the output dir',
    )
    const zip = join(R, 'demo.zip')
    assert.equal(cli(['marketplace', 'pack', dir, '--format', 'zip', '-o', zip]).code, 0)
    assert.equal(cli(['marketplace', 'verify', zip]).code, 0)
    // A wrong pin, then tampering with a signed file.
    const other = join(R, 'other.pem')
    assert.equal(cli(['marketplace', 'keygen', '--out', other]).code, 0)
    r = cli(['marketplace', 'verify', dir, '--pinned-key', join(R, 'other.pub'), '--json'])
    assert.equal(r.code, 1)
    assert.equal(JSON.parse(r.stdout).signature.error, 'pub_key does not match pinned registry key')
    writeFileSync(join(dir, 'skills/hello/SKILL.md'), SKILL.replace('Hi', 'Bye'))
    r = cli(['marketplace', 'verify', dir, '--json'])
    assert.equal(r.code, 1)
    assert.equal(JSON.parse(r.stdout).signature.error, 'ecdsa signature does not verify')
    r = cli(['marketplace', 'pack', dir, '-o', join(R, 'x.tgz')])
    assert.equal(r.code, 1)
    assert.match(r.stderr, /signature\.json does not verify \(ecdsa signature does not verify\)/)
  })

  test('output files: -o/--output (keygen’s --out kept); a refusal names the flag typed and --force; no private key under a .pub name', () => {
    const key = join(R, 'words.pem')
    assert.equal(cli(['marketplace', 'keygen', '-o', key]).code, 0)
    assert.ok(statSync(join(R, 'words.pub')).isFile())
    for (const flag of ['-o', '--output', '--out']) {
      const r = cli(['marketplace', 'keygen', flag, key])
      assert.equal(r.code, 2)
      assert.equal(
        r.stderr,
        `ongrid-skill: ${key} exists; not overwriting it (remove it or choose another ${flag})\n`,
      )
    }
    const pub = join(R, 'team.pub')
    const r = cli(['marketplace', 'keygen', '-o', pub])
    assert.equal(r.code, 2)
    assert.equal(
      r.stderr,
      `ongrid-skill: -o ${pub}: names the private key, not the public one; give the .pem name (the .pub is written beside it)\nhint: -o ${join(R, 'team.pem')} writes the private key there and the public key to ${pub}\n`,
    )
    assert.throws(() => statSync(pub), 'nothing written')
    assert.throws(() => statSync(`${pub}.pub`), 'nothing written')
    const dir = pack(PACK, 'words')
    const out = join(R, 'words.tgz')
    const packed = cli(['marketplace', 'pack', dir, '--output', out])
    assert.equal(packed.code, 0, packed.stderr)
    assert.match(packed.stdout, /: 3 files under demo\//, 'a plural, not file(s)')
    const again = cli(['marketplace', 'pack', dir, '--output', out])
    assert.equal(again.code, 2)
    assert.equal(
      again.stderr,
      `ongrid-skill: ${out} exists; not overwriting it (remove it, choose another --output, or pass --force)\n`,
    )
  })

  test('a failed verify says what to do next', () => {
    const dir = pack(PACK, 'next')
    const signed = cli(['marketplace', 'sign', dir, '--key', join(R, 'k.pem')])
    assert.equal(signed.code, 0)
    assert.match(signed.stdout, /: 2 files signed, /, 'a plural, not file(s)')
    writeFileSync(join(dir, 'skills/hello/SKILL.md'), SKILL.replace('Hi', 'Bye'))
    const r = cli(['marketplace', 'verify', dir])
    assert.equal(r.code, 1)
    assert.match(
      r.stdout,
      /error {2}ecdsa signature does not verify {2}marketplace\/signature-failed\n {14}hint: a signed file \(\*\.md, \*\.json\) changed after signing, or the signature is not this key’s: re-sign with `ongrid-skill marketplace sign PATH --key KEY\.pem`\n/,
    )
    const pinned = cli(['marketplace', 'verify', dir, '--pinned-key', join(R, 'other.pub')])
    assert.match(pinned.stdout, /hint: signed with another key than the pinned one/)
  })

  test('verify: a symlinked signature.json is followed; bad base64 and PEM with Go’s texts; unsigned', () => {
    const signed = pack(PACK)
    assert.equal(cli(['marketplace', 'sign', signed, '--key', join(R, 'k.pem')]).code, 0)
    const linked = pack(PACK)
    symlinkSync(join(signed, 'signature.json'), join(linked, 'signature.json'))
    assert.equal(cli(['marketplace', 'verify', linked]).code, 0)
    const bad = pack({ ...PACK, 'signature.json': '{"sig":"YQ=","pub_key":"x"}' })
    let r = cli(['marketplace', 'verify', bad, '--json'])
    assert.equal(JSON.parse(r.stdout).signature.error, 'decode sig: illegal base64 data at input byte 3')
    const notPem = pack({
      ...PACK,
      'signature.json': `{"sig":"YQ==","pub_key":"${Buffer.from('-----BEGIN PUBLIC KEY-----\\nAAAA').toString('base64')}"}`,
    })
    r = cli(['marketplace', 'verify', notPem, '--json'])
    assert.equal(JSON.parse(r.stdout).signature.error, 'pub_key not PEM-encoded')
    const unsigned = pack(PACK)
    assert.equal(cli(['marketplace', 'verify', unsigned]).code, 0)
    assert.equal(cli(['marketplace', 'verify', unsigned, '--require-signed']).code, 1)
  })

  test('check: the trust gate replayed, our findings marked, formats', () => {
    const dir = pack(PACK)
    let r = cli(['marketplace', 'check', dir, '--json'])
    assert.equal(r.code, 0, r.stdout)
    const doc = JSON.parse(r.stdout)
    assert.equal(doc.layout, 'claude')
    assert.equal(doc.pack.id, 'demo')
    assert.match(doc.pack.manifest_sha256, /^[0-9a-f]{64}$/)
    assert.deepEqual(
      doc.skills.map((s: { name: string }) => s.name),
      ['hello'],
    )
    assert.equal(
      doc.capabilities_json,
      '{"pack_id":"demo","version":"1.0.0","skills":[{"name":"hello","scope":"manager","requires":{},"tool_classes":null}],"agent_count":0,"summary":{}}',
    )
    assert.deepEqual(doc.capabilities, JSON.parse(doc.capabilities_json))
    assert.match(cli(['marketplace', 'check', dir]).stdout, /\ndeclares: {3}none declared\n/)
    r = cli(['marketplace', 'check', dir, '--dev-mode=false', '--require-signed', 'local', '--json'])
    assert.equal(r.code, 1)
    const refused = JSON.parse(r.stdout)
    assert.equal(
      refused.install.error,
      'forbidden: source "local" requires signed packs (state=unsigned: no signature.json found)',
    )
    assert.equal(refused.capabilities, null, 'a refused pack stores no declaration')
    assert.equal(refused.capabilities_json, null)
    const tools = pack({
      '.claude-plugin/plugin.json': '{"id":"t"}',
      'skills/a/SKILL.md':
        '---\nname: a\ndescription: d\ntools: [{name: x, class: write}, {name: y}]\nmetadata: {requires: {bins: [jq], config: [k], credentials: [{slot: s, label: S}]}}\n---\n',
    })
    assert.match(
      cli(['marketplace', 'check', tools]).stdout,
      /\ndeclares: {3}tool classes read, write; bins jq; config k; credentials s\n/,
    )
    const dot = pack({ '.claude-plugin/plugin.json': '{"id":"."}' })
    r = cli(['marketplace', 'check', dot])
    assert.equal(r.code, 1)
    assert.match(
      r.stdout,
      /error +not the manager’s verdict: pack id "\." passes every manager check.* {2}marketplace-bug\/id-dot/,
    )
    assert.match(r.stdout, /install: {4}accepted/)
    r = cli(['marketplace', 'check', dir, '--format', 'sarif'])
    assert.equal(JSON.parse(r.stdout).version, '2.1.0')
    r = cli(['marketplace', 'check', join(R, 'nope')])
    assert.equal(r.code, 2)
    assert.match(r.stderr, /^ongrid-skill: .*nope: no such file or directory/)
  })

  test('archives as the upload endpoint takes them: escapes, unknown suffixes, no wrapper folder', async () => {
    const evil = join(R, 'evil.tar')
    writeFileSync(
      evil,
      await tarBytes('x', [{ rel: '../../up.md', dir: false, mode: 0o644, data: Buffer.from('x') }]),
    )
    let r = cli(['marketplace', 'check', evil, '--json'])
    assert.equal(r.code, 1)
    assert.equal(
      JSON.parse(r.stdout).install.error,
      'invalid argument\ntar entry escapes archive root: "x/../../up.md"',
    )
    const rar = join(R, 'p.rar')
    writeFileSync(rar, 'x')
    r = cli(['marketplace', 'check', rar, '--json'])
    assert.equal(
      JSON.parse(r.stdout).install.error,
      'invalid argument\nunsupported archive "p.rar" (need .zip / .tar.gz / .tgz / .tar)',
    )
    const notGzip = join(R, 'p.tgz')
    writeFileSync(notGzip, 'not gzip at all')
    r = cli(['marketplace', 'check', notGzip, '--json'])
    assert.equal(JSON.parse(r.stdout).install.error, 'invalid argument\ngzip: gzip: invalid header')
    const notZip = join(R, 'p.zip')
    writeFileSync(notZip, 'not a zip')
    r = cli(['marketplace', 'check', notZip, '--json'])
    assert.equal(JSON.parse(r.stdout).install.error, 'invalid argument\nopen zip: zip: not a valid zip file')
    rmSync(rar)
  })

  test('pack refuses what the endpoint would change: symlinks, ids the manager mishandles', () => {
    const linked = pack({ ...PACK, 'skills/hello/alias.md': { link: 'SKILL.md' } })
    let r = cli(['marketplace', 'pack', linked, '-o', join(R, 'l.tgz')])
    assert.equal(r.code, 2)
    assert.match(r.stderr, /skills\/hello\/alias\.md: a symlink/)
    const upper = pack({ '.claude-plugin/plugin.json': '{"id":"My Pack"}', 'skills/a/SKILL.md': SKILL })
    r = cli(['marketplace', 'pack', upper, '-o', join(R, 'u.tgz')])
    assert.equal(r.code, 1)
    assert.match(r.stderr, /pack id "My Pack" is not of the form/)
  })

  test('a gzip bomb: one line, exit 2, nothing checked, --json a failure document', async () => {
    // 1 GiB + 1 MiB of zeros in an entry both Go and we skip (a contiguous file): about 1 MiB
    // of gzip, nothing written to disk while it is read.
    const { pack: tarPack } = await import('tar-stream')
    const { createGzip } = await import('node:zlib')
    const { createWriteStream } = await import('node:fs')
    const { pipeline } = await import('node:stream/promises')
    const bomb = join(R, 'bomb.tgz')
    const p = tarPack()
    const size = (1 << 30) + (1 << 20)
    const done = pipeline(p, createGzip({ level: 1 }), createWriteStream(bomb))
    const e = p.entry({ name: 'p/x', type: 'contiguous-file', size })
    const zeros = Buffer.alloc(1 << 20)
    for (let left = size; left > 0; left -= zeros.length) {
      if (!e.write(zeros)) await new Promise<void>((resolve) => e.once('drain', () => resolve()))
    }
    ;(e as unknown as { end: () => void }).end()
    p.finalize()
    await done
    assert.ok(statSync(bomb).size < 8 << 20)
    let r = cli(['marketplace', 'check', bomb])
    assert.equal(r.code, 2, r.stderr)
    assert.equal(r.stdout, '')
    assert.match(
      r.stderr,
      /^ongrid-skill: .*bomb\.tgz: the archive expands past 1 GiB; not extracted further \(a limit of ongrid-skill's, not the manager's: [^\n]*\)\n$/,
    )
    r = cli(['marketplace', 'verify', bomb, '--json'])
    assert.equal(r.code, 2)
    const doc = JSON.parse(r.stdout)
    assert.equal(doc.ok, false)
    assert.match(doc.error.message, /expands past 1 GiB/)
  })

  test('pack leaves out VCS data and --exclude globs, says so, and keeps the signature whole', async () => {
    const key = join(R, 'kx.pem')
    assert.equal(cli(['marketplace', 'keygen', '--out', key]).code, 0)
    const dir = pack(
      {
        ...PACK,
        '.git/HEAD': 'ref: refs/heads/main\n',
        'skills/hello/.DS_Store': 'junk',
        'skills/hello/notes.md~': 'backup',
        'testdata/big.bin': 'data',
        'docs/testdata/keep.txt': 'kept: the glob is anchored',
      },
      'demo',
    )
    assert.equal(cli(['marketplace', 'sign', dir, '--key', key]).code, 0)
    const out = join(R, 'ex.tgz')
    let r = cli([
      'marketplace',
      'pack',
      dir,
      '-o',
      out,
      '--exclude',
      '/testdata/',
      '--exclude',
      '*~',
      '--json',
    ])
    assert.equal(r.code, 0, r.stderr)
    const doc = JSON.parse(r.stdout)
    assert.deepEqual(doc.excluded, ['.git/', 'skills/hello/.DS_Store', 'skills/hello/notes.md~', 'testdata/'])
    assert.equal(doc.signature, 'verified')
    const x = await extractUpload(out)
    assert.ok(x.ok)
    try {
      const { readdirSync } = await import('node:fs')
      assert.deepEqual(readdirSync(x.value.root).sort(), [
        '.claude-plugin',
        'docs',
        'signature.json',
        'skills',
      ])
      assert.deepEqual(readdirSync(join(x.value.root, 'skills/hello')).sort(), ['SKILL.md', 'run.sh'])
      assert.equal(verifySignature(x.value.root, '').state, 'verified')
    } finally {
      x.value.cleanup()
    }
    // Human output names what was left out.
    r = cli(['marketplace', 'pack', dir, '-o', join(R, 'ex2.tgz')])
    assert.match(r.stdout, /\nleft out: \.git\/, skills\/hello\/\.DS_Store\n/)
    // --no-default-excludes packs .git too (nothing signed in it).
    r = cli(['marketplace', 'pack', dir, '-o', join(R, 'ex3.tgz'), '--no-default-excludes', '--json'])
    assert.equal(r.code, 0, r.stderr)
    assert.deepEqual(JSON.parse(r.stdout).excluded, [])
    // Leaving out a file the signature covers is refused: the archive would not verify.
    r = cli(['marketplace', 'pack', dir, '-o', join(R, 'ex4.tgz'), '--exclude', 'SKILL.md'])
    assert.equal(r.code, 1)
    assert.match(
      r.stderr,
      /^ongrid-skill: the excludes leave out signed files \(skills\/hello\/SKILL\.md\): the archive would not verify/,
    )
  })

  test('the manager’s variables as defaults, flags over them, and the pin as a PEM or a file', () => {
    const key = join(R, 'kv.pem')
    assert.equal(cli(['marketplace', 'keygen', '--out', key]).code, 0)
    const pem = readFileSync(join(R, 'kv.pub'), 'utf8')
    const other = join(R, 'kw.pem')
    assert.equal(cli(['marketplace', 'keygen', '--out', other]).code, 0)
    const otherPem = readFileSync(join(R, 'kw.pub'), 'utf8')
    const dir = pack(PACK, 'demo')
    assert.equal(cli(['marketplace', 'sign', dir, '--key', key]).code, 0)
    const clean = {
      ONGRID_MARKETPLACE_DEVMODE: undefined,
      ONGRID_MARKETPLACE_REQUIRE_SIGNED_SOURCES: undefined,
      ONGRID_MARKETPLACE_PINNED_PUBKEY: undefined,
    }
    const check = (args: string[], env: Record<string, string | undefined> = {}) => {
      const r = cli(['marketplace', 'check', dir, '--json', ...args], { ...clean, ...env })
      return { code: r.code, doc: JSON.parse(r.stdout) }
    }
    let c = check([])
    assert.deepEqual(c.doc.trust, {
      dev_mode: true,
      require_signed: ['ongrid-official'],
      pinned_key: false,
      source: 'local',
      from: { dev_mode: 'default', require_signed: 'default', pinned_key: 'default' },
    })
    // The manager's settings from its variables: a wrong pin fails the gate with its text.
    const gate = {
      ONGRID_MARKETPLACE_DEVMODE: 'False',
      ONGRID_MARKETPLACE_REQUIRE_SIGNED_SOURCES: ' local ,, x ',
      ONGRID_MARKETPLACE_PINNED_PUBKEY: otherPem,
    }
    c = check([], gate)
    assert.equal(c.code, 1)
    assert.deepEqual(c.doc.trust.require_signed, ['local', 'x'])
    assert.deepEqual(c.doc.trust.from, { dev_mode: 'env', require_signed: 'env', pinned_key: 'env' })
    assert.equal(
      c.doc.install.error,
      'forbidden: source "local" requires signed packs (state=failed: pub_key does not match pinned registry key)',
    )
    // Flags win: the right pin, inline, as the manager's variable holds it.
    c = check(['--pinned-key', pem], gate)
    assert.equal(c.code, 0, JSON.stringify(c.doc.install))
    assert.equal(c.doc.trust.from.pinned_key, 'flag')
    c = check(['--pinned-key', join(R, 'kv.pub'), '--dev-mode', 'true'], gate)
    assert.equal(c.doc.trust.dev_mode, true)
    // A variable with literal \n instead of newlines: every signed pack fails, as on the manager.
    c = check([], { ...gate, ONGRID_MARKETPLACE_PINNED_PUBKEY: pem.replace(/\n/g, '\\n') })
    assert.equal(
      c.doc.install.error,
      'forbidden: source "local" requires signed packs (state=failed: expected key: pub_key not PEM-encoded)',
    )
    // Human output names the settings the variables gave.
    let r = cli(['marketplace', 'check', dir, '--dev-mode', 'true'], { ...clean, ...gate })
    assert.match(
      r.stdout,
      /\nsettings: {3}signed sources local,x \(ONGRID_MARKETPLACE_REQUIRE_SIGNED_SOURCES\); a pinned key \(ONGRID_MARKETPLACE_PINNED_PUBKEY\)\n/,
    )
    assert.doesNotMatch(cli(['marketplace', 'check', dir], clean).stdout, /settings:/)
    // verify reads the pin variable too, and says so.
    r = cli(['marketplace', 'verify', dir], { ...clean, ONGRID_MARKETPLACE_PINNED_PUBKEY: otherPem })
    assert.equal(r.code, 1)
    assert.match(r.stdout, /pub_key does not match pinned registry key/)
    assert.match(r.stdout, /\nsettings: {3}a pinned key \(ONGRID_MARKETPLACE_PINNED_PUBKEY\)\n/)
    r = cli(['marketplace', 'verify', dir, '--json'], {
      ...clean,
      ONGRID_MARKETPLACE_PINNED_PUBKEY: otherPem,
    })
    assert.deepEqual(JSON.parse(r.stdout).trust, { pinned_key: true, from: { pinned_key: 'env' } })
    r = cli(['marketplace', 'verify', dir, '--pinned-key', join(R, 'missing.pub')], clean)
    assert.equal(r.code, 2)
    assert.match(
      r.stderr,
      /^ongrid-skill: --pinned-key .*missing\.pub: no such file or directory \(give a file, or the PEM itself\)\n$/,
    )
  })

  test('key files that cannot be read or used: one line in our words, no Node or OpenSSL text', () => {
    const dir = pack(PACK)
    const expect = (args: string[], stderr: string) => {
      const r = cli(args)
      assert.equal(r.code, 2, r.stderr)
      assert.equal(r.stderr, stderr)
    }
    expect(
      ['marketplace', 'sign', dir, '--key', join(R, 'none.pem')],
      `ongrid-skill: --key ${join(R, 'none.pem')}: no such file or directory\n`,
    )
    expect(['marketplace', 'sign', dir, '--key', R], `ongrid-skill: --key ${R}: is a directory\n`)
    writeFileSync(join(R, 'text.pem'), 'not a key\n')
    expect(
      ['marketplace', 'sign', dir, '--key', join(R, 'text.pem')],
      `ongrid-skill: --key ${join(R, 'text.pem')}: not a private key PEM\nhint: make one with \`ongrid-skill marketplace keygen\`\n`,
    )
    expect(
      ['marketplace', 'verify', dir, '--pinned-key', R],
      `ongrid-skill: --pinned-key ${R}: is a directory (give a file, or the PEM itself)\n`,
    )
    expect(
      ['marketplace', 'pack', dir, '-o', join(R, 'text.pem/x.tgz')],
      `ongrid-skill: -o ${join(R, 'text.pem/x.tgz')}: cannot make its dir (mkdir ${join(R, 'text.pem')}: file exists)\n`,
    )
    expect(
      ['marketplace', 'keygen', '--out', join(R, 'no/dir/k.pem')],
      `ongrid-skill: cannot write ${join(R, 'no/dir/k.pem')}: no such file or directory\n`,
    )
  })
})
