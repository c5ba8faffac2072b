/**
 * Go's x509.ParsePKIXPublicKey (x509.go, parser.go) as far as its outcome and texts go: the
 * key's Go type (`%T`), its curve, and the errors for keys in the wrong format, of unknown or
 * unsupported algorithms and curves, and with bad points. The DER structure is read here; the
 * curve-point check is OpenSSL's (node:crypto), which accepts exactly the on-curve points of the
 * same four NIST curves Go supports.
 *
 * encoding/asn1's texts for DER that is not a SEQUENCE of the expected shape (`asn1: structure
 * error: tags don't match …`, `asn1: syntax error: data truncated`, …: a private key or a
 * certificate where a public key belongs) are reproduced; an OID's own encoding errors (whose
 * rules changed between Go versions) and multi-byte tags come back with `exact: false` and a
 * text of ours.
 * X25519 is what Go 1.20+ (the manager's Go) does: an `*ecdh.PublicKey`; Go 1.19 calls it
 * an unknown algorithm.
 */
import { createPublicKey, type KeyObject } from 'node:crypto'

export type Curve = 'P-224' | 'P-256' | 'P-384' | 'P-521'

export type ParsedKey =
  | { ok: true; goType: '*ecdsa.PublicKey'; curve: Curve; key: KeyObject }
  | { ok: true; goType: '*rsa.PublicKey' | 'ed25519.PublicKey' | '*ecdh.PublicKey' | '*dsa.PublicKey' }
  | { ok: false; error: string; exact: boolean }

const OID = {
  rsa: '2a864886f70d010101',
  dsa: '2a8648ce380401',
  ecdsa: '2a8648ce3d0201',
  ed25519: '2b6570',
  x25519: '2b656e',
} as const

const CURVES: Record<string, { curve: Curve; byteLen: number }> = {
  '2b81040021': { curve: 'P-224', byteLen: 28 },
  '2a8648ce3d030107': { curve: 'P-256', byteLen: 32 },
  '2b81040022': { curve: 'P-384', byteLen: 48 },
  '2b81040023': { curve: 'P-521', byteLen: 66 },
}

interface Element {
  tag: number
  /** Offset of the content in the input. */
  start: number
  end: number
  /** Offset of the tag byte (FullBytes start). */
  head: number
}

/** One DER element at `off` (definite, minimal lengths; single-byte tags), or null. */
function readElement(der: Buffer, off: number, limit: number): Element | null {
  if (off + 2 > limit) return null
  const tag = der[off]
  if ((tag & 0x1f) === 0x1f) return null
  return readLength(der, off, off + 1, tag, limit)
}

/** The definite, minimal length at `p` of an element whose tag began at `head`, and its content. */
function readLength(der: Buffer, head: number, p: number, tag: number, limit: number): Element | null {
  if (p >= limit) return null
  let len = der[p++]
  if (len & 0x80) {
    const n = len & 0x7f
    if (n === 0 || n > 4 || p + n > limit) return null
    len = 0
    for (let i = 0; i < n; i++) len = len * 256 + der[p + i]
    if (der[p] === 0 || len < 0x80) return null
    p += n
  }
  if (p + len > limit) return null
  return { tag, start: p, end: p + len, head }
}

/**
 * One element as encoding/asn1's parseTagAndLength reads it: as readElement, and also a tag in
 * the high-tag-number form (0x1f, then a minimal base-128 number of at most 31 bits, at least 31),
 * which asn1.Unmarshal takes for a RawValue (the algorithm's parameters) where cryptobyte, reading
 * those parameters afterwards, does not. Such an element has tag -1 (it matches no tag here).
 */
function readAsn1Element(der: Buffer, off: number, limit: number): Element | null {
  if (off >= limit || (der[off] & 0x1f) !== 0x1f) return readElement(der, off, limit)
  const tag = readBase128(der, off + 1, limit)
  if (!tag || tag.value < 0x1f) return null
  return readLength(der, off, tag.end, -1, limit)
}

/**
 * A base-128 integer at `p`, as encoding/asn1's parseBase128Int and cryptobyte's readBase128Int
 * both accept it: at most 5 bytes, minimal (no leading 0x80), at most 2^31 − 1. Its value and
 * where it ends, or null.
 */
