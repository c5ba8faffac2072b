import assert from 'node:assert/strict'
import { generateKeyPairSync } from 'node:crypto'
import { test } from 'node:test'
import { parsePKIXPublicKey } from '../../../../../src/core/go/crypto/x509/pkix.js'

const spki = (k: ReturnType<typeof generateKeyPairSync>['publicKey']) =>
  k.export({ type: 'spki', format: 'der' }) as Buffer
const P256 = spki(generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).publicKey)

function outcome(der: Buffer): string {
  const r = parsePKIXPublicKey(der)
  return r.ok ? r.goType : `${r.error}${r.exact ? '' : ' (ours)'}`
}

test('key types as %T prints them', () => {
  assert.equal(outcome(P256), '*ecdsa.PublicKey')
  assert.equal(outcome(spki(generateKeyPairSync('ed25519').publicKey)), 'ed25519.PublicKey')
  assert.equal(outcome(spki(generateKeyPairSync('x25519').publicKey)), '*ecdh.PublicKey')
  assert.equal(outcome(spki(generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey)), '*rsa.PublicKey')
  assert.equal(outcome(spki(generateKeyPairSync('ed448').publicKey)), 'x509: unknown public key algorithm')
  assert.equal(
    outcome(spki(generateKeyPairSync('ec', { namedCurve: 'secp256k1' }).publicKey)),
    'x509: unsupported elliptic curve',
  )
})

test('the curve OID is read as Go 1.25’s cryptobyte reads it', () => {
  // prime256v1 is 2a 86 48 ce 3d 03 01 07; make a subidentifier start with 0x80 (3d | 80 03 | 07).
  const hex = P256.toString('hex').replace('2a8648ce3d030107', '2a8648ce3d800307')
  assert.equal(outcome(Buffer.from(hex, 'hex')), 'x509: invalid ECDSA parameters')
  const ok = P256.toString('hex').replace('2a8648ce3d030107', '2a8648ce3d030108')
  assert.equal(outcome(Buffer.from(ok, 'hex')), 'x509: unsupported elliptic curve')
  // A subidentifier longer than 5 bytes (81 81 81 81 81 01) is not an OID to cryptobyte.
  const long = P256.toString('hex').replace('2a8648ce3d030107', '2a81818181810107')
  assert.equal(outcome(Buffer.from(long, 'hex')), 'x509: invalid ECDSA parameters')
})

test('points, trailing data, malformed DER', () => {
  const off = Buffer.from(P256)
  off[off.length - 1] ^= 1
  assert.equal(outcome(off), 'x509: failed to unmarshal elliptic curve point')
  assert.equal(
    outcome(Buffer.concat([P256, Buffer.from([0])])),
    'x509: trailing data after ASN.1 of public-key',
  )
  assert.match(outcome(Buffer.from([0x30, 0x03, 0x02, 0x01])), /\(ours\)$/)
})

test('parameters in the high-tag-number form: asn1.Unmarshal takes them, DSA’s cryptobyte read does not', () => {
  // SEQUENCE { SEQUENCE { OID dsa, PARAMS }, BIT STRING { INTEGER 1 } }; texts measured with Go.
  const dsa = (params: string) => {
    const algo = `06072a8648ce380401${params}`
    const body = `30${(algo.length / 2).toString(16).padStart(2, '0')}${algo}030400020101`
    return Buffer.from(`30${(body.length / 2).toString(16).padStart(2, '0')}${body}`, 'hex')
  }
  const invalid = { ok: false, exact: true, error: 'x509: invalid DSA parameters' }
  assert.deepEqual(parsePKIXPublicKey(dsa('3f1f00')), invalid) // [UNIVERSAL 31], constructed
  assert.deepEqual(parsePKIXPublicKey(dsa('1f2000')), invalid) // [UNIVERSAL 32]
  assert.deepEqual(parsePKIXPublicKey(dsa('3000')), invalid)
  // Go's asn1 refuses these (non-minimal tag, non-minimal base-128, truncated): not exact here.
  for (const p of ['3f1e00', '3f8000', '3f1f']) assert.equal(parsePKIXPublicKey(dsa(p)).ok, false)
  for (const p of ['3f1e00', '3f8000', '3f1f'])
    assert.equal((parsePKIXPublicKey(dsa(p)) as { exact: boolean }).exact, false)
})
