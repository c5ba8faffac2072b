import assert from 'node:assert/strict'
import { createHash, generateKeyPairSync, sign } from 'node:crypto'
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, test } from 'node:test'
import { signatureDoc } from '../../../src/core/marketplace/check.js'
import {
  computePackHash,
  FILES_KEY,
  listPackFiles,
  signatureJSON,
  signStream,
  verifySignature,
} from '../../../src/core/marketplace/signature.js'
import { makeTree, tempRoot } from '../../helpers/tree.js'

const { root, cleanup } = tempRoot('ongrid-mp-sig-')
after(cleanup)
let n = 0
function pack(nodes: Parameters<typeof makeTree>[1]): string {
  const dir = join(root, `p${n++}`)
  mkdirSync(dir)
  makeTree(dir, nodes)
  return dir
}

const key = generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
const pubPEM = key.publicKey.export({ type: 'spki', format: 'pem' }).toString()

/** Signs as `marketplace sign` does (with the files' digests), or as signers before it did (`digests` false). */
function signPack(dir: string, k = key, digests = true): void {
  const h = computePackHash(dir)
  assert.equal(h.err, null)
  const pem = k.publicKey.export({ type: 'spki', format: 'pem' }).toString()
  const sig = signStream(k.privateKey, h.stream as Buffer)
  writeFileSync(join(dir, 'signature.json'), signatureJSON(sig, pem, digests ? (h.files ?? []) : undefined))
}

/** What changed since signing, as verify reports it (null: nothing to report). */
function changes(dir: string) {
  return signatureDoc(verifySignature(dir, ''), dir).changes
}

function verdict(dir: string, pin = ''): string {
  const v = verifySignature(dir, pin)
  return v.err ? `${v.state}: ${v.err.error()}` : v.state
}

const PACK = {
  '.claude-plugin/plugin.json': '{"id":"demo","version":"1.0.0"}',
  'skills/hello/SKILL.md': '---\nname: hello\ndescription: Says hello.\n---\nHi\n',
  'skills/hello/run.sh': '#!/bin/sh\necho hi\n',
}

