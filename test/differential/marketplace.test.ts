/**
 * The marketplace's Go pieces against real Go: base64 StdEncoding, pem.Decode,
 * x509.ParsePKIXPublicKey (with the ECDSA assertion), the pack hash and signature
 * verification over generated trees, with generated keys, signatures and damage.
 * A sibling Go program (./go-marketplace, stdlib + Debian's yaml.v3) answers.
 */
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { generateKeyPairSync, sign } from 'node:crypto'
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Readable } from 'node:stream'
import { after, test } from 'node:test'
import { parsePKIXPublicKey } from '../../src/core/go/crypto/x509/pkix.js'
import { decodeString } from '../../src/core/go/encoding/base64/base64.js'
import { decode as pemDecode } from '../../src/core/go/encoding/pem/pem.js'
import type { GoString } from '../../src/core/go/gostring.js'
import { fromText, toText } from '../../src/core/go/gostring.js'
import {
  computePackHash,
  parseECDSAPublicKey,
  signatureJSON,
  verifySignature,
} from '../../src/core/marketplace/signature.js'
import type { Decoded } from '../../src/core/native/fields.js'
import {
  b64,
  finish,
  GO_MISSING,
  Mismatches,
  missingGoModules,
  REPO_ROOT,
  REQUIRE_GO,
  type Resp,
  seedFor,
  show,
  unb64,
} from './harness.js'
import { Rand } from './rand.js'

const SRC = path.join(REPO_ROOT, 'test', 'differential', 'go-marketplace')
const BIN = path.join(REPO_ROOT, 'build', 'differential', 'mpharness')

function goEnv(): NodeJS.ProcessEnv {
  return { ...process.env, GOFLAGS: '-mod=mod', GOPROXY: 'off', GOTOOLCHAIN: 'local', GOWORK: 'off' }
}

/** Why the harness cannot be built here (no Go, or no yaml.v3 sources), or null. */
function missing(): string | null {
  const v = spawnSync('go', ['version'], { env: goEnv(), encoding: 'utf8' })
  if (v.error || v.status !== 0) return GO_MISSING
  return missingGoModules(readFileSync(path.join(SRC, 'go.mod'), 'utf8'))
}

const MISSING = missing()
if (MISSING !== null && REQUIRE_GO) throw new Error(`${MISSING} (ONGRID_REQUIRE_GO=1)`)
// One line for the whole file (each test's skip repeats it).
if (MISSING !== null) process.stderr.write(`marketplace differential tests skipped: ${MISSING}\n`)

/** Builds the harness (when stale) and returns a batch runner, or null when it cannot be built here. */
function harness(): ((reqs: object[]) => Resp[]) | null {
  if (MISSING !== null) return null
  const newest = Math.max(
    ...readdirSync(SRC)
      .filter((f) => f.endsWith('.go') || f === 'go.mod')
      .map((f) => statSync(path.join(SRC, f)).mtimeMs),
  )
  if (!existsSync(BIN) || statSync(BIN).mtimeMs < newest) {
    mkdirSync(path.dirname(BIN), { recursive: true })
    const tmp = `${BIN}.${process.pid}.tmp`
    const r = spawnSync('go', ['build', '-o', tmp, './'], { cwd: SRC, env: goEnv(), encoding: 'utf8' })
    if (r.status !== 0) {
      throw new Error(
        `building the marketplace Go harness failed (apt-get install golang-gopkg-yaml.v3-dev?):\n${r.stderr}`,
      )
    }
    spawnSync('mv', [tmp, BIN])
  }
  return (reqs) => {
    const r = spawnSync(BIN, [], {
      input: reqs.map((q) => JSON.stringify(q)).join('\n') + '\n',
      encoding: 'utf8',
      maxBuffer: 1 << 28,
    })
    if (r.status !== 0) throw new Error(`Go harness failed: ${r.stderr}`)
    return r.stdout
      .trim()
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as Resp)
  }
}

const go = harness()
/** Go's minor version (19 for go1.19.8). */
const goMinor = go === null ? 0 : Number(/go1\.(\d+)/.exec(go([{ op: 'version' }])[0].go)?.[1] ?? 0)
const skip = MISSING ?? false
const errOf = (e: unknown): string | null => (e === null || e === undefined ? null : unb64(e as string))

test('base64 StdEncoding: errors, offsets and bytes as Go', { skip }, () => {
  const rand = new Rand(seedFor('mp-base64'))
  const alphabet = 'AQYWJjZg+/=\n\r -_a9'
  const inputs: GoString[] = [
    '',
    'YQ==',
    'YQ=',
    'YQ',
    'YQ==x',
    'ab-_',
    'YWJj=',
    'YQ=\n=',
    'YR==',
    '====',
    '\n',
  ]
  for (let i = 0; i < 4000; i++) {
    let s = ''
    const n = rand.int(14)
    for (let j = 0; j < n; j++) s += rand.pick([...alphabet])
    inputs.push(s)
  }
  const answers = (go as NonNullable<typeof go>)(inputs.map((s) => ({ op: 'b64', s: b64(s) })))
  const m = new Mismatches('base64')
  inputs.forEach((s, i) => {
    const r = decodeString(s)
    const ours = r.ok ? { err: null, out: r.value.toString('latin1') } : { err: r.err.error(), out: null }
    const theirs = { err: errOf(answers[i].err), out: answers[i].err === null ? unb64(answers[i].out) : null }
    m.check(JSON.stringify(s), theirs, ours)
  })
  finish({ diagnostic: () => {} }, [m])
})

const P256 = generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
const PEM = P256.publicKey.export({ type: 'spki', format: 'pem' }).toString()

