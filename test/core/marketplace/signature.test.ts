import assert from 'node:assert/strict'
import { createHash, generateKeyPairSync, sign } from 'node:crypto'
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, test } from 'node:test'
import {
  computePackHash,
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

function signPack(dir: string, k = key): void {
  const h = computePackHash(dir)
  assert.equal(h.err, null)
  const pem = k.publicKey.export({ type: 'spki', format: 'pem' }).toString()
  writeFileSync(join(dir, 'signature.json'), signatureJSON(signStream(k.privateKey, h.stream as Buffer), pem))
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
