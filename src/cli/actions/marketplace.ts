/**
 * The work of the `marketplace` commands, without oclif: check, verify, keygen, sign, pack.
 * A PATH is a pack dir (checked in place) or an archive (extracted as the upload endpoint
 * does, into a temp dir removed afterwards).
 */
import * as fsModule from 'node:fs'
import { existsSync, lstatSync, realpathSync, statSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { fromText, type GoString, toText } from '../../core/go/gostring.js'
import { reasonText } from '../../core/go/os/errors.js'
import { base } from '../../core/go/path/filepath/path.js'
import type { Severity } from '../../core/lint/types.js'
import {
  type CheckDocument,
  checkDocument,
  openTarget,
  uncoveredOf,
  verifyDocument,
} from '../../core/marketplace/check.js'
import {
  DEVMODE_ENV,
  PINNED_PUBKEY_ENV,
  parseDevMode,
  parseRequireSigned,
  REQUIRE_SIGNED_ENV,
  type TrustConfig,
} from '../../core/marketplace/install.js'
import {
  archiveName,
  checkPacked,
  DEFAULT_EXCLUDES,
  packEntries,
  packSource,
} from '../../core/marketplace/pack.js'
import { MARKETPLACE_RULES } from '../../core/marketplace/rules.js'
import { listPackFiles, verifySignature } from '../../core/marketplace/signature.js'
import { NotRegularError, readFileBounded, TooLargeError } from '../../core/read-bounded.js'
import { envelope } from '../../ui/envelope.js'
import { renderLint } from '../../ui/lint/format.js'
import { counts, type LintOutput } from '../../ui/lint/model.js'
import { checkJson, lintOutput, summary } from '../../ui/marketplace/report.js'
import { terminalLineText } from '../../ui/terminal.js'
import { EXIT, type InputOf, UserError } from '../errors.js'
import { managerReleaseOf, noteNotDefault } from '../manager-version.js'
import { typedFlag } from '../number-flag.js'
import { argBytes, envBytes, textPath } from '../os-bytes.js'
import { onStopSignals } from '../signals.js'
import type { marketplaceCheckSpec as MarketplaceCheck } from '../specs/marketplace-check.js'
import type { marketplaceKeygenSpec as MarketplaceKeygen } from '../specs/marketplace-keygen.js'
import type { marketplacePackSpec as MarketplacePack } from '../specs/marketplace-pack.js'
import type { marketplaceSignSpec as MarketplaceSign } from '../specs/marketplace-sign.js'
import type { marketplaceVerifySpec as MarketplaceVerify } from '../specs/marketplace-verify.js'
import { type Format, formatOf } from './lint.js'

export { DEFAULT_EXCLUDES }

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

/**
 * Prints the document in the chosen format; returns the exit code (1 on any error finding).
 * Quiet, only the findings that fail (errors) are shown.
 */
async function render(doc: CheckDocument, format: Format, failed: boolean, quiet: boolean): Promise<number> {
  if (quiet) doc = { ...doc, findings: doc.findings.filter((f) => f.severity === 'error') }
  const cwd = process.cwd()
  const tty = process.stdout.isTTY === true
  const out: LintOutput = lintOutput(doc, MARKETPLACE_RULES, cwd, tty)
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
  const { release } = await managerReleaseOf(flags)
  const format = formatOf(flags)
  noteNotDefault(release, format === 'json')
  const trust = trustOf(flags)
  const t = await openTarget(argBytes(args.path ?? '.'))
  try {
    const doc = await checkDocument(t, trust, release)
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
  const t = await openTarget(argBytes(args.path ?? '.'))
  try {
    const { doc, failed } = verifyDocument(t, trust.pinnedKey, trust.origin.pinnedKey, requireSigned)
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

/** `marketplace keygen [-o FILE]`: a P-256 private key (0600) and FILE.pub, never over existing files. */
export async function marketplaceKeygenAction({ flags }: InputOf<typeof MarketplaceKeygen>): Promise<number> {
  const { createHash, generateKeyPairSync } = await import('node:crypto')
  const { createNewFile, removeCreated } = await import('../../core/atomic-write.js')
  const { checkSafeDir, UnsafeDirError } = await import('../../core/user-dirs.js')
  if (flags.output !== undefined && flags.out !== undefined)
    throw new UserError('--out is the old name of -o/--output: give one of them')
  const given = flags.output ?? flags.out
  const flag = typedFlag('output', 'o', undefined, ['out'])
  if (given !== undefined) textPath(flag, given)
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
  // A private key only where no other user can swap, move or remove it (sticky /tmp is fine).
  try {
    checkSafeDir(dirname(out))
  } catch (e) {
    if (!(e instanceof UnsafeDirError)) throw e
    // A dir that is missing: the create below says so, in Go's words.
    if (existsSync(dirname(out)))
      throw new UserError(
        `cannot write ${out}: ${e.message}`,
        EXIT.usage,
        'a private key goes only in a dir that no other user can write: choose one of your own with -o',
      )
  }
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
  const priv = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()
  const pub = publicKey.export({ type: 'spki', format: 'pem' }).toString()
  const der = publicKey.export({ type: 'spki', format: 'der' })
  // Each created exclusively (never through a planted link, never over a file) and written
  // through its own descriptor; the private key is removed if the public one cannot be written.
  const key = createNewFile(out, priv, 0o600)
  try {
    createNewFile(pubOut, pub, 0o644)
  } catch (e) {
    removeCreated(key)
    throw e
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
  textPath('', args.path ?? '.')
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
  // Each file's digest beside the signature, so that a failed verify can name what changed.
  const text = signatureJSON(signStream(key, h.stream), pem, h.files ?? [])
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

/** `marketplace pack PATH [-o FILE] [--format tar.gz|zip]`. */
async function packAction(
  { args, flags }: InputOf<typeof MarketplacePack>,
  o: { folderName?: boolean } = {},
): Promise<number> {
  const { writeTarGz, writeZip } = await import('../../core/marketplace/archive-write.js')
  const { archiveFormat, extractUpload, UPLOAD_TOO_LARGE } = await import('../../core/marketplace/archive.js')
  const { stageFile } = await import('../../core/atomic-write.js')
  const fmt = flags.format
  textPath('', args.path ?? '.')
  if (flags.output !== undefined) textPath(typedFlag('output', 'o'), flags.output)
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
  const t = await openTarget(fromText(dir))
  const doc = await checkDocument(t, { devMode: true, requireSigned: [], pinnedKey: '', source: 'local' })
  const { id, version, sig } = packSource(doc)
  const globs = [...(flags['default-excludes'] === false ? [] : DEFAULT_EXCLUDES), ...(flags.exclude ?? [])]
  const { entries, skipped } = packEntries(dir, globs, sig.state === 'verified')
  // The top folder: the pack id, or (for a pack with no manifest, whose display name the manager
  // takes from that folder's name) the folder's own name, which gives the same id.
  const top = o.folderName === true && doc.layout === 'bare_skills' ? base(fromText(dir)) : id
  const bytes = fmt === 'zip' ? await writeZip(top, entries) : await writeTarGz(top, entries)
  const out = resolve(flags.output ?? archiveName(id, version, fmt))
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
      await checkPacked(x.value, entries, id, sig, top)
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
/** `marketplace pack PATH` as `remote push` uploads it: a pack with no manifest under its own folder's name. */
export const marketplacePackForUpload = (input: InputOf<typeof MarketplacePack>) =>
  stoppable(() => packAction(input, { folderName: true }))
