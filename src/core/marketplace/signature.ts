/**
 * The manager's pack signatures (marketplace/signature.go, v0.13.4): VerifySignature's states
 * and texts in their order, computePackHash's canonical stream, and the signing side that
 * produces what it verifies (ECDSA with SHA-256 over the stream, ASN.1 DER).
 */
import { createHash, type KeyObject, sign as nodeSign, verify as nodeVerify } from 'node:crypto'
import { parsePKIXPublicKey } from '../go/crypto/x509/pkix.js'
import { decodeString } from '../go/encoding/base64/base64.js'
import { structSpec, unmarshal } from '../go/encoding/json/decode.js'
import { decode as pemDecode } from '../go/encoding/pem/pem.js'
import { ErrorString, type GoError, WrapError } from '../go/errors.js'
import { fromBuffer, type GoString, toBuffer } from '../go/gostring.js'
import { isNotExist } from '../go/os/errors.js'
import { clean, ext, join } from '../go/path/filepath/path.js'
import { walkDir } from '../go/path/filepath/walkdir.js'
import { readPackFile } from './pack-read.js'

/** The manager's texts for a signature that is not the pinned key's, and one that does not verify. */
export const PIN_MISMATCH = 'pub_key does not match pinned registry key'
export const SIGNATURE_MISMATCH = 'ecdsa signature does not verify'

export const SIGNATURE_FILE = 'signature.json'

export type SignatureState = 'verified' | 'unsigned' | 'failed'

export interface Verdict {
  state: SignatureState
  /** The manager's error (null unless failed). */
  err: GoError | null
  /** False when the text is ours rather than Go's (DER that Go's encoding/asn1 rejects). */
  exact: boolean
  /** The pack hash, when it was computed (hex). */
  hash?: string
  /** The key's curve, when the pack key parsed as ECDSA. */
  curve?: string
}

export interface SignableFile {
  /** Relative path with `/` (byte string). */
  rel: GoString
  /** Absolute path (byte string). */
  full: GoString
}

/** Whether computePackHash covers a regular file with this base name. */
export function isSignableName(base: GoString): boolean {
  if (base === SIGNATURE_FILE) return false
  const e = ext(base).toLowerCase()
  return e === '.md' || e === '.json'
}

/** Byte order of Go strings (our byte strings compare the same way with < on char codes). */
function byBytes(a: SignableFile, b: SignableFile): number {
  return a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0
}

export interface PackFiles {
  signable: SignableFile[]
  /** Regular files, symlinks and others the signature does NOT cover (relative paths). */
  uncovered: { rel: GoString; why: 'extension' | 'symlink' | 'not-regular' | 'nested-signature' }[]
}

/** The walk of computePackHash: signable files sorted by bytes, or the walk's error (raw). */
export function listPackFiles(packPath: GoString): { files: PackFiles; err: GoError | null } {
  const root = clean(packPath)
  const signable: SignableFile[] = []
  const uncovered: PackFiles['uncovered'] = []
  const relOf = (p: GoString) => (root === '.' ? p : p.slice(root === '/' ? 1 : root.length + 1))
  const err = walkDir(root, (p, d, e) => {
    if (e !== null) return e
    if (d === null || d.isDir()) return null
    const rel = relOf(p)
    if (!d.isRegular()) {
      uncovered.push({ rel, why: d.isSymlink() ? 'symlink' : 'not-regular' })
      return null
    }
    const base = rel.slice(rel.lastIndexOf('/') + 1)
    if (base === SIGNATURE_FILE) {
      if (rel !== SIGNATURE_FILE) uncovered.push({ rel, why: 'nested-signature' })
      return null
    }
    if (!isSignableName(base)) {
      uncovered.push({ rel, why: 'extension' })
      return null
    }
    signable.push({ rel, full: p })
    return null
  })
  signable.sort(byBytes)
  return { files: { signable, uncovered }, err }
}

/** computePackHash(packPath): SHA-256 of the stream, or the error (walk errors raw, `read <rel>: …`). */
export function computePackHash(packPath: GoString): {
  digest: Buffer | null
  stream: Buffer | null
  err: GoError | null
} {
  const { files, err } = listPackFiles(packPath)
  if (err !== null) return { digest: null, stream: null, err }
  const parts: Buffer[] = []
  const zero = Buffer.from([0])
  for (const f of files.signable) {
    // Regular as the walk saw it (Lstat): a FIFO or device is never among them.
    const data = readPackFile(f.full, { regular: true })
    if (!data.ok) return { digest: null, stream: null, err: new WrapError(`read ${f.rel}: `, data.err) }
    parts.push(toBuffer(f.rel), zero, data.value, zero)
  }
  const stream = Buffer.concat(parts)
  return { digest: createHash('sha256').update(stream).digest(), stream, err: null }
}