function readBase128(der: Buffer, p: number, limit: number): { value: number; end: number } | null {
  let ret = 0
  for (let n = 0; p < limit; n++) {
    if (n === 5 || ret >= 1 << 24) return null
    const b = der[p++]
    if (n === 0 && b === 0x80) return null
    ret = ret * 128 + (b & 0x7f)
    if ((b & 0x80) === 0) return { value: ret, end: p }
  }
  return null
}

function hex(der: Buffer, e: Element): string {
  return der.subarray(e.start, e.end).toString('hex')
}

/** A DER INTEGER element, minimally encoded; returns its sign (-1, 0, 1) or null. */
function intSign(der: Buffer, e: Element | null): number | null {
  if (e?.tag !== 0x02 || e.end === e.start) return null
  const n = e.end - e.start
  if (n > 1) {
    const a = der[e.start]
    const b = der[e.start + 1]
    if ((a === 0 && (b & 0x80) === 0) || (a === 0xff && (b & 0x80) !== 0)) return null
  }
  if (der[e.start] & 0x80) return -1
  for (let i = e.start; i < e.end; i++) if (der[i] !== 0) return 1
  return 0
}

/**
 * A well-formed OID element as cryptobyte's ReadASN1ObjectIdentifier reads it (Go 1.25): tag 6,
 * non-empty, each base-128 subidentifier at most 5 bytes, not overflowing 31 bits, and minimal
 * (no leading 0x80 byte; Go before 1.21 accepted that one).
 */
function isOid(der: Buffer, e: Element | null): boolean {
  if (e?.tag !== 0x06 || e.end === e.start) return false
  for (let i = e.start; i < e.end; ) {
    const sub = readBase128(der, i, e.end)
    if (!sub) return false
    i = sub.end
  }
  return true
}

/** SEQUENCE { INTEGER N, INTEGER E } (pkcs1PublicKey). */
function isPkcs1(der: Buffer): boolean {
  const seq = readElement(der, 0, der.length)
  if (seq?.tag !== 0x30) return false
  const n = readElement(der, seq.start, seq.end)
  if (intSign(der, n) === null || !n) return false
  const e = readElement(der, n.end, seq.end)
  if (intSign(der, e) === null || !e || e.end - e.start > 8) return false
  return true
}

const PARAMS =
  '{optional:false explicit:false application:false private:false defaultValue:<nil> tag:<nil> stringType:0 timeType:0 set:false omitEmpty:false}'

class Asn1Stop {
  constructor(readonly text: string | null) {}
}

/** encoding/asn1's parseTagAndLength at `off` in `b` (single-byte tags only: else inconclusive). */
function tagAndLength(b: Buffer, off: number) {
  const t = b[off++]
  const tag = { class: t >> 6, compound: (t & 0x20) !== 0, tag: t & 0x1f, length: 0 }
  if (tag.tag === 0x1f) throw new Asn1Stop(null)
  if (off >= b.length) throw new Asn1Stop('asn1: syntax error: truncated tag or length')
  const l = b[off++]
  if ((l & 0x80) === 0) tag.length = l & 0x7f
  else {
    const n = l & 0x7f
    if (n === 0) throw new Asn1Stop('asn1: syntax error: indefinite length found (not DER)')
    for (let i = 0; i < n; i++) {
      if (off >= b.length) throw new Asn1Stop('asn1: syntax error: truncated tag or length')
      const x = b[off++]
      if (tag.length >= 1 << 23) throw new Asn1Stop('asn1: structure error: length too large')
      tag.length = tag.length * 256 + x
      if (tag.length === 0) throw new Asn1Stop('asn1: structure error: superfluous leading zeros in length')
    }
    if (tag.length < 0x80) throw new Asn1Stop('asn1: structure error: non-minimal length')
  }
  return { tag, off }
}

/**
 * parseField for one non-optional field of universal `want` tag (compound or not) named `name`
 * (its Go type's name) at `off` in `b`: its content, or Go's error.
 */
function field(b: Buffer, off: number, want: number, compound: boolean, name: string): Buffer {
  if (off === b.length) throw new Asn1Stop('asn1: syntax error: sequence truncated')
  const { tag: t, off: at } = tagAndLength(b, off)
  if (t.class !== 0 || t.tag !== want || t.compound !== compound) {
    throw new Asn1Stop(
      `asn1: structure error: tags don't match (${want} vs {class:${t.class} tag:${t.tag} length:${t.length} isCompound:${t.compound}}) ${PARAMS} ${name} @${at}`,
    )
  }
  if (at + t.length > b.length) throw new Asn1Stop('asn1: syntax error: data truncated')
  return b.subarray(at, at + t.length)
}