test('pem.Decode: the block found (or not), its type and bytes', { skip }, () => {
  const rand = new Rand(seedFor('mp-pem'))
  const pieces = [
    '-----BEGIN ',
    '-----END ',
    '-----',
    'PUBLIC KEY',
    'X',
    '\n',
    '\r\n',
    ' ',
    '\t',
    'K: v\n',
    ':',
    'AQID',
    'YQ==',
    '!',
  ]
  const inputs: GoString[] = [
    PEM,
    `junk\n${PEM}tail`,
    PEM.replace(/\n/g, '\r\n'),
    PEM.replace(/\n/g, '\\n'),
    `${PEM}${PEM}`,
  ]
  for (let i = 0; i < 3000; i++) {
    if (rand.chance(0.5)) {
      // A valid PEM, damaged in a few places.
      let s = rand.pick([
        PEM,
        '-----BEGIN X-----\nAQID\n-----END X-----\n',
        '-----BEGIN A-----\nH: 1\n\nAQID\n-----END A-----',
      ])
      for (let k = rand.range(1, 3); k > 0; k--) {
        const at = rand.int(s.length + 1)
        s = rand.chance(0.5)
          ? s.slice(0, at) + rand.pick(pieces) + s.slice(at)
          : s.slice(0, at) + s.slice(at + rand.range(1, 6))
      }
      inputs.push(s)
    } else {
      let s = ''
      for (let k = rand.range(1, 10); k > 0; k--) s += rand.pick(pieces)
      inputs.push(s)
    }
  }
  const answers = (go as NonNullable<typeof go>)(inputs.map((s) => ({ op: 'pem', data: b64(s) })))
  const m = new Mismatches('pem')
  inputs.forEach((s, i) => {
    const b = pemDecode(s)
    const ours = b ? { found: true, type: b.type, bytes: b.bytes.toString('latin1') } : { found: false }
    const a = answers[i]
    const theirs = a.found ? { found: true, type: unb64(a.type), bytes: unb64(a.bytes) } : { found: false }
    m.check(JSON.stringify(s), theirs, ours)
  })
  finish({ diagnostic: () => {} }, [m])
})

function ders(): [string, Buffer][] {
  const spki = (k: ReturnType<typeof generateKeyPairSync>['publicKey']) =>
    k.export({ type: 'spki', format: 'der' }) as Buffer
  const out: [string, Buffer][] = []
  for (const c of ['prime256v1', 'secp384r1', 'secp521r1', 'secp224r1', 'secp256k1', 'brainpoolP256r1']) {
    out.push([c, spki(generateKeyPairSync('ec', { namedCurve: c }).publicKey)])
  }
  const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey
  out.push(['rsa', spki(rsa)])
  out.push(['rsa-pkcs1', rsa.export({ type: 'pkcs1', format: 'der' }) as Buffer])
  out.push(['ed25519', spki(generateKeyPairSync('ed25519').publicKey)])
  out.push(['ed448', spki(generateKeyPairSync('ed448').publicKey)])
  out.push(['x25519', spki(generateKeyPairSync('x25519').publicKey)])
  out.push(['dsa', spki(generateKeyPairSync('dsa', { modulusLength: 1024, divisorLength: 160 }).publicKey)])
  // A compressed P-256 point: 0x02/0x03 || X in a shorter BIT STRING.
  const full = spki(P256.publicKey)
  const x = full.subarray(full.length - 64, full.length - 32)
  const head = Buffer.from(full.subarray(0, full.length - 65))
  head[1] -= 32
  head[head.length - 2] -= 32
  out.push(['compressed', Buffer.concat([head, Buffer.from([2 + (full[full.length - 1] & 1)]), x])])
  // Off the curve.
  const off = Buffer.from(full)
  off[off.length - 1] ^= 1
  out.push(['off-curve', off])
  out.push(['trailing', Buffer.concat([full, Buffer.from([0])])])
  // Private keys where a public key belongs (the key file instead of the .pub): asn1's texts.
  out.push(['pkcs8-private', P256.privateKey.export({ type: 'pkcs8', format: 'der' }) as Buffer])
  out.push(['sec1-private', P256.privateKey.export({ type: 'sec1', format: 'der' }) as Buffer])
  return out
}

/** 1.3.101.110, X25519, as its DER content bytes (hex). */
const X25519_OID = '2b656e'

/** A DER length at `at`: [length, where the content starts], or null. */
function derLength(d: Buffer, at: number): [number, number] | null {
  if (at >= d.length) return null
  const first = d[at]
  if (first < 0x80) return [first, at + 1]
  const n = first & 0x7f
  if (n === 0 || n > 4 || at + 1 + n > d.length) return null
  let len = 0
  for (let i = 0; i < n; i++) len = len * 256 + d[at + 1 + i]
  return [len, at + 1 + n]
}

/** The algorithm OID (content bytes, hex) of a SubjectPublicKeyInfo, as far as its first bytes say. */
function algorithmOid(d: Buffer): string | null {
  if (d[0] !== 0x30) return null
  const spki = derLength(d, 1)
  if (spki === null || d[spki[1]] !== 0x30) return null
  const alg = derLength(d, spki[1] + 1)
  if (alg === null || d[alg[1]] !== 0x06) return null
  const oid = derLength(d, alg[1] + 1)
  if (oid === null || oid[1] + oid[0] > d.length) return null
  return d.subarray(oid[1], oid[1] + oid[0]).toString('hex')
}

test('x509.ParsePKIXPublicKey and the ECDSA assertion: texts and key types', { skip }, () => {
  const rand = new Rand(seedFor('mp-pkix'))
  const base = ders()
  const inputs: [string, Buffer][] = [...base]
  // Damaged DER: our texts must be Go's, or be marked as not exact where Go's asn1 speaks.
  for (let i = 0; i < 1500; i++) {
    const [name, d] = rand.pick(base)
    const b = Buffer.from(d)
    for (let k = rand.range(1, 2); k > 0; k--)
      b[rand.int(b.length)] = rand.chance(0.5) ? rand.int(256) : b[rand.int(b.length)]
    inputs.push([`${name}~`, rand.chance(0.2) ? b.subarray(0, rand.int(b.length)) : b])
  }
  const answers = (go as NonNullable<typeof go>)(
    inputs.map(([, d]) => ({ op: 'pkix', der: d.toString('base64') })),
  )
  const m = new Mismatches('pkix')
  const inexact = new Mismatches('pkix (ours not exact: Go must speak asn1 there)')
  inputs.forEach(([name, d], i) => {
    const r = parsePKIXPublicKey(d)
    const a = answers[i]
    const theirs = a.err === null ? { type: a.type } : { err: errOf(a.err) }
    if (!r.ok && !r.exact) {
      inexact.checked++
      if (!/^asn1: /.test(theirs.err ?? '')) inexact.add(`${name} ${d.toString('hex')}`, theirs, r)
      return
    }
    const ours = r.ok ? { type: r.goType } : { err: r.error }
    // Go before 1.21 took a non-minimal (0x80-led) subidentifier in the curve OID; the manager's Go does not.
    if (
      goMinor < 21 &&
      ours.err === 'x509: invalid ECDSA parameters' &&
      theirs.err === 'x509: unsupported elliptic curve'
    ) {
      m.tolerate(`${name}: a curve OID Go ${goMinor} accepts`)
      return
    }
    // X25519 is an unknown algorithm before Go 1.20, an *ecdh.PublicKey since (the manager's Go):
    // by the DER's algorithm OID, which damage to another key can make X25519's too.
    if (
      goMinor < 20 &&
      algorithmOid(d) === X25519_OID &&
      theirs.err === 'x509: unknown public key algorithm'
    ) {
      m.tolerate('x25519: unknown to Go 1.19')
      return
    }
    m.check(`${name} ${d.toString('hex')}`, theirs, ours)
  })
  finish({ diagnostic: () => {} }, [m, inexact])
})