test('an empty pack hashes empty input', () => {
  const h = computePackHash(pack({ 'x.txt': 'not covered' }))
  assert.equal(h.digest?.toString('hex'), 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855')
})

test('the stream: sorted by bytes, rel NUL bytes NUL; dotfiles by Go’s Ext; signature.json excluded at any depth', () => {
  const dir = pack({
    'b.md': 'B',
    'a/z.JSON': 'Z',
    '.md': 'dot',
    'deep/signature.json': 'no',
    'Signature.JSON': 'yes',
    'x.md.bak': 'no',
    'run.sh': 'no',
    'link.md': { link: 'b.md' },
  })
  const h = computePackHash(dir)
  const expected = Buffer.from('.md\0dot\0Signature.JSON\0yes\0a/z.JSON\0Z\0b.md\0B\0', 'latin1')
  assert.deepEqual(h.stream, expected)
  assert.equal(h.digest?.toString('hex'), createHash('sha256').update(expected).digest('hex'))
})

test('sign then verify; tampering a signed file fails, an unsigned file does not', () => {
  const dir = pack(PACK)
  assert.equal(verdict(dir), 'unsigned')
  signPack(dir)
  assert.equal(verdict(dir), 'verified')
  assert.equal(verdict(dir, pubPEM), 'verified')
  writeFileSync(join(dir, 'skills/hello/run.sh'), '#!/bin/sh\nrm -rf /\n')
  assert.equal(verdict(dir), 'verified')
  writeFileSync(join(dir, 'skills/hello/SKILL.md'), '---\nname: hello\ndescription: Changed.\n---\n')
  assert.equal(verdict(dir), 'failed: ecdsa signature does not verify')
})

test('signing the digest instead of the stream does not verify (contract 5.4)', () => {
  const dir = pack(PACK)
  const h = computePackHash(dir)
  const wrong = sign('sha256', h.digest as Buffer, key.privateKey)
  writeFileSync(join(dir, 'signature.json'), signatureJSON(wrong, pubPEM))
  assert.equal(verdict(dir), 'failed: ecdsa signature does not verify')
})

test('a pin: mismatch before hashing, bad pins with the expected-key prefix', () => {
  const dir = pack(PACK)
  signPack(dir)
  const other = generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
  const otherPEM = other.publicKey.export({ type: 'spki', format: 'pem' }).toString()
  assert.equal(verdict(dir, otherPEM), 'failed: pub_key does not match pinned registry key')
  assert.equal(verdict(dir, pubPEM.replace(/\n/g, '\\n')), 'failed: expected key: pub_key not PEM-encoded')
  // The pin is checked before the content: tampering is hidden behind a wrong pin.
  writeFileSync(join(dir, 'skills/hello/SKILL.md'), 'x')
  assert.equal(verdict(dir, otherPEM), 'failed: pub_key does not match pinned registry key')
})

test('signature.json problems, each with the manager’s text', () => {
  const withSig = (content: string | { link: string } | { dir: true }) =>
    verdict(pack({ ...PACK, 'signature.json': content }))
  assert.equal(
    withSig({ dir: true }).replace(root, 'R'),
    'failed: read signature.json: read R/p' + (n - 1) + '/signature.json: is a directory',
  )
  assert.equal(withSig({ link: 'nowhere' }), 'unsigned')
  assert.equal(
    withSig('{nope}'),
    "failed: parse signature.json: invalid character 'n' looking for beginning of object key string",
  )
  assert.equal(
    withSig('{"sig":1}'),
    'failed: parse signature.json: json: cannot unmarshal number into Go struct field signatureManifest.sig of type string',
  )
  assert.equal(
    withSig('[]'),
    'failed: parse signature.json: json: cannot unmarshal array into Go value of type marketplace.signatureManifest',
  )
  assert.equal(withSig('null'), 'failed: signature.json missing sig or pub_key')
  assert.equal(
    withSig('{"sig":"YQ","pub_key":"x"}'),
    'failed: decode sig: illegal base64 data at input byte 0',
  )
  assert.equal(
    withSig('{"SIG":"YQ==","Pub_Key":"ab-_"}'),
    'failed: decode pub_key: illegal base64 data at input byte 2',
  )
  const b64 = (s: string) => Buffer.from(s).toString('base64')
  assert.equal(withSig(`{"sig":"YQ==","pub_key":"${b64('hello')}"}`), 'failed: pub_key not PEM-encoded')
  const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey
  assert.equal(
    withSig(`{"sig":"YQ==","pub_key":"${b64(rsa.export({ type: 'spki', format: 'pem' }).toString())}"}`),
    'failed: pub_key is not ECDSA (got *rsa.PublicKey)',
  )
  assert.equal(
    withSig(`{"sig":"YQ==","pub_key":"${b64(rsa.export({ type: 'pkcs1', format: 'pem' }).toString())}"}`),
    'failed: parse PKIX pub_key: x509: failed to parse public key (use ParsePKCS1PublicKey instead for this key format)',
  )
  const ed = generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }).toString()
  assert.equal(
    withSig(`{"sig":"YQ==","pub_key":"${b64(ed)}"}`),
    'failed: pub_key is not ECDSA (got ed25519.PublicKey)',
  )
  const k1 = generateKeyPairSync('ec', { namedCurve: 'secp256k1' })
    .publicKey.export({ type: 'spki', format: 'pem' })
    .toString()
  assert.equal(
    withSig(`{"sig":"YQ==","pub_key":"${b64(k1)}"}`),
    'failed: parse PKIX pub_key: x509: unsupported elliptic curve',
  )
  assert.equal(
    withSig(`{"sig":"YQ==","pub_key":"${b64(pubPEM)}"}`),
    'failed: ecdsa signature does not verify',
  )
})

test('a P-384 key verifies too (the curve is not enforced)', () => {
  const dir = pack(PACK)
  signPack(dir, generateKeyPairSync('ec', { namedCurve: 'secp384r1' }))
  assert.equal(verdict(dir), 'verified')
})

test('a symlinked signature.json is followed; a symlinked root hashes nothing', () => {
  const dir = pack(PACK)
  signPack(dir)
  const other = pack(PACK)
  symlinkSync(join(dir, 'signature.json'), join(other, 'signature.json'))
  assert.equal(verdict(other), 'verified')
  const link = join(root, `link${n++}`)
  symlinkSync(dir, link)
  assert.equal(verdict(link), 'failed: ecdsa signature does not verify')
})

test('the digests signature.json records: one per hashed file, over the bytes the stream holds', () => {
  const dir = pack({
    ...PACK,
    'b.md': 'B',
    '.md': 'dot',
    'deep/signature.json': 'not hashed',
    'Signature.JSON': 'hashed',
    'x.md.bak': 'not hashed',
    'link.md': { link: 'b.md' },
  })
  writeFileSync(Buffer.from(`${dir}/\xff.md`, 'latin1'), 'a name that is not UTF-8')
  signPack(dir)
  const recorded = JSON.parse(readFileSync(join(dir, 'signature.json'), 'utf8'))[FILES_KEY]
  const hashed = listPackFiles(dir).files.signable.map((f) => f.rel)
  // Every hashed file but the one whose name JSON cannot hold, in the stream's order.
  assert.deepEqual(
    Object.keys(recorded),
    hashed.filter((r) => r !== '\xff.md'),
  )
  assert.ok(hashed.includes('\xff.md'))
  assert.equal(recorded['b.md'], createHash('sha256').update('B').digest('hex'))
  assert.equal(verdict(dir), 'verified')
  assert.equal(changes(dir), null, 'nothing to name when it verifies')
})