/** How far `field` read (the end of the element at `off`). */
function fieldEnd(b: Buffer, off: number): number {
  const { tag: t, off: at } = tagAndLength(b, off)
  return at + t.length
}

/**
 * asn1.Unmarshal of `der` into x509's publicKeyInfo, as far as its errors go: Go's text for a
 * structure or syntax error in the SEQUENCE { SEQUENCE { OID, ANY OPTIONAL }, BIT STRING } shape,
 * '' when it decodes, null when the error is one not reproduced (an OID's own encoding, whose
 * rules changed between Go versions; multi-byte tags).
 */
export function asn1PublicKeyInfoError(der: Buffer): string | null {
  try {
    const seq = field(der, 0, 16, true, 'publicKeyInfo')
    const algo = field(seq, 0, 16, true, 'AlgorithmIdentifier')
    const oid = field(algo, 0, 6, false, 'ObjectIdentifier')
    if (oid.length === 0) return 'asn1: syntax error: zero length OBJECT IDENTIFIER'
    // An OID both Go versions read alike, else inconclusive.
    if (!isOid(oid, { tag: 6, head: 0, start: 0, end: oid.length })) return null
    let p = fieldEnd(algo, 0)
    if (p < algo.length) {
      // Parameters: a RawValue, any tag, optional.
      const { tag: t, off: at } = tagAndLength(algo, p)
      if (at + t.length > algo.length) return 'asn1: syntax error: data truncated'
    }
    p = fieldEnd(seq, 0)
    const bits = field(seq, p, 3, false, 'BitString')
    if (bits.length === 0) return 'asn1: syntax error: zero length BIT STRING'
    const pad = bits[0]
    if (pad > 7 || (bits.length === 1 && pad > 0) || (bits[bits.length - 1] & ((1 << pad) - 1)) !== 0)
      return 'asn1: syntax error: invalid padding bits in BIT STRING'
    return ''
  } catch (e) {
    if (e instanceof Asn1Stop) return e.text
    throw e
  }
}

const ASN1_TEXT = 'malformed PKIX public key DER (Go reports an encoding/asn1 error here, not reproduced)'

/** The asn1 error Go reports for `der`, when we know its text. */
function asn1Failure(der: Buffer): ParsedKey {
  const text = asn1PublicKeyInfoError(der)
  return text ? { ok: false, exact: true, error: text } : { ok: false, exact: false, error: ASN1_TEXT }
}