/** Whether anything (a dangling link too) is at p. */
function present(p: string): boolean {
  try {
    lstatSync(p)
    return true
  } catch {
    return false
  }
}

const roots: string[] = []
after(() => {
  if (!process.env.DIFF_KEEP) for (const r of roots) rmSync(r, { recursive: true, force: true })
})

test('the pack hash and VerifySignature over generated trees, keys and damage', { skip }, () => {
  const rand = new Rand(seedFor('mp-verify'))
  const top = mkdtempSync(path.join(tmpdir(), 'ongrid-mp-diff-'))
  roots.push(top)
  const names = [
    'a.md',
    'B.MD',
    '.md',
    '.JSON',
    'x.json',
    'x.md.bak',
    'run.sh',
    'signature.json',
    'Signature.JSON',
    'é.md',
    'z y.md',
    'a..b.md',
  ]
  const keys = [P256, generateKeyPairSync('ec', { namedCurve: 'secp384r1' })]
  const pins = [
    '',
    PEM,
    keys[1].publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    'garbage',
    PEM.replace(/\n/g, '\\n'),
  ]
  const reqs: object[] = []
  const ours: unknown[] = []
  const labels: string[] = []
  const withDigests: number[] = []
  const digests = (i: number) => rand.chance(0.5) && withDigests.push(i) > 0
  for (let i = 0; i < 120; i++) {
    const dir = path.join(top, `p${i}`)
    mkdirSync(dir)
    const nfiles = rand.range(0, 8)
    for (let f = 0; f < nfiles; f++) {
      const sub = rand.pick(['', 'skills/', 'skills/x/', '.claude-plugin/', 'deep/er/'])
      mkdirSync(path.join(dir, sub), { recursive: true })
      const p = path.join(dir, sub, rand.pick(names))
      if (present(p)) continue
      if (rand.chance(0.1)) symlinkSync(rand.pick(['a.md', '../a.md', 'nowhere']), p)
      else writeFileSync(p, `content ${rand.int(1000)}\n`)
    }
    // The signature: valid, over the digest (wrong), damaged, or odd JSON.
    const key = rand.pick(keys)
    const h = computePackHash(fromText(dir))
    const stream = h.stream ?? Buffer.alloc(0)
    const pem = key.publicKey.export({ type: 'spki', format: 'pem' }).toString()
    const kind = rand.int(7)
    const sigPath = path.join(dir, 'signature.json')
    rmSync(sigPath, { recursive: true, force: true })
    // As `marketplace sign` writes it (with each file's digest, a key Go's json.Unmarshal ignores), or bare.
    if (kind === 0)
      writeFileSync(
        sigPath,
        signatureJSON(sign('sha256', stream, key.privateKey), pem, digests(i) ? (h.files ?? []) : undefined),
      )
    else if (kind === 1)
      writeFileSync(sigPath, signatureJSON(sign('sha256', h.digest ?? Buffer.alloc(0), key.privateKey), pem))
    else if (kind === 2) {
      const s = sign('sha256', stream, key.privateKey)
      s[rand.int(s.length)] ^= 1 << rand.int(8)
      writeFileSync(sigPath, signatureJSON(s, pem))
    } else if (kind === 3) {
      const good = signatureJSON(sign('sha256', stream, key.privateKey), pem)
      const at = rand.int(good.length)
      writeFileSync(
        sigPath,
        good.slice(0, at) + rand.pick(['', '=', '-', ' ', '\\n', '"', 'A']) + good.slice(at + rand.int(3)),
      )
    } else if (kind === 4)
      writeFileSync(
        sigPath,
        rand.pick([
          '',
          'null',
          '[]',
          '{"SIG":"YQ==","Pub_Key":"YQ=="}',
          '{"sig":1}',
          '{"sig":"YQ==","pub_key":""}',
        ]),
      )
    else if (kind === 5) mkdirSync(sigPath)
    const pin = rand.pick(pins)
    reqs.push(
      { op: 'hash', root: b64(fromText(dir)) },
      { op: 'verify', root: b64(fromText(dir)), pin: b64(fromText(pin)) },
    )
    const v = verifySignature(fromText(dir), fromText(pin))
    const after = computePackHash(fromText(dir))
    ours.push(
      { err: after.err?.error() ?? null, hex: after.digest?.toString('hex') ?? null },
      { state: v.state, err: v.err?.error() ?? null },
    )
    labels.push(`${dir} (kind ${kind})`)
  }
  const answers = (go as NonNullable<typeof go>)(reqs)
  const hash = new Mismatches('pack hash')
  const verify = new Mismatches('verify')
  for (let i = 0; i < labels.length; i++) {
    const h = answers[2 * i]
    hash.check(labels[i], { err: errOf(h.err), hex: h.err === null ? h.hex : null }, ours[2 * i])
    const v = answers[2 * i + 1]
    // The harness is package main: its type is main.signatureManifest where the manager's is marketplace.'s.
    const goErr = errOf(v.err)?.replace('main.signatureManifest', 'marketplace.signatureManifest') ?? null
    verify.check(labels[i], { state: v.state, err: goErr }, ours[2 * i + 1])
  }
  finish({ diagnostic: () => {} }, [hash, verify])
  // Go verified signature.json files that hold the digests `marketplace sign` records.
  assert.ok(
    withDigests.some((i) => answers[2 * i + 1].state === 'verified'),
    `${withDigests}`,
  )
})

test('keys in PEM: parseECDSAPublicKey texts as Go’s', { skip }, () => {
  const inputs = [
    PEM,
    PEM.replace(/\n/g, '\\n'),
    'nothing',
    ...ders().map(
      ([, d]) => `-----BEGIN PUBLIC KEY-----\n${d.toString('base64')}\n-----END PUBLIC KEY-----\n`,
    ),
  ]
  const answers = (go as NonNullable<typeof go>)(inputs.map((p) => ({ op: 'key', pem: b64(p) })))
  const m = new Mismatches('key')
  inputs.forEach((p, i) => {
    const r = parseECDSAPublicKey(p)
    const ours = r.ok ? null : r.err.error()
    const theirs = errOf(answers[i].err)
    if (goMinor < 20 && ours === 'pub_key is not ECDSA (got *ecdh.PublicKey)') {
      m.tolerate('x25519: unknown to Go 1.19')
      return
    }
    m.check(p, { err: theirs }, { err: ours })
  })
  finish({ diagnostic: () => {} }, [m])
})

