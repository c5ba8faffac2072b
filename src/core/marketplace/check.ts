/**
 * `marketplace check` and `verify` as the manager would decide them, without oclif: the target (a
 * pack dir, or an archive extracted as the upload endpoint does), the check document (the
 * manager's verdict and our findings) and the signature document. Rendering is ui/marketplace/.
 */
import { statSync } from 'node:fs'
import { UserError } from '../errors.js'
import { type GoBytes, type GoString, toText } from '../go/gostring.js'
import { reasonText } from '../go/os/errors.js'
import { nodePath } from '../go/os/file.js'
import { abs, base } from '../go/path/filepath/path.js'
import type { Severity } from '../lint/types.js'
import type { Release } from '../releases/release.js'
import { capabilityDeclarationJSON } from './capabilities.js'
import { checkInstall, type InstallCheck, stagingBasename, type TrustConfig } from './install.js'
import { marketplaceRule, UNSIGNED_MESSAGE, warningRuleId } from './rules.js'
import {
  type FileChanges,
  fileChanges,
  listPackFiles,
  PIN_MISMATCH,
  SIGNATURE_MISMATCH,
  type Verdict,
  verifySignature,
} from './signature.js'

export interface MarketplaceFinding {
  ruleId: string
  severity: Severity
  /** Displayed path (text). */
  file: string
  message: string
  hint?: string
}

export interface CheckDocument {
  command: 'marketplace check' | 'marketplace verify'
  target: { path: string; archive: boolean; root: string | null }
  layout: string | null
  pack: {
    id: string
    displayName: string
    version: string
    description: string
    manifestSha256: string
  } | null
  skills: { name: string; path: string; from: string }[]
  agents: { name: string; path: string }[]
  warnings: { path: string; code: string; reason: string; exact: boolean }[]
  install: { ok: boolean; error: string | null; exact: boolean } | null
  /**
   * The capability declaration the manager stores and returns when the pack installs
   * (`capabilities`), parsed from `capabilitiesJSON`: its `CapabilitiesJSON` bytes (json.Marshal).
   * Both null when the pack would not install, or when a skill declares what is not reproduced
   * (`capabilitiesUnsupported` names it).
   */
  capabilities: CapabilityDeclaration | null
  capabilitiesJSON: string | null
  capabilitiesUnsupported?: string
  signature: {
    state: string
    error: string | null
    exact: boolean
    hash: string | null
    curve: string | null
    uncovered: string[]
    /**
     * After `ecdsa signature does not verify`: the signed files added, removed and changed since
     * `marketplace sign` recorded their digests (`recorded` false: signature.json holds no such
     * list); null otherwise. Never part of the verdict.
     */
    changes: SignatureChanges | null
  } | null
  /** The trust settings used (verify: the pin only). */
  trust: {
    devMode?: boolean
    requireSigned?: string[]
    pinnedKey: boolean
    source?: string
    /** Where each setting came from: a flag, the manager's variable, or the manager's default. */
    from?: Record<string, 'flag' | 'env' | 'default'>
  } | null
  findings: MarketplaceFinding[]
}

export interface SignatureChanges extends FileChanges {
  recorded: boolean
}

interface CredentialSlot {
  slot: string
  label: string
  fields?: string[]
}

/** marketplace.CapabilityDeclaration as the manager encodes it. */
export interface CapabilityDeclaration {
  pack_id: string
  version: string
  skills:
    | {
        name: string
        scope: string
        requires: { bins?: string[]; config?: string[]; credentials?: CredentialSlot[] }
        tool_classes: string[] | null
      }[]
    | null
  agent_count: number
  summary: {
    tool_classes?: string[]
    bins?: string[]
    config_keys?: string[]
    credential_slots?: CredentialSlot[]
  }
}

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

