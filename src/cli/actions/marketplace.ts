/**
 * The work of the `marketplace` commands, without oclif: check, verify, keygen, sign, pack.
 * A PATH is a pack dir (checked in place) or an archive (extracted as the upload endpoint
 * does, into a temp dir removed afterwards).
 */
import * as fsModule from 'node:fs'
import { existsSync, lstatSync, realpathSync, statSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import type MarketplaceCheck from '../../commands/marketplace/check.js'
import type MarketplaceKeygen from '../../commands/marketplace/keygen.js'
import type MarketplacePack from '../../commands/marketplace/pack.js'
import type MarketplaceSign from '../../commands/marketplace/sign.js'
import type MarketplaceVerify from '../../commands/marketplace/verify.js'
import { fromText, type GoString, toText } from '../../core/go/gostring.js'
import { reasonText } from '../../core/go/os/errors.js'
import { base } from '../../core/go/path/filepath/path.js'
import type { RuleMeta, Severity } from '../../core/lint/types.js'
import { capabilityDeclarationJSON } from '../../core/marketplace/capabilities.js'
import {
  checkInstall,
  DEVMODE_ENV,
  type InstallCheck,
  PINNED_PUBKEY_ENV,
  parseDevMode,
  parseRequireSigned,
  REQUIRE_SIGNED_ENV,
  stagingBasename,
  type TrustConfig,
} from '../../core/marketplace/install.js'
import {
  MARKETPLACE_RULES,
  UNSIGNED_MESSAGE,
  WARNING_SEVERITY,
  warningRuleId,
} from '../../core/marketplace/rules.js'
import {
  listPackFiles,
  PIN_MISMATCH,
  SIGNATURE_MISMATCH,
  type Verdict,
  verifySignature,
} from '../../core/marketplace/signature.js'
import { NotRegularError, readFileBounded, sizeText, TooLargeError } from '../../core/read-bounded.js'
import { envelope } from '../../ui/envelope.js'
import { renderLint } from '../../ui/lint/format.js'
import { counts, type LintOutput } from '../../ui/lint/model.js'
import {
  type CapabilityDeclaration,
  type CheckDocument,
  checkJson,
  lintOutput,
  summary,
} from '../../ui/marketplace/report.js'
import { terminalLineText } from '../../ui/terminal.js'
import { EXIT, type InputOf, UserError } from '../errors.js'
import { typedFlag } from '../number-flag.js'
import { argBytes, envBytes } from '../os-bytes.js'
import { onStopSignals } from '../signals.js'
import { type Format, formatOf } from './lint.js'

/** A pack dir or an extracted archive, with how its paths are shown. */
export interface Target {
  /** As typed, resolved (text). */
  display: string
  archive: boolean
  /** The pack root to check (byte string), null when the archive was refused. */
  root: GoString | null
  /** The name the manager's staging copy would have (bare pack ids come from it). */
  stagingName: GoString
  /** Upload errors (the text after `invalid argument\n`). */
  uploadError: { text: GoString; exact: boolean } | null
  /** Archive without a single top-level folder. */
  noWrapper: boolean
  /** Maps a path or text under the checked tree to what the user sees (text). */
  show: (s: GoString) => string
  cleanup: () => void
}

export async function openTarget(path: string): Promise<Target> {
  const display = resolve(path)
  let st: ReturnType<typeof statSync>
  try {
    st = statSync(display)
  } catch (e) {
    throw new UserError(`${path}: ${reasonText(e)}`)
  }
  if (!st.isDirectory() && !st.isFile())
    throw new UserError(
      `${path}: not a regular file or directory (a FIFO or device); give a pack dir or an archive`,
    )
  if (st.isDirectory()) {
    const root = fromText(display)
    return {
      display,
      archive: false,
      root,
      stagingName: stagingBasename(base(root)),
      uploadError: null,
      noWrapper: false,
      show: (s) => toText(s),
      cleanup: () => {},
    }
  }
  const { extractUpload } = await import('../../core/marketplace/archive.js')
  const x = await extractUpload(display)
  if (!x.ok && x.ours === true) throw new UserError(`${path}: ${toText(x.error)}`)
  if (!x.ok) {
    return {
      display,
      archive: true,
      root: null,
      stagingName: '',
      uploadError: { text: x.error, exact: x.exact },
      noWrapper: false,
      show: (s) => toText(s),
      cleanup: () => {},
    }
  }
  const { dest, root, descended, cleanup } = x.value
  const shown = fromText(display)
  return {
    display,
    archive: true,
    root,
    stagingName: stagingBasename(base(root)),
    uploadError: null,
    noWrapper: !descended,
    show: (s) => toText(s.split(dest).join(shown)),
    cleanup,
  }
}

/**
 * Runs `fn` so that a stop signal leaves nothing of ours behind: the archive's extraction dirs
 * and any staged temp file are removed, then the exit is 128 + the signal's number.
 */
async function stoppable(fn: () => Promise<number>): Promise<number> {
  const { removeAllScratch } = await import('../../core/marketplace/scratch.js')
  const { discardAllStaged } = await import('../../core/atomic-write.js')
  const off = onStopSignals((_signal, code) => {
    removeAllScratch()
    discardAllStaged()
    process.stderr.write('ongrid-skill: interrupted: nothing left behind\n')
    process.exit(code)
  })
  try {
    return await fn()
  } finally {
    off()
  }
}

const NOT_EXACT = ' (not the manager’s exact text)'
const OURS = 'not the manager’s verdict: '

/** Where a trust setting came from: the flag, the manager's variable, or the manager's default. */
type Origin = 'flag' | 'env' | 'default'

/**
 * --pinned-key: the PEM itself when the value holds a PEM header (as the manager's variable does),
 * else a file to read it from.
 */
function pinnedKeyOf(value: string): GoString {
  if (value.includes('-----BEGIN')) return argBytes(value)
  return readKeyFile('--pinned-key', value, ' (give a file, or the PEM itself)').toString('latin1')
}

/** The most a key file (--key, --pinned-key) may hold: a PEM key is a few KiB. */
export const MAX_KEY_FILE = 1024 * 1024

/** A key file's bytes: a regular file of at most MAX_KEY_FILE, or one line naming the flag. */
function readKeyFile(flag: string, file: string, hint = ''): Buffer {
  try {
    return readFileBounded(file, MAX_KEY_FILE, { regularOnly: true })
  } catch (e) {
    if (e instanceof NotRegularError && statSync(file).isDirectory())
      throw new UserError(`${flag} ${file}: is a directory${hint}`)
    if (e instanceof NotRegularError || e instanceof TooLargeError)
      throw new UserError(`${flag} ${file}: ${e.message}`)
    throw new UserError(`${flag} ${file}: ${reasonText(e)}${hint}`)
  }
}

/**
 * The trust settings: each flag, else the manager's own variable read as main.go reads it
 * (ONGRID_MARKETPLACE_DEVMODE, _REQUIRE_SIGNED_SOURCES, _PINNED_PUBKEY), else its default.
 */
function trustOf(
  flags: Partial<
    Pick<InputOf<typeof MarketplaceCheck>['flags'], 'dev-mode' | 'require-signed' | 'pinned-key' | 'source'>
  >,
): TrustConfig & { origin: Record<string, Origin> } {
  const origin: Record<string, Origin> = {}
  const dev = flags['dev-mode']
  const devEnv = envBytes(DEVMODE_ENV)
  origin.devMode = dev !== undefined ? 'flag' : devEnv !== undefined ? 'env' : 'default'
  const devMode = parseDevMode(dev !== undefined ? argBytes(dev) : devEnv)
  const required = flags['require-signed'] ?? []
  const requiredEnv = envBytes(REQUIRE_SIGNED_ENV)
  origin.requireSigned = required.length > 0 ? 'flag' : requiredEnv !== undefined ? 'env' : 'default'
  const requireSigned = required.length > 0 ? required : parseRequireSigned(requiredEnv).map(toText)
  const pin = flags['pinned-key']
  const pinEnv = envBytes(PINNED_PUBKEY_ENV)
  origin.pinnedKey = pin !== undefined ? 'flag' : pinEnv !== undefined && pinEnv !== '' ? 'env' : 'default'
  const pinnedKey = pin !== undefined ? pinnedKeyOf(pin) : (pinEnv ?? '')
  return { devMode, requireSigned, pinnedKey, source: flags.source ?? 'local', origin }
}

function uncoveredOf(root: GoString): string[] {
  return listPackFiles(root)
    .files.uncovered.filter((u) => u.why === 'extension' || u.why === 'symlink')
    .map((u) => toText(u.rel))
}

function signatureDoc(v: Verdict, root: GoString): NonNullable<CheckDocument['signature']> {
  return {
    state: v.state,
    error: v.err ? toText(v.err.error()) : null,
    exact: v.exact,
    hash: v.hash ?? null,
    curve: v.curve ?? null,
    uncovered: uncoveredOf(root),
  }
}

/** A check or verify document for the target with nothing found yet. */
function emptyDocument(
  command: CheckDocument['command'],
  t: Target,
  trust: CheckDocument['trust'],
): CheckDocument {
  return {
    command,
    target: {
      path: t.display,
      archive: t.archive,
      root: t.root !== null && t.archive ? t.show(t.root) : null,
    },
    layout: null,
    pack: null,
    skills: [],
    agents: [],
    warnings: [],
    install: null,
    capabilities: null,
    capabilitiesJSON: null,
    signature: null,
    trust,
    findings: [],
  }
}

/** The check document: the manager's verdict on the target, and our findings. */
export async function checkDocument(
  t: Target,
  trust: TrustConfig & { origin?: Record<string, 'flag' | 'env' | 'default'> },
): Promise<CheckDocument> {
  const doc = emptyDocument('marketplace check', t, {
    devMode: trust.devMode,
    requireSigned: trust.requireSigned,
    pinnedKey: trust.pinnedKey !== '',
    source: trust.source,
    ...(trust.origin ? { from: trust.origin } : {}),
  })
  const findings = doc.findings
  if (t.uploadError || t.root === null) {
    const text = `invalid argument\n${toText(t.uploadError?.text ?? '')}`
    doc.install = { ok: false, error: text, exact: t.uploadError?.exact ?? true }
    findings.push({
      ruleId: 'marketplace/install-refused',
      severity: 'error',
      file: t.display,
      message: text + (t.uploadError?.exact === false ? NOT_EXACT : ''),
    })
    return doc
  }
  const c: InstallCheck = await checkInstall(t.root, trust, { stagingName: t.stagingName })
  doc.layout = c.kind
  if (c.load) {
    const p = c.load.pack
    doc.pack = {
      id: toText(p.id),
      displayName: toText(p.displayName),
      version: toText(p.version),
      description: toText(p.description),
      manifestSha256: p.manifestSHA256,
    }
    doc.skills = c.load.skills.map((s) => ({ name: toText(s.name), path: t.show(s.path), from: s.from }))
    doc.agents = c.load.agents.map((a) => ({ name: toText(a.name), path: t.show(a.path) }))
    doc.warnings = c.load.warnings.map((w) => ({
      path: t.show(w.path),
      code: w.code,
      reason: t.show(w.reason),
      exact: w.exact !== false,
    }))
    const packFile = t.show(t.root)
    for (const w of c.load.warnings) {
      const onPath = w.path !== '' && w.code !== 'skills_path_rejected'
      findings.push({
        ruleId: warningRuleId(w.code),
        severity: WARNING_SEVERITY.get(w.code) ?? 'warn',
        file: onPath ? t.show(w.path) : packFile,
        message: `${w.code}: ${t.show(w.reason)}${w.exact === false ? NOT_EXACT : ''}`,
      })
    }
  }
  doc.install = {
    ok: c.installError === null,
    error: c.installError === null ? null : t.show(c.installError),
    exact: c.installErrorExact,
  }
  if (c.installError === null && c.load) {
    const l = c.load
    const caps = capabilityDeclarationJSON(l.pack.id, l.pack.version, l.skills, l.agents.length)
    if (caps.ok) {
      doc.capabilitiesJSON = toText(caps.json)
      doc.capabilities = JSON.parse(doc.capabilitiesJSON) as CapabilityDeclaration
    } else doc.capabilitiesUnsupported = caps.unsupported
  }
  if (c.installError !== null) {
    findings.push({
      ruleId: 'marketplace/install-refused',
      severity: 'error',
      file: t.show(t.root),
      message: t.show(c.installError) + (c.installErrorExact ? '' : NOT_EXACT),
    })
  }
  if (c.kind !== '') {
    const v = c.signature ?? verifySignature(t.root, trust.pinnedKey)
    doc.signature = signatureDoc(v, t.root)
    if (v.state === 'failed') {
      findings.push({
        ruleId: 'marketplace/signature-failed',
        severity: 'warn',
        file: t.show(t.root),
        message: `signature ${v.state}: ${t.show(v.err?.error() ?? '')}${v.exact ? '' : NOT_EXACT}`,
        hint: 'the manager installs it anyway unless ONGRID_MARKETPLACE_DEVMODE is off and the source must be signed',
      })
    } else if (v.state === 'unsigned') {
      findings.push({
        ruleId: 'marketplace/unsigned',
        severity: 'info',
        file: t.show(t.root),
        message: UNSIGNED_MESSAGE,
      })
    }
  }
  for (const f of c.findings) {
    findings.push({ ruleId: f.id, severity: f.severity, file: t.show(f.path), message: OURS + f.message })
  }
  if (t.noWrapper && c.kind !== '') {
    findings.push({
      ruleId: 'marketplace-practice/no-wrapper',
      severity: 'warn',
      file: t.display,
      message: `${OURS}the archive has no single top-level folder: the manager stages it under a random ongrid-pack-<digits> dir${c.kind === 'bare_skills' ? ', which becomes the pack id (every upload is a new pack)' : ''}`,
    })
  }
  return doc
}

const RULES: RuleMeta[] = [
  ...MARKETPLACE_RULES,
  {
    id: 'marketplace-practice/no-wrapper',
    severity: 'warn',
    category: 'best-practice',
    kind: 'any',
    docs: 'an archive without one top-level folder: staged under a random name',
  },
]

/**
 * Prints the document in the chosen format; returns the exit code (1 on any error finding).
 * Quiet, only the findings that fail (errors) are shown.
 */
async function render(doc: CheckDocument, format: Format, failed: boolean, quiet: boolean): Promise<number> {
  if (quiet) doc = { ...doc, findings: doc.findings.filter((f) => f.severity === 'error') }
  const cwd = process.cwd()
  const tty = process.stdout.isTTY === true
  const out: LintOutput = lintOutput(doc, RULES, cwd, tty)
  let text: string
  if (format === 'stylish') {
    const { relative } = await import('node:path')
    text = summary(doc, (p) => relative(cwd, p) || '.', tty) + (await renderLint('stylish', out))
  } else if (format === 'json') {
    const errors = counts(out).errors
    const failure = `${errors} error${errors === 1 ? '' : 's'} found`
    text = `${JSON.stringify(checkJson(doc, out, failed ? EXIT.findings : EXIT.ok, failure), null, 2)}\n`
  } else {
    text = await renderLint(format, out)
  }
  process.stdout.write(text)
  return failed ? EXIT.findings : EXIT.ok
}

function severe(doc: CheckDocument, at: Severity = 'error'): boolean {
  return doc.findings.some((f) => f.severity === at)
}

/** `marketplace check PATH|ARCHIVE`. */
async function checkAction({ args, flags }: InputOf<typeof MarketplaceCheck>): Promise<number> {
  const format = formatOf(flags)
  const trust = trustOf(flags)
  const t = await openTarget(args.path ?? '.')
  try {
    const doc = await checkDocument(t, trust)
    return await render(doc, format, severe(doc), flags.quiet === true)
  } finally {
    t.cleanup()
  }
}

/** `marketplace verify PATH|ARCHIVE`: verified (0), unsigned (0, or 1 with --require-signed), failed (1). */
async function verifyAction({ args, flags }: InputOf<typeof MarketplaceVerify>): Promise<number> {
  const format = formatOf(flags)
  const trust = trustOf({ 'pinned-key': flags['pinned-key'] })
  const requireSigned = flags['require-signed'] === true
  const t = await openTarget(args.path ?? '.')
  try {
    const doc = emptyDocument('marketplace verify', t, {
      pinnedKey: trust.pinnedKey !== '',
      from: { pinnedKey: trust.origin.pinnedKey },
    })
    if (t.root === null) {
      const text = `invalid argument\n${toText(t.uploadError?.text ?? '')}`
      doc.install = { ok: false, error: text, exact: t.uploadError?.exact ?? true }
      doc.findings.push({
        ruleId: 'marketplace/install-refused',
        severity: 'error',
        file: t.display,
        message: text,
      })
      return await render(doc, format, true, flags.quiet === true)
    }
    const v = verifySignature(t.root, trust.pinnedKey)
    doc.signature = signatureDoc(v, t.root)
    if (v.state === 'failed') {
      const hint = signatureFailedHint(v.err?.error() ?? '')
      doc.findings.push({
        ruleId: 'marketplace/signature-failed',
        severity: 'error',
        file: t.show(t.root),
        message: `${t.show(v.err?.error() ?? '')}${v.exact ? '' : NOT_EXACT}`,
        ...(hint === undefined ? {} : { hint }),
      })
    } else if (v.state === 'unsigned') {
      doc.findings.push({
        ruleId: 'marketplace/unsigned',
        severity: requireSigned ? 'error' : 'info',
        file: t.show(t.root),
        message: 'no signature.json found',
      })
    }
    const failed = v.state === 'failed' || (v.state === 'unsigned' && requireSigned)
    return await render(doc, format, failed, flags.quiet === true)
  } finally {
    t.cleanup()
  }
}

/**
 * An output file that exists is not overwritten: the refusal names the flag as typed (`-o`,
 * `--output`, `--out`) and `--force` where the command has it.
 */
export function refuseExisting(path: string, flag: string, force = false): void {
  if (existsSync(path) || isLink(path))
    throw new UserError(
      `${path} exists; not overwriting it (remove it${force ? ',' : ' or'} choose another ${flag}${force ? ', or pass --force' : ''})`,
    )
}

function isLink(p: string): boolean {
  try {
    return lstatSync(p).isSymbolicLink()
  } catch {
    return false
  }
}

/** What to do after a failed verify, by the manager's text (ours: the manager says nothing more). */
export function signatureFailedHint(err: string): string | undefined {
  if (err === SIGNATURE_MISMATCH)
    return 'a signed file (*.md, *.json) changed after signing, or the signature is not this key’s: re-sign with `ongrid-skill marketplace sign PATH --key KEY.pem`'
  if (err === PIN_MISMATCH)
    return 'signed with another key than the pinned one: sign with the pinned key’s private key, or pin this pack’s pub_key'
  if (
    /^(parse signature\.json|decode sig|decode pub_key|signature\.json missing|pub_key|parse PKIX)/.test(err)
  )
    return 'signature.json is damaged: sign the pack again with `ongrid-skill marketplace sign PATH --key KEY.pem`'
  return undefined
}

/** `marketplace keygen [-o FILE]`: a P-256 private key (0600) and FILE.pub, never over existing files. */
export async function marketplaceKeygenAction({ flags }: InputOf<typeof MarketplaceKeygen>): Promise<number> {
  const { createHash, generateKeyPairSync } = await import('node:crypto')
  const { rmSync, writeFileSync } = await import('node:fs')
  if (flags.output !== undefined && flags.out !== undefined)
    throw new UserError('--out is the old name of -o/--output: give one of them')
  const given = flags.output ?? flags.out
  const flag = typedFlag('output', 'o', undefined, ['out'])
  // The private key under a public key's name would be handed out as one.
  if (given !== undefined && /\.pub$/i.test(given))
    throw new UserError(
      `${flag} ${given}: names the private key, not the public one; give the .pem name (the .pub is written beside it)`,
      EXIT.usage,
      `${flag} ${given.replace(/\.pub$/i, '.pem')} writes the private key there and the public key to ${given}`,
    )
  const out = resolve(given ?? 'ongrid-pack-key.pem')
  const pubOut = `${out.replace(/\.pem$/, '')}.pub`
  refuseExisting(out, flag)
  refuseExisting(pubOut, flag)
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
  const priv = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()
  const pub = publicKey.export({ type: 'spki', format: 'pem' }).toString()
  const der = publicKey.export({ type: 'spki', format: 'der' })
  const made: string[] = []
  try {
    for (const [path, text, mode] of [
      [out, priv, 0o600],
      [pubOut, pub, 0o644],
    ] as const) {
      // Exclusive: created here, so removed here if it cannot be written whole.
      writeFileSync(path, '', { mode, flag: 'wx' })
      made.push(path)
      writeFileSync(path, text)
    }
  } catch (e) {
    for (const p of made) rmSync(p, { force: true })
    const path = (e as { path?: unknown }).path
    throw new UserError(`cannot write ${typeof path === 'string' ? path : out}: ${reasonText(e)}`)
  }
  const fingerprint = createHash('sha256').update(der).digest('hex')
  if (flags.json === true) {
    process.stdout.write(
      `${JSON.stringify(envelope('marketplace keygen', EXIT.ok, { private_key: out, public_key: pubOut, public_key_pem: pub, fingerprint }), null, 2)}\n`,
    )
  } else {
    process.stdout.write(
      `private key: ${terminalLineText(out, process.stdout.isTTY === true)} (0600; keep it secret)\npublic key:  ${terminalLineText(pubOut, process.stdout.isTTY === true)}\nfingerprint: sha256 ${fingerprint}\n\n${pub}\nPin it on the manager with ONGRID_MARKETPLACE_PINNED_PUBKEY set to the PEM above (real newlines).\n`,
    )
  }
  return EXIT.ok
}

/** `marketplace sign PATH --key FILE`: signature.json over the pack's *.md / *.json stream. */
async function signAction({ args, flags }: InputOf<typeof MarketplaceSign>): Promise<number> {
  const { createPrivateKey, createPublicKey } = await import('node:crypto')
  const { writeFileAtomic } = await import('../../core/atomic-write.js')
  const { signatureJSON, signStream, computePackHash } = await import('../../core/marketplace/signature.js')
  const keyFile = flags.key
  let st: ReturnType<typeof statSync>
  try {
    st = statSync(resolve(args.path ?? '.'))
  } catch {
    throw new UserError(`${args.path}: no such directory`)
  }
  if (!st.isDirectory())
    throw new UserError(`${args.path}: not a directory (sign the pack dir, then \`marketplace pack\` it)`)
  // The manager installs a copy of the tree; through a symlinked root its hash would see nothing.
  const dir = realpathSync(resolve(args.path ?? '.'))
  const keyPem = readKeyFile('--key', keyFile)
  let key: import('node:crypto').KeyObject
  try {
    key = createPrivateKey(keyPem)
  } catch {
    // OpenSSL's reason ("DECODER routines::unsupported") says nothing more to a user.
    throw new UserError(
      `--key ${keyFile}: not a private key PEM`,
      undefined,
      'make one with `ongrid-skill marketplace keygen`',
    )
  }
  const curve = key.asymmetricKeyDetails?.namedCurve
  if (
    key.asymmetricKeyType !== 'ec' ||
    !['prime256v1', 'secp384r1', 'secp521r1', 'secp224r1'].includes(curve ?? '')
  ) {
    throw new UserError(
      `--key ${keyFile}: need an ECDSA P-256 key (got ${key.asymmetricKeyType}${curve ? ` ${curve}` : ''})`,
    )
  }
  const root = fromText(dir)
  const sigPath = resolve(dir, 'signature.json')
  if (isLink(sigPath))
    throw new UserError(`${sigPath} is a symlink; remove it first (the manager would follow it)`)
  if (existsSync(sigPath) && !statSync(sigPath).isFile())
    throw new UserError(`${sigPath} exists and is not a file`)
  const h = computePackHash(root)
  if (h.err !== null || h.stream === null)
    throw new UserError(`compute pack hash: ${toText(h.err?.error() ?? '')}`)
  const pem = createPublicKey(key).export({ type: 'spki', format: 'pem' }).toString()
  const text = signatureJSON(signStream(key, h.stream), pem)
  // An exclusive temp file beside it, removed on any failure: nothing of ours is left in the pack.
  if (!writeFileAtomic(sigPath, text, { mode: 0o644 }).written)
    throw new UserError(`${sigPath} changed while signing; not overwritten (sign again)`)
  // What we wrote must verify as the manager verifies it.
  const v = verifySignature(root, '')
  if (v.state !== 'verified') throw new Error(`the signature just written does not verify: ${v.err?.error()}`)
  const { files } = listPackFiles(root)
  const covered = files.signable.map((f) => toText(f.rel))
  const uncovered = uncoveredOf(root)
  if (flags.json === true) {
    process.stdout.write(
      `${JSON.stringify(envelope('marketplace sign', EXIT.ok, { signature: sigPath, state: v.state, hash: v.hash, covered, uncovered }), null, 2)}\n`,
    )
  } else {
    // On a terminal, names from the pack are shown escaped (%q), a newline included: one per line.
    const l = (s: string) => terminalLineText(s, process.stdout.isTTY === true)
    let out = `wrote ${l(sigPath)}: ${covered.length} file${covered.length === 1 ? '' : 's'} signed, sha256 ${v.hash}\n`
    if (uncovered.length > 0) {
      out += `not covered by the signature (the manager signs only *.md and *.json; these can change without breaking it):\n`
      for (const u of uncovered) out += `  ${l(u)}\n`
    }
    process.stdout.write(out)
  }
  return EXIT.ok
}

/** Left out of every archive unless --no-default-excludes: version control data and Finder litter. */
export const DEFAULT_EXCLUDES = ['.git', '.hg', '.svn', '.bzr', '_darcs', 'CVS', '.DS_Store']

/**
 * A --exclude glob as a test on a `/`-separated path under the pack: `*` and `?` within one
 * name, `**` across names; a glob without `/` matches a name at any depth (as in .gitignore), one
 * with `/` the path from the pack root; a trailing `/` matches dirs only.
 */
export function excludeTest(glob: string): (rel: string, dir: boolean) => boolean {
  const dirOnly = glob.endsWith('/')
  let g = dirOnly ? glob.slice(0, -1) : glob
  const anchored = g.includes('/')
  if (g.startsWith('/')) g = g.slice(1)
  let re = ''
  for (let i = 0; i < g.length; i++) {
    const c = g[i]
    if (c === '*' && g[i + 1] === '*') {
      const slash = g[i + 2] === '/'
      re += slash ? '(?:.*/)?' : '.*'
      i += slash ? 2 : 1
    } else if (c === '*') re += '[^/]*'
    else if (c === '?') re += '[^/]'
    else re += c.replace(/[\\^$.|+()[\]{}]/g, '\\$&')
  }
  const whole = new RegExp(`^${re}$`)
  return (rel, dir) => {
    if (dirOnly && !dir) return false
    return anchored ? whole.test(rel) : whole.test(rel.slice(rel.lastIndexOf('/') + 1))
  }
}

/**
 * A file of the pack, whole: opened without waiting (it may have been replaced by a FIFO since
 * the walk saw it), regular, at most `max` bytes; read into one buffer of the size fstat gives
 * (what it grows by meanwhile is not read: the check of the archive then sees the change).
 */
function readPackEntry(p: Buffer, max: number): Buffer {
  const { openSync, fstatSync, readSync, closeSync, constants } = fsModule
  const fd = openSync(p, constants.O_RDONLY | constants.O_NONBLOCK)
  try {
    const st = fstatSync(fd)
    if (!st.isFile()) throw new NotRegularError()
    if (st.size > max) throw new TooLargeError(max)
    const data = Buffer.allocUnsafe(st.size)
    let got = 0
    while (got < data.length) {
      const n = readSync(fd, data, got, data.length - got, null)
      if (n === 0) break
      got += n
    }
    return got === data.length ? data : data.subarray(0, got)
  } finally {
    closeSync(fd)
  }
}

/** The pack's tree for an archive, or why it cannot be packed faithfully; `skipped` lists what the excludes left out. */
function collectEntries(
  dir: string,
  exclude: (rel: string, dir: boolean) => boolean,
  skipped: string[],
  maxFile: number,
): import('../../core/marketplace/archive-write.js').PackEntry[] {
  const { readdirSync, lstatSync: lst } = fsModule
  const out: import('../../core/marketplace/archive-write.js').PackEntry[] = []
  const problems: string[] = []
  // What cannot be read (a dir or file the user may not read, a file the endpoint would cut) is a
  // problem like the others: one line, exit 2, never Node's text.
  const cannot = (shown: string, e: unknown) =>
    problems.push(`${shown === '' ? '.' : shown}: cannot read: ${reasonText(e)}`)
  const walkDir = (abs: Buffer, rel: GoString) => {
    let names: Buffer[]
    try {
      names = readdirSync(abs, { encoding: 'buffer' }) as Buffer[]
    } catch (e) {
      cannot(toText(rel), e)
      return
    }
    for (const name of names.sort(Buffer.compare)) {
      const r = rel === '' ? name.toString('latin1') : `${rel}/${name.toString('latin1')}`
      const p = Buffer.concat([abs, Buffer.from('/'), name])
      const shown = toText(r)
      let st: fsModule.Stats
      try {
        st = lst(p)
      } catch (e) {
        cannot(shown, e)
        continue
      }
      if (exclude(shown, st.isDirectory())) {
        skipped.push(st.isDirectory() ? `${shown}/` : shown)
        continue
      }
      if (!Buffer.from(name.toString('utf8'), 'utf8').equals(name))
        problems.push(`${shown}: the name is not valid UTF-8`)
      if (name.includes('..'))
        problems.push(
          `${shown}: a name containing ".." (tarball-URL installs drop it, which breaks the signature)`,
        )
      if (st.isSymbolicLink())
        problems.push(
          `${shown}: a symlink (tar uploads drop it, zip uploads turn it into a file: the installed tree would differ)`,
        )
      else if (st.isDirectory()) {
        out.push({ rel: r, dir: true, mode: st.mode })
        walkDir(p, r)
      } else if (st.isFile()) {
        if (st.size > maxFile) {
          problems.push(
            `${shown}: larger than ${sizeText(maxFile)} (the upload endpoint cuts each file there: the installed tree would differ)`,
          )
          continue
        }
        let data: Buffer
        try {
          data = readPackEntry(p, maxFile)
        } catch (e) {
          if (e instanceof TooLargeError)
            problems.push(`${shown}: larger than ${sizeText(maxFile)} (it grew while packed)`)
          else if (e instanceof NotRegularError) problems.push(`${shown}: not a regular file or directory`)
          else cannot(shown, e)
          continue
        }
        out.push({ rel: r, dir: false, mode: st.mode, data })
      } else problems.push(`${shown}: not a regular file or directory`)
    }
  }
  walkDir(Buffer.from(dir), '')
  if (problems.length > 0) {
    throw new UserError(
      `cannot pack ${dir} faithfully: ${problems.slice(0, 5).join('; ')}${problems.length > 5 ? `; and ${problems.length - 5} more` : ''}`,
    )
  }
  return out
}

/** Compares the tree the endpoint extracted with the entries packed: same files, bytes and modes. */
function sameTree(
  root: GoString,
  entries: import('../../core/marketplace/archive-write.js').PackEntry[],
): string | null {
  const { lstatSync: lst, readFileSync: rd } = fsModule
  const seen = new Set<string>()
  for (const e of entries) {
    const p = Buffer.from(`${root}/${e.rel}`, 'latin1')
    let st: fsModule.Stats
    try {
      st = lst(p)
    } catch {
      return `${toText(e.rel)} is missing after extraction`
    }
    if (e.dir !== st.isDirectory()) return `${toText(e.rel)} changed type`
    if (!e.dir) {
      if (!rd(p).equals(e.data ?? Buffer.alloc(0))) return `${toText(e.rel)} changed content`
      const want = e.mode & 0o111 ? 0o755 : 0o644
      if ((st.mode & 0o777) !== want)
        return `${toText(e.rel)} has mode ${(st.mode & 0o777).toString(8)}, not ${want.toString(8)}`
    }
    seen.add(e.rel)
  }
  const extra = listPackFiles(root).files
  for (const f of [...extra.signable, ...extra.uncovered])
    if (!seen.has(f.rel) && f.rel !== 'signature.json') return `${toText(f.rel)} appeared`
  return null
}

/** `marketplace pack PATH [-o FILE] [--format tar.gz|zip]`. */
async function packAction({ args, flags }: InputOf<typeof MarketplacePack>): Promise<number> {
  const { STRICT_ID } = await import('../../core/marketplace/install.js')
  const { writeTarGz, writeZip } = await import('../../core/marketplace/archive-write.js')
  const { archiveFormat, extractUpload, MAX_EXTRACTED_FILE, UPLOAD_TOO_LARGE } = await import(
    '../../core/marketplace/archive.js'
  )
  const { isTempName, stageFile } = await import('../../core/atomic-write.js')
  const fmt = flags.format
  // The upload endpoint goes by the name's suffix: a name without the format's is refused there.
  if (flags.output !== undefined && archiveFormat(base(fromText(resolve(flags.output)))) !== fmt)
    throw new UserError(
      `${typedFlag('output', 'o')} ${flags.output}: the name must end in ${fmt === 'zip' ? '.zip' : '.tar.gz or .tgz'} (the upload endpoint goes by the suffix)`,
    )
  let st: fsModule.Stats
  try {
    st = statSync(resolve(args.path ?? '.'))
  } catch {
    throw new UserError(`${args.path}: no such directory`)
  }
  if (!st.isDirectory()) throw new UserError(`${args.path}: not a directory`)
  const dir = realpathSync(resolve(args.path ?? '.'))
  // The manager's verdict on the source first: what it refuses is not packed.
  const t = await openTarget(dir)
  const doc = await checkDocument(t, { devMode: true, requireSigned: [], pinnedKey: '', source: 'local' })
  if (doc.install?.ok !== true)
    throw new UserError(
      `the manager would refuse this pack: ${doc.install?.error ?? 'no layout'}`,
      EXIT.findings,
    )
  const ours = doc.findings.filter((f) => f.severity === 'error')
  if (ours.length > 0) throw new UserError(`${ours[0].message} (${ours[0].ruleId})`, EXIT.findings)
  const id = doc.pack?.id ?? ''
  if (!STRICT_ID.test(id)) {
    throw new UserError(
      `pack id ${JSON.stringify(id)} is not of the form ^[a-z0-9][a-z0-9-]{0,127}$; set "id" in the manifest`,
      EXIT.findings,
    )
  }
  // check has verified the source as the manager would (without a pin).
  const sig = doc.signature ?? { state: 'unsigned', error: null, hash: null }
  if (sig.state === 'failed') {
    throw new UserError(
      `signature.json does not verify (${sig.error}); sign again after your last change`,
      EXIT.findings,
    )
  }
  const globs = [...(flags['default-excludes'] === false ? [] : DEFAULT_EXCLUDES), ...(flags.exclude ?? [])]
  const tests = globs.map(excludeTest)
  const skipped: string[] = []
  // A temp file a writer of ours left (after a kill -9) is never shipped.
  const entries = collectEntries(
    dir,
    (rel, isDir) =>
      tests.some((t) => t(rel, isDir)) || (!isDir && isTempName(rel.slice(rel.lastIndexOf('/') + 1))),
    skipped,
    MAX_EXTRACTED_FILE,
  )
  // The signature covers the source's *.md / *.json: leaving one out changes what the manager hashes.
  if (sig.state === 'verified') {
    const kept = new Set(entries.map((e) => e.rel))
    const lost = listPackFiles(fromText(dir))
      .files.signable.map((f) => f.rel)
      .filter((r) => !kept.has(r))
    if (lost.length > 0) {
      throw new UserError(
        `the excludes leave out signed files (${lost.slice(0, 3).map(toText).join(', ')}${lost.length > 3 ? ', …' : ''}): the archive would not verify; move them out of the pack and sign again`,
        EXIT.findings,
      )
    }
  }
  const bytes = fmt === 'zip' ? await writeZip(id, entries) : await writeTarGz(id, entries)
  const version = doc.pack?.version ?? ''
  const defaultName = `${id}${/^[A-Za-z0-9._+-]+$/.test(version) ? `-${version}` : ''}.${fmt}`
  const out = resolve(flags.output ?? defaultName)
  if (!flags.force) refuseExisting(out, typedFlag('output', 'o'), true)
  if (out.startsWith(`${dir}/`)) throw new UserError(`${out} is inside the pack; write the archive elsewhere`)
  try {
    fsModule.mkdirSync(dirname(out), { recursive: true })
  } catch (e) {
    const err = e as NodeJS.ErrnoException
    const at = typeof err.path === 'string' ? `${err.syscall} ${err.path}: ` : ''
    throw new UserError(`${typedFlag('output', 'o')} ${out}: cannot make its dir (${at}${reasonText(e)})`)
  }
  // Staged in an exclusive temp file beside `out`, checked there, then renamed over it.
  const staged = stageFile(out, bytes, { mode: 0o644 })
  try {
    // Check the output as the upload endpoint would take it.
    const x = await extractUpload(staged.path, out)
    if (!x.ok && (x.ours === true || x.error === UPLOAD_TOO_LARGE)) {
      throw new UserError(
        `${out}: ${bytes.length} bytes, refused: ${toText(x.error)}${x.ours ? '' : ' (the upload endpoint takes at most 64 MiB per request)'}`,
        EXIT.findings,
      )
    }
    if (!x.ok) throw new Error(`the archive just written is refused: ${toText(x.error)}`)
    try {
      if (!x.value.descended || base(x.value.root) !== id)
        throw new Error('the archive just written has no single top-level folder named after the pack id')
      const diff = sameTree(x.value.root, entries)
      if (diff !== null) throw new Error(`the archive just written extracts differently: ${diff}`)
      const again = await checkInstall(x.value.root, undefined, { stagingName: id })
      if (again.installError !== null || again.load?.pack.id !== id) {
        throw new Error(
          `the extracted archive is refused: ${toText(again.installError ?? `id ${again.load?.pack.id}`)}`,
        )
      }
      // checkInstall verified the extracted tree as the manager does after an install.
      const v = again.signature
      if (v?.state !== sig.state || (v.hash ?? null) !== sig.hash) {
        throw new Error(`the extracted archive's signature is ${v?.state}, the pack's ${sig.state}`)
      }
    } finally {
      x.value.cleanup()
    }
    if (!staged.commit().written)
      throw new UserError(`${out} appeared or changed while packing; not overwritten (pack again)`)
  } catch (e) {
    staged.discard()
    throw e
  }
  const sha = (await import('node:crypto')).createHash('sha256').update(bytes).digest('hex')
  const result = {
    archive: out,
    format: fmt,
    pack_id: id,
    version,
    files: entries.filter((e) => !e.dir).length,
    bytes: bytes.length,
    sha256: sha,
    signature: sig.state,
    excluded: skipped,
  }
  if (flags.json === true)
    process.stdout.write(`${JSON.stringify(envelope('marketplace pack', EXIT.ok, result), null, 2)}\n`)
  else {
    // On a terminal, names from the pack are shown escaped (%q), a newline included.
    const l = (s: string) => terminalLineText(s, process.stdout.isTTY === true)
    process.stdout.write(
      `wrote ${l(out)}: ${result.files} file${result.files === 1 ? '' : 's'} under ${l(id)}/, ${bytes.length} bytes, sha256 ${sha}\n${skipped.length > 0 ? `left out: ${skipped.map(l).join(', ')}\n` : ''}checked: extracted as the upload endpoint does, install accepted, signature ${sig.state}\n`,
    )
  }
  return EXIT.ok
}

/** `marketplace check PATH|ARCHIVE` (see checkAction), leaving nothing behind on a stop signal. */
export const marketplaceCheckAction = (input: InputOf<typeof MarketplaceCheck>) =>
  stoppable(() => checkAction(input))
/** `marketplace verify PATH|ARCHIVE` (see verifyAction). */
export const marketplaceVerifyAction = (input: InputOf<typeof MarketplaceVerify>) =>
  stoppable(() => verifyAction(input))
/** `marketplace sign PATH --key FILE` (see signAction). */
export const marketplaceSignAction = (input: InputOf<typeof MarketplaceSign>) =>
  stoppable(() => signAction(input))
/** `marketplace pack PATH` (see packAction). */
export const marketplacePackAction = (input: InputOf<typeof MarketplacePack>) =>
  stoppable(() => packAction(input))