/** Decoded fields as plain values (what the Go harness answers as JSON), `other` left out. */
function plainDecoded(d: Decoded): unknown {
  switch (d.k) {
    case 'string':
      return toText(d.value)
    case 'int':
      return Number(d.value)
    case 'list':
      return d.items.map(plainDecoded)
    case 'fields':
      return Object.fromEntries([...d.fields].map(([k, v]) => [k, plainDecoded(v)]))
    default:
      return undefined
  }
}

/** Zero values dropped from objects (Go's omitempty on one side, fields never set on ours). */
function dropZero(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(dropZero)
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = {}
    for (const [k, x] of Object.entries(v)) {
      const y = dropZero(x)
      const empty =
        y === undefined ||
        y === null ||
        y === '' ||
        y === 0 ||
        (Array.isArray(y) && y.length === 0) ||
        (typeof y === 'object' && y !== null && !Array.isArray(y) && Object.keys(y).length === 0)
      if (!empty) out[k] = y
    }
    return out
  }
  return v
}

const YAML_SEEDS = [
  'name: a\ndescription: b',
  'name: "a"\ndescription: |\n  multi\n  line',
  'name: a\nmetadata:\n  ongrid:\n    scope: manager\ntools:\n  - name: t\n    class: read',
  'name: [a, b]\ndescription: x',
  'name: a\ndescription: {x: 1}',
  '%YAML 1.1\n%TAG !e! tag:example.com,2000:\n--- !e!foo\nname: a\ndescription: b\n...\n',
  '--- # doc\nname: !!str 1\ndescription: !<tag:yaml.org,2002:str> x\nversion: !local 1\n',
  '\ufeffname: a\ndescription: "esc \\x41 \\u00e9 \\U0001F600 \\n \\\n  cont"\n',
  "name: 'it''s'\ndescription: >+\n  a\n\n   b\n\nwhen_to_use: |2-\n   x\n  y\n",
  '# head\n\nname: a # line\n# foot\n\ndescription: b\nmetadata: # m\n  # h2\n  os: [linux, # c\n    darwin]\n  requires: {bins: [a, b], credentials: [{slot: s, inject: {env: {A: b}, files: [{path: p}]}}]}\n',
  'base: &b {name: n, description: d}\n<<: *b\nactivation:\n  <<: [{mode: m}, *b]\n  keywords: [k1, "k2", 3]\n',
  '? complex\n: value\n? [a, b]\n? {x: y}\n: z\nname: a\ndescription: b\n',
  'tools:\n- name: a\n  timeout_seconds: 0x1F\n- name: b\n  timeout_seconds: 1e3\n- {name: d, timeout_seconds: .inf}\n',
  `name: a\ndescription: ${'word '.repeat(120)}\ntools:\n${Array.from({ length: 30 }, (_, i) => `  - name: t${i}\n    class: read # c${i}\n`).join('')}`,
  'name: a\ndescription: b\n\tkey: tab\n',
]

const YAML_PIECES = [
  ':',
  ' ',
  '\n',
  '  ',
  '- ',
  '"',
  "'",
  '[',
  ']',
  '{',
  '}',
  '#',
  '&a',
  '*a',
  '!!str ',
  '!!map ',
  '!!null ',
  '!e!x ',
  '!<x> ',
  '|',
  '>',
  '\t',
  ',',
  '?',
  'x',
  '!',
  '%',
  '\\',
  '---',
  '...',
  '<<: ',
  '\r',
  'é',
  '\u2028',
  '\x85',
  '1',
  '!!int ',
  '|-',
  '>2',
  '|0',
  '\ufeff',
  '\x7f',
  '%YAML 1.2\n',
  '%TAG ! !foo\n',
  '\\x4',
  '\\q',
  '@',
  '`',
  '~',
  '- - ',
  '? ',
  ': ',
]

test('SKILL.md frontmatter: yaml.v3’s verdict, error text and decoded fields, as ParseSkillMd gets them', {
  skip,
}, async () => {
  const { parseSkillMd } = await import('../../src/core/native/skill-md.js')
  const { splitFrontmatter } = await import('../../src/core/native/split.js')
  const rand = new Rand(seedFor('mp-yaml'))
  const fixed = [
    ...YAML_SEEDS,
    // Inputs where the `yaml` package and yaml.v3 once disagreed.
    'name: a\ndescription: {: 1}',
    '&aname: "a"\ndescription: b',
    ': a\ndiption:\t b',
    'name: [&aa, b]:\ndescription: x',
    'name: a\ndescription: \x07',
    "a: &x {b: 'c'}\n<<: *x\n? [1, 2]\n: q",
    'name: &n x\ndescription: y\n*n : z',
  ]
  const inputs: GoString[] = fixed.map(fromText)
  const count = Number(process.env.DIFF_YAML_COUNT ?? 1500)
  for (let i = 0; i < count; i++) {
    let s = rand.pick(YAML_SEEDS)
    for (let k = rand.range(1, 5); k > 0; k--) {
      const at = rand.int(s.length + 1)
      s = rand.chance(0.6)
        ? s.slice(0, at) + rand.pick(YAML_PIECES) + s.slice(at)
        : s.slice(0, at) + s.slice(at + rand.range(1, 3))
    }
    let b: string = fromText(s)
    if (rand.chance(0.03)) {
      const at = rand.int(b.length + 1)
      b = b.slice(0, at) + String.fromCharCode(0x80 + rand.int(128)) + b.slice(at)
    }
    inputs.push(b)
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'ongrid-mp-yaml-'))
  roots.push(dir)
  // What the manager hands yaml.Unmarshal: the frontmatter as splitFrontmatter cuts it.
  const files = inputs.map((fm, i) => {
    const file = path.join(dir, `s${i}.md`)
    writeFileSync(file, Buffer.from(`---\n${fm}\n---\nbody\n`, 'latin1'))
    const split = splitFrontmatter(readFileSync(file).toString('latin1'))
    return { file, fm: split.ok ? (split.frontmatter ?? '') : '' }
  })
  const answers = (go as NonNullable<typeof go>)(files.map((f) => ({ op: 'skill', data: b64(f.fm) })))
  const verdict = new Mismatches('yaml.v3 error text')
  const fields = new Mismatches('decoded Skill fields')
  files.forEach(({ file, fm }, i) => {
    const a = answers[i] as Resp & { panic?: string; raw?: boolean; skill?: unknown }
    const ours = parseSkillMd(fromText(file))
    const e = ours.error
    const oursYaml = e !== null && (e.stage === 'yaml' || e.stage === 'yaml-type') ? e : null
    const label = show(fm)
    if (fm.length === 0) return
    if (a.panic !== undefined) {
      verdict.check(
        label,
        { panic: a.panic, exact: false },
        {
          panic: /yaml\.v3 panics \((.*)\): /.exec(oursYaml?.message ?? '')?.[1] ?? null,
          exact: oursYaml?.exact,
        },
      )
      return
    }
    const goErr = errOf(a.err)
    const want =
      goErr === null
        ? null
        : `chatruntime: parse ${fromText(file)} frontmatter${a.raw ? ' (raw)' : ''}: ${goErr}`
    verdict.check(
      label,
      { err: want, exact: true },
      { err: oursYaml?.message ?? null, exact: oursYaml?.exact ?? true },
    )
    if (goErr === null && oursYaml === null) {
      const skill = ours.skill === null ? {} : plainDecoded({ k: 'fields', fields: ours.skill, at: 0 })
      fields.check(label, dropZero(a.skill), dropZero(skill))
    }
  })
  finish({ diagnostic: () => {} }, [verdict, fields])
})

