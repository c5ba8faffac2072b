/**
 * The manager's pack signatures (marketplace/signature.go, v0.13.4): VerifySignature's states
 * and texts in their order, computePackHash's canonical stream, and the signing side that
 * produces what it verifies (ECDSA with SHA-256 over the stream, ASN.1 DER).
 */
import { isUtf8 } from 'node:buffer'
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
  /** Each hashed file's SHA-256, in the stream's order, when the pack was hashed. */
  files?: FileDigest[]
  /**
   * The per-file digests `marketplace sign` recorded in signature.json (FILES_KEY), when it
   * holds a usable list: ours, not the manager's, and not covered by the signature.
   */
  recorded?: Map<string, string>
}

/** One hashed file: its relative path and the SHA-256 of the bytes the stream holds for it. */
export interface FileDigest {
  rel: GoString
  sha256: Buffer
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

/**
 * computePackHash(packPath): SHA-256 of the stream, or the error (walk errors raw, `read <rel>: …`);
 * with each file's own SHA-256, of the very bytes that went into the stream.
 */
export function computePackHash(packPath: GoString): {
  digest: Buffer | null
  stream: Buffer | null
  files: FileDigest[] | null
  err: GoError | null
} {
  const { files, err } = listPackFiles(packPath)
  if (err !== null) return { digest: null, stream: null, files: null, err }
  const parts: Buffer[] = []
  const digests: FileDigest[] = []
  const zero = Buffer.from([0])
  for (const f of files.signable) {
    // Regular as the walk saw it (Lstat): a FIFO or device is never among them.
    const data = readPackFile(f.full, { regular: true })
    if (!data.ok)
      return { digest: null, stream: null, files: null, err: new WrapError(`read ${f.rel}: `, data.err) }
    parts.push(toBuffer(f.rel), zero, data.value, zero)
    digests.push({ rel: f.rel, sha256: createHash('sha256').update(data.value).digest() })
  }
  const stream = Buffer.concat(parts)
  return { digest: createHash('sha256').update(stream).digest(), stream, files: digests, err: null }
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
  const files = hash.files ?? []
  if (!verifyStream(key.key, hash.stream, sigBytes.value)) {
    // Only now, and only to name files: the verdict above never looks at the list.
    const recorded = recordedDigests(raw.value)
    return {
      state: 'failed',
      err: new ErrorString(SIGNATURE_MISMATCH),
      exact: true,
      hash: hex,
      curve: key.curve,
      files,
      ...(recorded === null ? {} : { recorded }),
    }
  }
  return { state: 'verified', err: null, exact: true, hash: hex, curve: key.curve, files }
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

/**
 * The key under which `marketplace sign` records each signed file's SHA-256 in signature.json:
 * `{"<rel>": "<hex>", …}`. The manager decodes signature.json with json.Unmarshal into
 * `{sig, pub_key}` (v0.10.1 to v0.13.4 alike), which ignores other keys; this one matches
 * neither of them case-insensitively. It is not covered by the signature: it only names files
 * after a failure, never decides one.
 */
export const FILES_KEY = 'files_sha256'

/**
 * The signature.json bytes: the reference signer's one line (json.Marshal of `{sig, pub_key}`),
 * then, when given, the files' digests (names that are not UTF-8 cannot be written as JSON
 * keys: they are left out, and so never named).
 */
export function signatureJSON(sig: Buffer, publicKeyPEM: string, files?: FileDigest[]): string {
  const pub = Buffer.from(publicKeyPEM, 'utf8').toString('base64')
  const head = `{"sig":"${sig.toString('base64')}","pub_key":"${pub}"`
  if (files === undefined) return `${head}}`
  const list: Record<string, string> = Object.create(null)
  for (const f of files) {
    const name = utf8Name(f.rel)
    if (name !== null) list[name] = f.sha256.toString('hex')
  }
  return `${head},"${FILES_KEY}":${JSON.stringify(list)}}`
}

/** A path's text when its bytes are UTF-8 (a name JSON can hold exactly), else null. */
function utf8Name(rel: GoString): string | null {
  const b = toBuffer(rel)
  return isUtf8(b) ? b.toString('utf8') : null
}

/**
 * The digests recorded in signature.json's bytes, or null when there is no usable list (signed
 * before lists were recorded, by another signer, or a list that is not `{name: 64 hex}`).
 */
export function recordedDigests(raw: Buffer): Map<string, string> | null {
  let doc: unknown
  try {
    doc = JSON.parse(raw.toString('utf8'))
  } catch {
    return null
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return null
  const list = (doc as Record<string, unknown>)[FILES_KEY]
  if (typeof list !== 'object' || list === null || Array.isArray(list)) return null
  const out = new Map<string, string>()
  for (const [name, hex] of Object.entries(list)) {
    if (typeof hex !== 'string' || !/^[0-9a-f]{64}$/.test(hex)) return null
    out.set(name, hex)
  }
  return out
}

/** The signed files added, removed and changed since the list was recorded (names sorted by bytes). */
export interface FileChanges {
  added: string[]
  removed: string[]
  changed: string[]
}

/**
 * The tree's digests (`files`, as computePackHash gives them) against the recorded ones. Names
 * that are not UTF-8 were never recorded and are not compared.
 */
export function fileChanges(recorded: Map<string, string>, files: FileDigest[]): FileChanges {
  const added: string[] = []
  const changed: string[] = []
  const seen = new Set<string>()
  for (const f of files) {
    const name = utf8Name(f.rel)
    if (name === null) continue
    seen.add(name)
    const was = recorded.get(name)
    if (was === undefined) added.push(name)
    else if (was !== f.sha256.toString('hex')) changed.push(name)
  }
  const removed = [...recorded.keys()].filter((n) => !seen.has(n))
  const byBytes = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b))
  return { added: added.sort(byBytes), removed: removed.sort(byBytes), changed: changed.sort(byBytes) }
}