test('after a failed verify: the files changed, added and removed since signing are named', () => {
  const dir = pack({ ...PACK, 'README.md': 'read me', 'z.json': '{}' })
  signPack(dir)
  writeFileSync(join(dir, 'skills/hello/SKILL.md'), '---\nname: hello\ndescription: Changed.\n---\n')
  assert.equal(verdict(dir), 'failed: ecdsa signature does not verify', 'the manager’s verdict, unchanged')
  assert.deepEqual(changes(dir), {
    recorded: true,
    added: [],
    removed: [],
    changed: ['skills/hello/SKILL.md'],
  })
  writeFileSync(join(dir, 'new.md'), 'new')
  mkdirSync(join(dir, 'skills/two'))
  writeFileSync(join(dir, 'skills/two/SKILL.md'), 'two')
  rmSync(join(dir, 'z.json'))
  // A signed name that is no longer a regular file is gone from the hash: removed.
  rmSync(join(dir, 'README.md'))
  symlinkSync('new.md', join(dir, 'README.md'))
  writeFileSync(join(dir, 'run.sh'), 'not covered: never named')
  assert.deepEqual(changes(dir), {
    recorded: true,
    added: ['new.md', 'skills/two/SKILL.md'],
    removed: ['README.md', 'z.json'],
    changed: ['skills/hello/SKILL.md'],
  })
})

test('a signature.json without digests (an older signer): the same verdict, nothing named', () => {
  const dir = pack(PACK)
  signPack(dir, key, false)
  assert.doesNotMatch(readFileSync(join(dir, 'signature.json'), 'utf8'), /files_sha256/)
  assert.equal(verdict(dir), 'verified')
  writeFileSync(join(dir, 'skills/hello/SKILL.md'), 'changed')
  assert.equal(verdict(dir), 'failed: ecdsa signature does not verify')
  assert.deepEqual(changes(dir), { recorded: false, added: [], removed: [], changed: [] })
  // A list that is not {name: sha256 hex} is no list.
  const sigPath = join(dir, 'signature.json')
  const base = readFileSync(sigPath, 'utf8').slice(0, -1)
  for (const bad of ['[]', '{"a.md":"zz"}', '{"a.md":1}', 'null', '"x"']) {
    writeFileSync(sigPath, `${base},"${FILES_KEY}":${bad}}`)
    assert.equal(verdict(dir), 'failed: ecdsa signature does not verify')
    assert.equal(changes(dir)?.recorded, false, bad)
  }
})

test('the list decides nothing: edited to match the tree, a failure stays a failure, and a pass a pass', () => {
  const dir = pack(PACK)
  signPack(dir)
  const sigPath = join(dir, 'signature.json')
  const signed = readFileSync(sigPath, 'utf8')
  writeFileSync(join(dir, 'skills/hello/SKILL.md'), 'tampered')
  // The tampered tree's own digests written into the list: it now names nothing.
  const h = computePackHash(dir)
  const sig = JSON.parse(signed)
  const forged = JSON.parse(signatureJSON(Buffer.from(sig.sig, 'base64'), pubPEM, h.files ?? []))
  assert.deepEqual(forged.sig, sig.sig)
  writeFileSync(sigPath, JSON.stringify(forged))
  assert.equal(verdict(dir), 'failed: ecdsa signature does not verify')
  assert.equal(verdict(dir, pubPEM), 'failed: ecdsa signature does not verify')
  assert.deepEqual(changes(dir), { recorded: true, added: [], removed: [], changed: [] })
  // And a list that names every file as changed does not fail a pack that verifies.
  const clean = pack(PACK)
  signPack(clean)
  const doc = JSON.parse(readFileSync(join(clean, 'signature.json'), 'utf8'))
  for (const k of Object.keys(doc[FILES_KEY])) doc[FILES_KEY][k] = '0'.repeat(64)
  doc[FILES_KEY]['gone.md'] = '1'.repeat(64)
  writeFileSync(join(clean, 'signature.json'), JSON.stringify(doc))
  assert.equal(verdict(clean), 'verified')
  assert.equal(changes(clean), null)
})

test('a pin mismatch hashes nothing: no files are named', () => {
  const dir = pack(PACK)
  signPack(dir)
  writeFileSync(join(dir, 'skills/hello/SKILL.md'), 'x')
  const other = generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
  const v = verifySignature(dir, other.publicKey.export({ type: 'spki', format: 'pem' }).toString())
  assert.equal(v.err?.error(), 'pub_key does not match pinned registry key')
  assert.equal(signatureDoc(v, dir).changes, null)
})