/** A `!!binary` scalar: base64 of random bytes, often damaged, in one of the forms YAML writes it. */
function binaryScalar(rand: Rand): string {
  const bytes = Buffer.from(Array.from({ length: rand.range(0, 7) }, () => rand.int(256)))
  let v = bytes.toString('base64')
  // `~` is a line break, written as each style writes one (the decoder skips `\n` and `\r`).
  if (v.length > 4 && rand.chance(0.3)) v = `${v.slice(0, 4)}~${v.slice(4)}`
  const damage = rand.weighted([
    [5, 0],
    [3, 1],
    [1, 2],
  ])
  for (let k = damage; k > 0; k--) {
    const at = rand.int(v.length + 1)
    v = rand.chance(0.5)
      ? v.slice(0, at) + rand.pick(['=', 'A', '@', '-', '_', ' ', '~', '==', 'QQ', '.']) + v.slice(at)
      : v.slice(0, at) + v.slice(at + 1)
  }
  const tag = rand.pick(['!!binary', '!<tag:yaml.org,2002:binary>'])
  switch (rand.int(4)) {
    case 0:
      return `${tag} "${v.replace(/~/g, rand.pick(['\\n', '\\r\\n', '\\t']))}"`
    case 1: {
      const plain = v.replace(/~/g, '')
      return `${tag} ${plain === '' ? "''" : plain}`
    }
    case 2:
      return `${tag} |\n    ${v.replace(/~/g, '\n    ')}`
    default:
      return `${tag} '${v.replace(/~/g, '')}'`
  }
}

test('!!binary values: yaml.v3 decodes their base64 (or fails with its text), as ParseSkillMd and ParseAgentMd get them', {
  skip,
}, async () => {
  const { parseSkillMd } = await import('../../src/core/native/skill-md.js')
  const { parseAgentMd } = await import('../../src/core/marketplace/frontmatter.js')
  const { splitFrontmatter } = await import('../../src/core/native/split.js')
  const rand = new Rand(seedFor('mp-yaml-binary'))
  // Where the value goes: Skill fields of each type, a key nothing reads (the raw decode only),
  // a key itself, a collection key, an agent's bool, and beside an earlier type error.
  const places: ((b: string) => string)[] = [
    (b) => `name: ${b}\ndescription: d`,
    (b) => `name: a\ndescription: ${b}`,
    (b) => `name: a\ndescription: d\nwhen_to_use: ${b}\nbackground: ${b}`,
    (b) => `name: a\ndescription: d\ntools:\n  - name: ${b}\n    timeout_seconds: ${b}`,
    (b) =>
      `name: a\ndescription: d\nmetadata:\n  os: [${b}]\n  ongrid: {activation: {mode: keyword, keywords: [${b}]}}`,
    (b) => `name: a\ndescription: d\nx: ${b}`,
    (b) => `? ${b}\n: a\ndescription: d`,
    (b) => `name: a\ndescription: d\nx: {? [${b}]: 1}`,
    (b) => `name: [x]\ndescription: ${b}`,
    (b) => `name: a\ndescription: d\nname: ${b}`,
    (b) => `name: a\ndescription: d\ncan_delegate: ${b}\nomit_claude_md: ${b}`,
  ]
  const inputs: string[] = []
  const count = Math.ceil(Number(process.env.DIFF_YAML_COUNT ?? 1500) / 3)
  for (let i = 0; i < count; i++) inputs.push(rand.pick(places)(binaryScalar(rand)))
  // Fixed: true and false in YAML 1.1 words, through base64.
  inputs.push(`name: a\ndescription: d\nbackground: !!binary ${Buffer.from('yes').toString('base64')}`)
  inputs.push(`name: a\ndescription: d\ncan_delegate: !!binary ${Buffer.from('Off').toString('base64')}`)
  const dir = mkdtempSync(path.join(tmpdir(), 'ongrid-mp-binary-'))
  roots.push(dir)
  const cases = inputs.flatMap((fm, i) =>
    (['skill', 'agent'] as const).map((op) => {
      const file = path.join(dir, `${op}${i}.md`)
      writeFileSync(file, Buffer.from(`---\n${fm}\nwhen_to_use: w\n---\nbody\n`, 'latin1'))
      const split = splitFrontmatter(readFileSync(file).toString('latin1'))
      return { op, file, fm: split.ok ? (split.frontmatter ?? '') : '' }
    }),
  )
  const answers = (go as NonNullable<typeof go>)(cases.map((c) => ({ op: c.op, data: b64(c.fm) })))
  const verdict = new Mismatches('!!binary: yaml.v3 error text')
  const fields = new Mismatches('!!binary: decoded Skill fields')
  let decoded = 0
  let refused = 0
  cases.forEach(({ op, file, fm }, i) => {
    const a = answers[i] as Resp & { panic?: string; raw?: boolean; skill?: unknown }
    const label = `${op} ${show(fm)}`
    const goErr = errOf(a.err)
    const want =
      goErr === null
        ? null
        : `chatruntime: parse ${fromText(file)} frontmatter${a.raw ? ' (raw)' : ''}: ${goErr}`
    if (goErr?.includes('!!binary value contains invalid base64 data')) refused++
    else if (goErr === null) decoded++
    if (op === 'agent') {
      const ours = parseAgentMd(fromText(file))
      const parseErr = ours.error?.startsWith(`chatruntime: parse ${fromText(file)} frontmatter`)
        ? ours.error
        : null
      verdict.check(label, { err: want, panic: a.panic }, { err: parseErr, panic: undefined })
      return
    }
    const ours = parseSkillMd(fromText(file))
    const e = ours.error
    const oursYaml = e !== null && (e.stage === 'yaml' || e.stage === 'yaml-type') ? e : null
    verdict.check(
      label,
      { err: want, exact: true, panic: a.panic },
      { err: oursYaml?.message ?? null, exact: oursYaml?.exact ?? true, panic: undefined },
    )
    if (goErr === null && oursYaml === null) {
      const skill = ours.skill === null ? {} : plainDecoded({ k: 'fields', fields: ours.skill, at: 0 })
      fields.check(label, dropZero(a.skill), dropZero(skill))
    }
  })
  // Both outcomes are exercised, or the comparison proves little.
  assert.ok(decoded > 20 && refused > 20, `decoded ${decoded}, refused ${refused}`)
  finish({ diagnostic: () => {} }, [verdict, fields])
})