export type KeyParse =
  | { ok: true; key: KeyObject; der: Buffer; curve: string }
  | { ok: false; err: GoError; exact: boolean }

/** parseECDSAPublicKey(pemBytes): the first PEM block, PKIX, ECDSA of any Go-supported curve. */
export function parseECDSAPublicKey(pemBytes: GoString): KeyParse {
  const block = pemDecode(pemBytes)
  if (block === null) return { ok: false, err: new ErrorString('pub_key not PEM-encoded'), exact: true }
  const parsed = parsePKIXPublicKey(block.bytes)
  if (!parsed.ok) {
    return {
      ok: false,
      err: new WrapError('parse PKIX pub_key: ', new ErrorString(parsed.error)),
      exact: parsed.exact,
    }
  }
  if (parsed.goType !== '*ecdsa.PublicKey' || !('key' in parsed)) {
    return { ok: false, err: new ErrorString(`pub_key is not ECDSA (got ${parsed.goType})`), exact: true }
  }
  return { ok: true, key: parsed.key, der: block.bytes, curve: parsed.curve }
}

const SIG_SPEC = structSpec('marketplace.signatureManifest', [
  ['sig', 'string'],
  ['pub_key', 'string'],
])

/** VerifySignature(packPath, expectedKey). */
export function verifySignature(packPath: GoString, expectedKey: GoString): Verdict {
  const cleanPath = clean(packPath)
  const fail = (err: GoError, exact = true): Verdict => ({ state: 'failed', err, exact })
  const raw = readPackFile(join(cleanPath, SIGNATURE_FILE))
  if (!raw.ok) {
    if (isNotExist(raw.err)) return { state: 'unsigned', err: null, exact: true }
    return fail(new WrapError('read signature.json: ', raw.err))
  }
  const m = unmarshal(fromBuffer(raw.value), SIG_SPEC)
  if (m.err !== null) return fail(new WrapError('parse signature.json: ', m.err))
  const sig = m.values.sig as GoString
  const pub = m.values.pub_key as GoString
  if (sig === '' || pub === '') return fail(new ErrorString('signature.json missing sig or pub_key'))
  const sigBytes = decodeString(sig)
  if (!sigBytes.ok) return fail(new WrapError('decode sig: ', sigBytes.err))
  const pubPEM = decodeString(pub)
  if (!pubPEM.ok) return fail(new WrapError('decode pub_key: ', pubPEM.err))
  const key = parseECDSAPublicKey(fromBuffer(pubPEM.value))
  if (!key.ok) return fail(key.err, key.exact)
  if (expectedKey !== '') {
    const pin = parseECDSAPublicKey(expectedKey)
    if (!pin.ok) return fail(new WrapError('expected key: ', pin.err), pin.exact)
    if (!key.der.equals(pin.der)) return fail(new ErrorString(PIN_MISMATCH))
  }
  const hash = computePackHash(cleanPath)
  if (hash.err !== null || hash.stream === null || hash.digest === null) {
    return fail(new WrapError('compute pack hash: ', hash.err ?? new ErrorString('')))
  }
  const hex = hash.digest.toString('hex')
  if (!verifyStream(key.key, hash.stream, sigBytes.value)) {
    return {
      state: 'failed',
      err: new ErrorString(SIGNATURE_MISMATCH),
      exact: true,
      hash: hex,
      curve: key.curve,
    }
  }
  return { state: 'verified', err: null, exact: true, hash: hex, curve: key.curve }
}

/** ecdsa.VerifyASN1(key, sha256(stream), sig): OpenSSL's DER check is as strict as Go's. */
export function verifyStream(key: KeyObject, stream: Buffer, sig: Buffer): boolean {
  if (sig.length === 0) return false
  try {
    return nodeVerify('sha256', stream, { key, dsaEncoding: 'der' }, sig)
  } catch {
    return false
  }
}

/**
 * What the manager verifies: ECDSA with SHA-256 over the STREAM (Go's SignASN1 of its SHA-256
 * digest), DER-encoded. Signing the digest instead would hash it twice.
 */
export function signStream(privateKey: KeyObject, stream: Buffer): Buffer {
  return nodeSign('sha256', stream, { key: privateKey, dsaEncoding: 'der' })
}

/** The signature.json bytes, as the reference signer's json.Marshal writes them (one line). */
export function signatureJSON(sig: Buffer, publicKeyPEM: string): string {
  const pub = Buffer.from(publicKeyPEM, 'utf8').toString('base64')
  return `{"sig":"${sig.toString('base64')}","pub_key":"${pub}"}`
}