export async function openTarget(given: GoBytes): Promise<Target> {
  const path = toText(given)
  const a = abs(given)
  const absolute = a.ok ? a.value : given
  const display = toText(absolute)
  const fsPath = nodePath(absolute) ?? display
  let st: ReturnType<typeof statSync>
  try {
    st = statSync(fsPath)
  } catch (e) {
    throw new UserError(`${path}: ${reasonText(e)}`)
  }
  if (!st.isDirectory() && !st.isFile())
    throw new UserError(
      `${path}: not a regular file or directory (a FIFO or device); give a pack dir or an archive`,
    )
  if (st.isDirectory()) {
    const root = absolute
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
  const { extractUpload } = await import('./archive.js')
  const x = await extractUpload(fsPath, display)
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
  const shown = absolute
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

export const NOT_EXACT = ' (not the manager’s exact text)'
const OURS = 'not the manager’s verdict: '

export function uncoveredOf(root: GoString): string[] {
  return listPackFiles(root)
    .files.uncovered.filter((u) => u.why === 'extension' || u.why === 'symlink')
    .map((u) => toText(u.rel))
}

export function signatureDoc(v: Verdict, root: GoString): NonNullable<CheckDocument['signature']> {
  return {
    state: v.state,
    error: v.err ? toText(v.err.error()) : null,
    exact: v.exact,
    hash: v.hash ?? null,
    curve: v.curve ?? null,
    uncovered: uncoveredOf(root),
    changes: changesOf(v),
  }
}

/** What changed since signing, for a signature that does not verify over the pack's hash. */
function changesOf(v: Verdict): SignatureChanges | null {
  if (v.state !== 'failed' || v.err?.error() !== SIGNATURE_MISMATCH || v.files === undefined) return null
  if (v.recorded === undefined) return { recorded: false, added: [], removed: [], changed: [] }
  return { recorded: true, ...fileChanges(v.recorded, v.files) }
}

/** A check or verify document for the target with nothing found yet. */
export function emptyDocument(
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
  release?: Release,
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
    uploadRefused(doc, t)
    return doc
  }
  const c: InstallCheck = await checkInstall(t.root, trust, { stagingName: t.stagingName, release })
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
      findings.push(
        finding(
          warningRuleId(w.code),
          onPath ? t.show(w.path) : packFile,
          `${w.code}: ${t.show(w.reason)}${w.exact === false ? NOT_EXACT : ''}`,
        ),
      )
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
    findings.push(
      finding(
        'marketplace/install-refused',
        t.show(t.root),
        t.show(c.installError) + (c.installErrorExact ? '' : NOT_EXACT),
      ),
    )
  }
  if (c.kind !== '') {
    const v = c.signature ?? verifySignature(t.root, trust.pinnedKey)
    doc.signature = signatureDoc(v, t.root)
    if (v.state === 'failed') {
      findings.push(
        finding(
          'marketplace/signature-failed',
          t.show(t.root),
          `signature ${v.state}: ${t.show(v.err?.error() ?? '')}${v.exact ? '' : NOT_EXACT}`,
          {
            hint: 'the manager installs it anyway unless ONGRID_MARKETPLACE_DEVMODE is off and the source must be signed',
          },
        ),
      )
    } else if (v.state === 'unsigned') {
      findings.push(finding('marketplace/unsigned', t.show(t.root), UNSIGNED_MESSAGE))
    }
  }
  for (const f of c.findings) {
    findings.push(finding(f.id, t.show(f.path), OURS + f.message))
  }
  if (t.noWrapper && c.kind !== '') {
    findings.push(
      finding(
        'marketplace-practice/no-wrapper',
        t.display,
        `${OURS}the archive has no single top-level folder: the manager stages it under a random ongrid-pack-<digits> dir${c.kind === 'bare_skills' ? ', which becomes the pack id (every upload is a new pack)' : ''}`,
      ),
    )
  }
  return doc
}

/**
 * `marketplace verify`'s document: the signature as the manager verifies it after an install
 * (`pinnedKey`: the pin, '' for none), and whether it fails (failed; unsigned too when
 * `requireSigned`).
 */