const AGENT_SEEDS = [
  'name: a\ndescription: b\nwhen_to_use: c\ncan_delegate: true\nbackground: yes\nomit_claude_md: Off\nmax_turns: 3',
  'name: a\ndescription: b\nwhen_to_use: c\ncapabilities:\n  - id: x\n    tools: [t1, t2]\n    max_tool_calls: 2\n  - {id: y, skills: [s]}\n',
  'name: a\ndescription: b\nwhen_to_use: c\nbackground: 1\ncan_delegate: "no"\ntools: [a, b]\ndisallowed_tools: c\n',
  'description: run it\nallowed-tools: [Bash, Read]\n',
  'description: &d x\nallowed-tools:\n  - *d\n  - y\n',
]

test('agents and commands frontmatter: yaml.v3’s error texts, as ParseAgentMd and ConvertCommandFile get them', {
  skip,
}, async () => {
  const { convertCommandFile, parseAgentMd } = await import('../../src/core/marketplace/frontmatter.js')
  const { splitFrontmatter } = await import('../../src/core/native/split.js')
  const rand = new Rand(seedFor('mp-yaml-agent'))
  const inputs: GoString[] = AGENT_SEEDS.map(fromText)
  const count = Math.ceil(Number(process.env.DIFF_YAML_COUNT ?? 1500) / 3)
  for (let i = 0; i < count; i++) {
    let s = rand.pick(AGENT_SEEDS)
    for (let k = rand.range(1, 4); k > 0; k--) {
      const at = rand.int(s.length + 1)
      s = rand.chance(0.6)
        ? s.slice(0, at) + rand.pick(YAML_PIECES) + s.slice(at)
        : s.slice(0, at) + s.slice(at + rand.range(1, 3))
    }
    inputs.push(fromText(s))
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'ongrid-mp-agent-'))
  roots.push(dir)
  const cases = inputs.flatMap((fm, i) =>
    (['agent', 'command'] as const).map((op) => {
      const file = path.join(dir, `${op}${i}.md`)
      writeFileSync(file, Buffer.from(`---\n${fm}\n---\nbody\n`, 'latin1'))
      const split = splitFrontmatter(readFileSync(file).toString('latin1'))
      return { op, file, fm: split.ok ? (split.frontmatter ?? '') : '' }
    }),
  )
  const answers = (go as NonNullable<typeof go>)(cases.map((c) => ({ op: c.op, data: b64(c.fm) })))
  const m = new Mismatches('agent/command frontmatter error text')
  cases.forEach(({ op, file, fm }, i) => {
    if (fm.length === 0) return
    const a = answers[i] as Resp & { panic?: string; raw?: boolean }
    const ours = op === 'agent' ? parseAgentMd(fromText(file)) : convertCommandFile(fromText(file))
    const parseErr = ours.error?.startsWith(`chatruntime: parse ${fromText(file)} frontmatter`)
      ? ours.error
      : null
    const label = `${op} ${show(fm)}`
    if (a.panic !== undefined) {
      m.check(
        label,
        { panic: a.panic, exact: false },
        { panic: /yaml\.v3 panics \((.*)\): /.exec(parseErr ?? '')?.[1] ?? null, exact: ours.exact },
      )
      return
    }
    const goErr = errOf(a.err)
    const want =
      goErr === null
        ? null
        : `chatruntime: parse ${fromText(file)} frontmatter${a.raw ? ' (raw)' : ''}: ${goErr}`
    m.check(label, { err: want, exact: true }, { err: parseErr, exact: ours.exact })
  })
  finish({ diagnostic: () => {} }, [m])
})

/** The tree below an extraction's root, as the Go harness lists it (WalkDir order). */
function listTree(root: string): { path: string; kind: string; mode: number; data?: string }[] {
  const out: { path: string; kind: string; mode: number; data?: string }[] = []
  const walk = (abs: Buffer, rel: string) => {
    for (const name of (readdirSync(abs, { encoding: 'buffer' }) as Buffer[]).sort(Buffer.compare)) {
      const p = Buffer.concat([abs, Buffer.from('/'), name])
      const r = rel === '' ? name.toString('latin1') : `${rel}/${name.toString('latin1')}`
      const st = lstatSync(p)
      if (st.isDirectory()) {
        out.push({ path: r, kind: 'dir', mode: st.mode & 0o777 })
        walk(p, r)
      } else
        out.push({ path: r, kind: 'file', mode: st.mode & 0o777, data: readFileSync(p).toString('latin1') })
    }
  }
  walk(Buffer.from(root, 'latin1'), '')
  return out
}

