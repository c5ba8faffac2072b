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
  assert.equal(outcome(Buffer.from([0x30, 0x03, 0x02, 0x01])), 'asn1: syntax error: data truncated')
})

const PARAMS =
  '{optional:false explicit:false application:false private:false defaultValue:<nil> tag:<nil> stringType:0 timeType:0 set:false omitEmpty:false}'

test('encoding/asn1’s texts, as Go 1.19 prints them, for DER of the wrong shape', () => {
  // The private key where the public key belongs (SEC1 or PKCS#8): its version INTEGER first.
  const priv = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey
  const tagsAt2 = `asn1: structure error: tags don't match (16 vs {class:0 tag:2 length:1 isCompound:false}) ${PARAMS} AlgorithmIdentifier @2`
  assert.equal(outcome(priv.export({ type: 'sec1', format: 'der' }) as Buffer), tagsAt2)
  assert.equal(outcome(priv.export({ type: 'pkcs8', format: 'der' }) as Buffer), tagsAt2)
  const b = (...x: number[]) => Buffer.from(x)
  assert.equal(outcome(b()), 'asn1: syntax error: sequence truncated')
  assert.equal(outcome(b(0x30)), 'asn1: syntax error: truncated tag or length')
  assert.equal(outcome(b(0x30, 0x80)), 'asn1: syntax error: indefinite length found (not DER)')
  assert.equal(outcome(b(0x30, 0x81, 0x05)), 'asn1: structure error: non-minimal length')
  assert.equal(
    outcome(b(0x04, 0x00)),
    `asn1: structure error: tags don't match (16 vs {class:0 tag:4 length:0 isCompound:false}) ${PARAMS} publicKeyInfo @2`,
  )
  assert.equal(outcome(b(0x30, 0x00)), 'asn1: syntax error: sequence truncated')
  // An algorithm whose OID is empty, then a BIT STRING without its padding byte.
  assert.equal(
    outcome(b(0x30, 0x04, 0x30, 0x02, 0x06, 0x00)),
    'asn1: syntax error: zero length OBJECT IDENTIFIER',
  )
  assert.equal(
    outcome(b(0x30, 0x07, 0x30, 0x03, 0x06, 0x01, 0x2a, 0x03, 0x00)),
    'asn1: syntax error: zero length BIT STRING',
  )
  // An OID's own encoding changed between Go versions: not reproduced.
  assert.match(outcome(b(0x30, 0x05, 0x30, 0x03, 0x06, 0x01, 0x80)), /\(ours\)$/)
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