export function verifyDocument(
  t: Target,
  pinnedKey: GoString,
  pinFrom: 'flag' | 'env' | 'default',
  requireSigned: boolean,
): { doc: CheckDocument; failed: boolean } {
  const doc = emptyDocument('marketplace verify', t, {
    pinnedKey: pinnedKey !== '',
    from: { pinnedKey: pinFrom },
  })
  if (t.root === null) {
    uploadRefused(doc, t)
    return { doc, failed: true }
  }
  const v = verifySignature(t.root, pinnedKey)
  doc.signature = signatureDoc(v, t.root)
  if (v.state === 'failed') {
    const hint = signatureFailedHint(v.err?.error() ?? '', doc.signature.changes)
    doc.findings.push(
      finding(
        'marketplace/signature-failed',
        t.show(t.root),
        `${t.show(v.err?.error() ?? '')}${v.exact ? '' : NOT_EXACT}`,
        {
          severity: 'error',
          ...(hint === undefined ? {} : { hint }),
        },
      ),
    )
  } else if (v.state === 'unsigned') {
    doc.findings.push(
      finding(
        'marketplace/unsigned',
        t.show(t.root),
        UNSIGNED_MESSAGE,
        requireSigned ? { severity: 'error' } : {},
      ),
    )
  }
  return { doc, failed: v.state === 'failed' || (v.state === 'unsigned' && requireSigned) }
}

/**
 * An upload the endpoint refuses: the install's error as it returns it, and its finding, the same
 * for check and verify (marked when the text is not the manager's exact one).
 */
function uploadRefused(doc: CheckDocument, t: Target): void {
  const text = `invalid argument\n${toText(t.uploadError?.text ?? '')}`
  doc.install = { ok: false, error: text, exact: t.uploadError?.exact ?? true }
  const marked = text + (t.uploadError?.exact === false ? NOT_EXACT : '')
  doc.findings.push(finding('marketplace/install-refused', t.display, marked))
}

/**
 * A finding of a rule of MARKETPLACE_RULES, at the rule's severity unless `severity` says
 * otherwise (verify fails on what check only reports).
 */
function finding(
  ruleId: string,
  file: string,
  message: string,
  opts: { severity?: Severity; hint?: string } = {},
): MarketplaceFinding {
  return {
    ruleId,
    severity: opts.severity ?? marketplaceRule(ruleId).severity,
    file,
    message,
    ...(opts.hint === undefined ? {} : { hint: opts.hint }),
  }
}

const RESIGN = 're-sign with `ongrid-skill marketplace sign PATH --key KEY.pem`'

/** At most `n` names, then how many more. */
export function someNames(names: string[], n = 5): string {
  return names.length <= n ? names.join(', ') : `${names.slice(0, n).join(', ')} and ${names.length - n} more`
}

/**
 * What to do after a failed verify, by the manager's text (ours: the manager says nothing more);
 * after a mismatch, the files that changed since signing when signature.json recorded them.
 */
export function signatureFailedHint(
  err: string,
  changes: SignatureChanges | null = null,
): string | undefined {
  if (err === SIGNATURE_MISMATCH) {
    if (changes === null || !changes.recorded)
      return `a signed file (*.md, *.json) changed after signing, or the signature is not this key’s: ${RESIGN} (signature.json records no per-file digests, so the files cannot be named: signing again records them)`
    const parts = [
      changes.changed.length > 0 ? `changed ${someNames(changes.changed)}` : '',
      changes.added.length > 0 ? `added ${someNames(changes.added)}` : '',
      changes.removed.length > 0 ? `removed ${someNames(changes.removed)}` : '',
    ].filter((p) => p !== '')
    if (parts.length === 0)
      return `no signed file differs from the digests recorded at signing: the sig or pub_key in signature.json was changed (or its list); ${RESIGN}`
    return `since signing (by the digests signature.json recorded, which the signature does not cover): ${parts.join('; ')}; ${RESIGN} if that is meant`
  }
  if (err === PIN_MISMATCH)
    return 'signed with another key than the pinned one: sign with the pinned key’s private key, or pin this pack’s pub_key'
  if (
    /^(parse signature\.json|decode sig|decode pub_key|signature\.json missing|pub_key|parse PKIX)/.test(err)
  )
    return 'signature.json is damaged: sign the pack again with `ongrid-skill marketplace sign PATH --key KEY.pem`'
  return undefined
}