/** x509.ParsePKIXPublicKey(der). */
export function parsePKIXPublicKey(der: Buffer): ParsedKey {
  const asn1Error = (): ParsedKey =>
    isPkcs1(der)
      ? {
          ok: false,
          exact: true,
          error: 'x509: failed to parse public key (use ParsePKCS1PublicKey instead for this key format)',
        }
      : asn1Failure(der)
  const seq = readElement(der, 0, der.length)
  if (seq?.tag !== 0x30) return asn1Error()
  const algo = readElement(der, seq.start, seq.end)
  if (algo?.tag !== 0x30) return asn1Error()
  const oid = readElement(der, algo.start, algo.end)
  if (!isOid(der, oid) || !oid) return asn1Error()
  let params: Element | null = null
  if (oid.end < algo.end) {
    params = readAsn1Element(der, oid.end, algo.end)
    if (!params) return asn1Error()
  }
  const bits = readElement(der, algo.end, seq.end)
  if (bits?.tag !== 0x03 || bits.end === bits.start) return asn1Error()
  const unused = der[bits.start]
  if (unused > 7 || (bits.end - bits.start === 1 && unused > 0)) return asn1Error()
  if (unused > 0 && (der[bits.end - 1] & ((1 << unused) - 1)) !== 0) return asn1Error()
  if (seq.end !== der.length) {
    return { ok: false, exact: true, error: 'x509: trailing data after ASN.1 of public-key' }
  }
  // BitString.RightAlign (a shift only when bits are unused).
  let key = der.subarray(bits.start + 1, bits.end)
  if (unused > 0) {
    const shifted = Buffer.alloc(key.length)
    for (let i = 0; i < key.length; i++) {
      shifted[i] = (key[i] >> unused) | (i > 0 ? (key[i - 1] << (8 - unused)) & 0xff : 0)
    }
    key = shifted
  }
  const paramBytes = params ? der.subarray(params.head, params.end) : Buffer.alloc(0)
  switch (hex(der, oid)) {
    case OID.rsa: {
      if (!paramBytes.equals(Buffer.from([0x05, 0x00])))
        return { ok: false, exact: true, error: 'x509: RSA key missing NULL parameters' }
      const s = readElement(key, 0, key.length)
      if (s?.tag !== 0x30) return { ok: false, exact: true, error: 'x509: invalid RSA public key' }
      const n = readElement(key, s.start, s.end)
      const nSign = intSign(key, n)
      if (nSign === null || !n) return { ok: false, exact: true, error: 'x509: invalid RSA modulus' }
      const e = readElement(key, n.end, s.end)
      const eSign = intSign(key, e)
      if (eSign === null || !e || e.end - e.start > 8)
        return { ok: false, exact: true, error: 'x509: invalid RSA public exponent' }
      if (nSign <= 0) return { ok: false, exact: true, error: 'x509: RSA modulus is not a positive number' }
      if (eSign <= 0)
        return { ok: false, exact: true, error: 'x509: RSA public exponent is not a positive number' }
      return { ok: true, goType: '*rsa.PublicKey' }
    }
    case OID.ecdsa: {
      const p = readElement(paramBytes, 0, paramBytes.length)
      if (!isOid(paramBytes, p) || !p)
        return { ok: false, exact: true, error: 'x509: invalid ECDSA parameters' }
      const curve = CURVES[paramBytes.subarray(p.start, p.end).toString('hex')]
      if (!curve) return { ok: false, exact: true, error: 'x509: unsupported elliptic curve' }
      const badPoint: ParsedKey = {
        ok: false,
        exact: true,
        error: 'x509: failed to unmarshal elliptic curve point',
      }
      if (key.length !== 1 + 2 * curve.byteLen || key[0] !== 4) return badPoint
      try {
        const k = createPublicKey({ key: der, format: 'der', type: 'spki' })
        return { ok: true, goType: '*ecdsa.PublicKey', curve: curve.curve, key: k }
      } catch {
        return badPoint
      }
    }
    case OID.ed25519:
      if (paramBytes.length !== 0)
        return { ok: false, exact: true, error: 'x509: Ed25519 key encoded with illegal parameters' }
      if (key.length !== 32) return { ok: false, exact: true, error: 'x509: wrong Ed25519 public key size' }
      return { ok: true, goType: 'ed25519.PublicKey' }
    case OID.x25519:
      if (paramBytes.length !== 0)
        return { ok: false, exact: true, error: 'x509: X25519 key encoded with illegal parameters' }
      if (key.length !== 32) return { ok: false, exact: true, error: 'crypto/ecdh: invalid public key' }
      return { ok: true, goType: '*ecdh.PublicKey' }
    case OID.dsa: {
      const y = readElement(key, 0, key.length)
      const ySign = intSign(key, y)
      if (ySign === null) return { ok: false, exact: true, error: 'x509: invalid DSA public key' }
      const ps = readElement(paramBytes, 0, paramBytes.length)
      const bad: ParsedKey = { ok: false, exact: true, error: 'x509: invalid DSA parameters' }
      if (ps?.tag !== 0x30) return bad
      const P = readElement(paramBytes, ps.start, ps.end)
      const pSign = intSign(paramBytes, P)
      if (pSign === null || !P) return bad
      const Q = readElement(paramBytes, P.end, ps.end)
      const qSign = intSign(paramBytes, Q)
      if (qSign === null || !Q) return bad
      const G = readElement(paramBytes, Q.end, ps.end)
      const gSign = intSign(paramBytes, G)
      if (gSign === null) return bad
      if (ySign <= 0 || pSign <= 0 || qSign <= 0 || gSign <= 0)
        return { ok: false, exact: true, error: 'x509: zero or negative DSA parameter' }
      return { ok: true, goType: '*dsa.PublicKey' }
    }
    default:
      return { ok: false, exact: true, error: 'x509: unknown public key algorithm' }
  }
}