test('archives: extracted as the upload endpoint does (Go’s archive/tar, archive/zip and gzip)', {
  skip,
}, async () => {
  const { pack } = await import('tar-stream')
  const { ZipFile } = await import('yazl')
  const { gzipSync } = await import('node:zlib')
  const { extractUpload } = await import('../../src/core/marketplace/archive.js')
  const rand = new Rand(seedFor('mp-archive'))
  const top = mkdtempSync(path.join(tmpdir(), 'ongrid-mp-arch-'))
  roots.push(top)
  const names = [
    'p/a.md',
    'p/./b.md',
    'p//c.json',
    '/abs/x.md',
    'p/a..b.md',
    '..x/y.md',
    '../up.md',
    'p/../../up.md',
    'p/../q.md',
    'p\\back.md',
    'p/sub/d.md',
    'p/sub',
    'p',
    'q/r/s.md',
    'p/a.md',
    `p/${'n'.repeat(120)}.md`,
    './p/e.md',
    'p/sub/',
    'p/é.md',
  ]
  const tarTypes = [
    'file',
    'file',
    'file',
    'directory',
    'symlink',
    'link',
    'fifo',
    'character-device',
    'contiguous-file',
  ] as const
  const cases: { file: string; name: string }[] = []
  for (let i = 0; i < 160; i++) {
    const kind = rand.pick(['tar', 'tar.gz', 'zip'] as const)
    const n = rand.range(1, 6)
    const file = path.join(top, `a${i}.${kind}`)
    if (kind === 'zip') {
      // yazl refuses unsafe names: write stand-ins of the same length, then put the real names back.
      const z = new ZipFile()
      const swaps: [string, string][] = []
      const standIn = (name: string) => {
        const safe = name.replace(/\.\./g, '\x01\x01').replace(/\\/g, '\x02').replace(/^\//, '\x03')
        swaps.push([safe, name])
        return safe
      }
      for (let k = 0; k < n; k++) {
        const name = rand.pick(names)
        if (name.endsWith('/') || rand.chance(0.15))
          z.addEmptyDirectory(standIn(name.replace(/\/$/, '') || 'd'), { mode: 0o40755 })
        else {
          const type = rand.pick([0o100000, 0o100000, 0o120000])
          const mode = type | rand.int(0o10000)
          const data = Buffer.from(`content ${k} `.repeat(rand.range(1, 40)))
          const opts = { mode, compress: rand.chance(0.5) }
          const entryName = standIn(name.replace(/\/$/, '') || 'f')
          // A stream has no size up front: yazl writes a data descriptor after it.
          if (rand.chance(0.3)) z.addReadStream(Readable.from([data]), entryName, opts)
          else z.addBuffer(data, entryName, opts)
        }
      }
      z.end()
      const chunks: Buffer[] = []
      for await (const c of z.outputStream) chunks.push(c as Buffer)
      let bytes = Buffer.concat(chunks)
      for (const [safe, real] of swaps) {
        if (safe === real) continue
        const from = Buffer.from(safe)
        const to = Buffer.from(real)
        for (let at = bytes.indexOf(from); at !== -1; at = bytes.indexOf(from, at + to.length)) {
          bytes = Buffer.concat([bytes.subarray(0, at), to, bytes.subarray(at + from.length)])
        }
      }
      writeFileSync(file, bytes)
    } else {
      const p = pack()
      const chunks: Buffer[] = []
      p.on('data', (c) => chunks.push(c as Buffer))
      const done = new Promise<void>((resolve) => p.on('end', () => resolve()))
      for (let k = 0; k < n; k++) {
        const type = rand.pick(tarTypes)
        const name = rand.pick(names)
        const mode = rand.int(0o10000)
        if (type === 'file' || type === 'contiguous-file') p.entry({ name, type, mode }, `content ${k}`)
        else if (type === 'symlink' || type === 'link') p.entry({ name, type, mode, linkname: 'p/a.md' })
        else p.entry({ name, type, mode })
      }
      p.finalize()
      await done
      let tar = Buffer.concat(chunks)
      // Past a first zero block Go reads one more block: another zero block ends the archive
      // (whatever follows), anything else is an invalid header.
      if (rand.chance(0.15)) {
        const extra = pack()
        const more: Buffer[] = []
        extra.on('data', (c) => more.push(c as Buffer))
        const fin = new Promise<void>((resolve) => extra.on('end', () => resolve()))
        extra.entry({ name: 'p/late.md' }, 'late')
        extra.finalize()
        await fin
        const end = tar.length - 1024 + (rand.chance(0.5) ? 512 : 0)
        tar = Buffer.concat([tar.subarray(0, Math.max(0, end)), Buffer.concat(more)])
      }
      writeFileSync(file, kind === 'tar.gz' ? gzipSync(tar) : tar)
    }
    cases.push({ file, name: path.basename(file) })
  }
  // Damaged archives: Go's error texts, where ours are exact.
  const whole = cases.length
  for (let i = 0; i < 80; i++) {
    const src = cases[rand.int(whole)]
    const bytes = readFileSync(src.file)
    const cut = bytes.subarray(0, rand.int(bytes.length))
    const file = path.join(top, `cut${i}-${src.name}`)
    writeFileSync(file, cut)
    cases.push({ file, name: path.basename(file) })
  }
  for (let i = 0; i < 80; i++) {
    const src = cases[rand.int(whole)]
    const bytes = Buffer.from(readFileSync(src.file))
    for (let k = rand.range(1, 3); k > 0; k--) bytes[rand.int(bytes.length)] ^= 1 << rand.int(8)
    const file = path.join(top, `flip${i}-${src.name}`)
    writeFileSync(file, bytes)
    cases.push({ file, name: path.basename(file) })
  }
  const goDests = cases.map((_, i) => {
    const d = path.join(top, `go${i}`)
    mkdirSync(d)
    return d
  })
  const answers = (go as NonNullable<typeof go>)(
    cases.map((c, i) => ({
      op: 'extract',
      file: b64(fromText(c.file)),
      name: b64(fromText(c.name)),
      dest: b64(fromText(goDests[i])),
    })),
  )
  const m = new Mismatches('archive extraction')
  for (let i = 0; i < cases.length; i++) {
    const a = answers[i]
    const x = await extractUpload(cases[i].file, cases[i].name)
    let ours: unknown
    let theirs: unknown
    if (a.err !== null) theirs = { err: errOf(a.err)?.split(goDests[i]).join('DEST') }
    else {
      const tree = ((a.tree ?? []) as Resp[]).map((e) => ({
        path: unb64(e.path),
        kind: e.kind,
        mode: e.mode,
        ...(e.kind === 'file' ? { data: unb64(e.data) } : {}),
      }))
      theirs = { root: unb64(a.root), tree }
    }
    if (!x.ok) {
      if (!x.exact && a.err !== null) {
        m.tolerate(`${cases[i].name}: ${errOf(a.err)}`)
        continue
      }
      // A damaged deflate stream that Go's tar reader stops short of, but within the last bytes
      // zlib decoded before it failed (zlib withholds them with its error; at most 64).
      if (!x.exact && x.error.startsWith('gzip: ') && a.err === null) {
        m.tolerate(`${cases[i].name}: Go stops before the damage, we report it (${x.error})`)
        continue
      }
      ours = { err: x.error }
    } else {
      try {
        ours = {
          root: x.value.descended ? path.basename(x.value.root) : '.',
          tree: listTree(x.value.root),
        }
        if (a.err !== null) ours = { ...(ours as object), dest: x.value.dest }
      } finally {
        x.value.cleanup()
      }
    }
    if (x.ok === false && typeof (ours as { err?: string }).err === 'string') {
      // Our texts carry our temp dir where Go's carry its own.
      ours = { err: (ours as { err: string }).err.replace(/\/[^ ]*?ongrid-pack-[A-Za-z0-9]+/g, 'DEST') }
    }
    m.check(cases[i].name, theirs, ours)
  }
  finish({ diagnostic: (d) => process.env.DIFF_SHOW && console.log(d) }, [m])
})

test('the upload limit: the smallest request for an archive, under Go’s MaxBytesReader', {
  skip,
}, async () => {
  const { MAX_UPLOAD, minUploadRequest, UPLOAD_TOO_LARGE, uploadFraming } = await import(
    '../../src/core/marketplace/archive.js'
  )
  const m = new Mismatches('upload limit')
  for (const name of ['p.tar', 'my pack.tgz', 'a"b\\c.zip', 'é.tar.gz', 'x;y=z.tar']) {
    const { head, tail } = uploadFraming(name)
    const edge = MAX_UPLOAD - minUploadRequest(0, name)
    for (const size of [0, edge, edge + 1]) {
      const [a] = (go as NonNullable<typeof go>)([
        { op: 'upload', head: b64(fromText(head)), tail: b64(fromText(tail)), size },
      ])
      const theirs = a.err !== null ? { err: errOf(a.err) } : { name: toTextOf(unb64(a.name)), size: a.size }
      const ours = minUploadRequest(size, name) > MAX_UPLOAD ? { err: UPLOAD_TOO_LARGE } : { name, size }
      m.check(`${name} ${size}`, theirs, ours)
    }
  }
  finish({ diagnostic: () => {} }, [m])
})

function toTextOf(s: GoString): string {
  return Buffer.from(s, 'latin1').toString('utf8')
}

const CAP_SEEDS = [
  'name: a\ndescription: d\ntools:\n  - {name: t1, class: write}\n  - {name: t2}\n  - name: t3\n    class: destructive\nmetadata:\n  requires:\n    bins: [etcdctl, kubectl, etcdctl]\n    config: [endpoint, "<k&>"]\n',
  'name: a\ndescription: d\nmetadata:\n  ongrid: {scope: edge, edge_runtime: wasm}\n  requires:\n    credentials:\n      - {slot: aws, label: AWS, fields: [id, secret]}\n      - {label: none}\n      - slot: aws\n        label: again\n      - {slot: "é\\u2028", label: "\\x01\\"<"}\n',
  'name: a\ndescription: d\ntools: [{class: ""}, {class: read}, {class: Read}]\nmetadata: {requires: {bins: [], config: [~, c], credentials: [~]}}\n',
  'name: a\ndescription: d\nmetadata:\n  requires: &r {bins: [x]}\n  ongrid: {scope: "manager"}\ntools: [{class: *r}]\n',
  'name: a\ndescription: d\nmetadata:\n  ongrid:\n    edge_capabilities: [{net: [a, b]}, {}]\n',
]

test('the capability declaration (CapabilitiesJSON): Go’s json.Marshal of the same decoded skills', {
  skip,
}, async (t) => {
  const { parseSkillMd } = await import('../../src/core/native/skill-md.js')
  const { splitFrontmatter } = await import('../../src/core/native/split.js')
  const { capabilityDeclarationJSON } = await import('../../src/core/marketplace/capabilities.js')
  const rand = new Rand(seedFor('mp-caps'))
  const dir = mkdtempSync(path.join(tmpdir(), 'ongrid-mp-caps-'))
  roots.push(dir)
  // Go ≤ 1.21 writes \b and \f as \u0008 and \u000c (the manager, Go 1.25: \b, \f): left out.
  const PIECES = [
    'a',
    '<',
    '>',
    '&',
    '"',
    '\\',
    '\x01',
    '\x0b',
    '\x7f',
    fromText('é'),
    fromText('\u2028'),
    '\xff',
  ]
  const bytes = () => {
    let s = ''
    for (let k = rand.int(6); k > 0; k--) s += rand.pick(PIECES)
    return s
  }
  const count = Math.ceil(Number(process.env.DIFF_YAML_COUNT ?? 1500) / 5)
  const sameOk = new Mismatches('which skills decode')
  const json = new Mismatches('capability declaration bytes')
  let unsupported = 0
  let file = 0
  const cases = []
  for (let i = 0; i < count; i++) {
    const entries: { fm: GoString | null; name: GoString }[] = []
    for (let k = rand.range(0, 4); k > 0; k--) {
      if (rand.chance(0.2)) {
        entries.push({ fm: null, name: `cmd_${bytes()}` })
        continue
      }
      let s = rand.pick(CAP_SEEDS)
      for (let m = rand.int(3); m > 0; m--) {
        const at = rand.int(s.length + 1)
        s = rand.chance(0.6)
          ? s.slice(0, at) + rand.pick(YAML_PIECES) + s.slice(at)
          : s.slice(0, at) + s.slice(at + rand.range(1, 3))
      }
      const f = path.join(dir, `c${file++}.md`)
      writeFileSync(f, Buffer.from(`---\n${fromText(s)}\n---\nbody\n`, 'latin1'))
      entries.push({ fm: fromText(f), name: bytes() || 'n' })
    }
    cases.push({ id: bytes(), version: bytes(), agents: rand.int(3), entries })
  }
  const answers = (go as NonNullable<typeof go>)(
    cases.map((c) => ({
      op: 'caps',
      name: b64(c.id),
      s: b64(c.version),
      agents: c.agents,
      names: c.entries.map((e) => b64(e.name)),
      docs: c.entries.map((e) => {
        if (e.fm === null) return ''
        const split = splitFrontmatter(readFileSync(toText(e.fm)).toString('latin1'))
        return b64(split.ok ? (split.frontmatter ?? '') : '')
      }),
    })),
  )
  cases.forEach((c, i) => {
    const a = answers[i] as Resp & { ok?: boolean[]; json?: string; panic?: string }
    if (a.panic !== undefined) return
    const oks: boolean[] = []
    const skills = []
    for (const e of c.entries) {
      if (e.fm === null) {
        oks.push(true)
        skills.push({ name: e.name, fields: null })
        continue
      }
      const p = parseSkillMd(e.fm)
      const yamlFailed = p.error !== null && (p.error.stage === 'yaml' || p.error.stage === 'yaml-type')
      oks.push(!yamlFailed)
      if (!yamlFailed) skills.push({ name: e.name, fields: p.skill })
    }
    const label = show(
      c.entries.map((e) => (e.fm === null ? '(command)' : readFileSync(toText(e.fm), 'latin1'))).join(' | '),
    )
    if (!sameOk.check(label, a.ok, oks)) return
    const ours = capabilityDeclarationJSON(c.id, c.version, skills, c.agents)
    if (!ours.ok) {
      unsupported++
      return
    }
    json.check(label, { json: unb64(a.json as string), err: null }, { json: ours.json, err: errOf(a.err) })
  })
  if (json.checked < count / 4)
    throw new Error(`only ${json.checked} declarations compared (${unsupported} with edge_capabilities)`)
  t.diagnostic(`${unsupported} declarations with edge_capabilities (not reproduced)`)
  finish(t, [sameOk, json])
})
