/**
 * Secrets shipped in a pack: what every manager host that loads it, and every marketplace upload
 * of it, receives. The pack's files are read with bounds (regular files only, no link followed,
 * binaries and large files skipped); what is found is described, never shown: each value is
 * masked (its kind's known prefix and its length) in every message.
 */
import { readdirSync } from 'node:fs'
import { fromBuffer, type GoString, toBuffer, toText } from '../../go/gostring.js'
import { dir, join } from '../../go/path/filepath/path.js'
import { readRegularSized } from '../../read-bounded.js'
import type { ManifestContext } from '../context.js'
import { LineIndex } from '../position.js'
import type { ManifestRule } from './util.js'

/** Files larger than this are not read; at most this many files, this deep, per pack. */
export const MAX_SCAN_FILE_BYTES = 1024 * 1024
export const MAX_SCAN_FILES = 1000
export const MAX_SCAN_DEPTH = 8
/** Left out of the walk: version control data, and dependencies (third-party code, test keys and all). */
const SKIP_DIRS = new Set([
  '.git',
  '.hg',
  '.svn',
  '.bzr',
  '_darcs',
  'CVS',
  'node_modules',
  '__pycache__',
  '.venv',
])

export type SecretKind = 'private-key' | 'token' | 'url-password' | 'assigned'

export interface SecretHit {
  kind: SecretKind
  /** Absolute path (text) of the file holding it, and whether it is the skill.json itself. */
  file: string
  inManifest: boolean
  /** Byte offset of the value in that file, and its line:column. */
  at: number
  line: number
  column: number
  /** What it is ("a GitHub token") and how it is shown (masked). */
  what: string
  shown: string
}

interface TokenFormat {
  what: string
  re: RegExp
  /** How much of the start is the format's own prefix (shown): the rest is masked. */
  prefix: number
}

const TOKENS: readonly TokenFormat[] = [
  { what: 'an AWS access key id', re: /\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b/g, prefix: 4 },
  { what: 'a GitHub token', re: /\bgh[pousr]_[A-Za-z0-9]{36,255}\b/g, prefix: 4 },
  { what: 'a GitHub fine-grained token', re: /\bgithub_pat_[A-Za-z0-9_]{60,255}\b/g, prefix: 11 },
  { what: 'a GitLab token', re: /\bgl(?:pat|dt|ptt|rt)-[A-Za-z0-9_-]{20,}\b/g, prefix: 6 },
  { what: 'a Slack token', re: /\bxox[abposr]-[A-Za-z0-9-]{10,}\b/g, prefix: 5 },
  { what: 'a Slack webhook', re: /https:\/\/hooks\.slack\.com\/services\/T[A-Za-z0-9_/]{20,}/g, prefix: 31 },
  { what: 'a Google API key', re: /\bAIza[0-9A-Za-z_-]{35}\b/g, prefix: 4 },
  {
    what: 'an OpenAI API key',
    re: /\bsk-(?:proj-|svcacct-|admin-)?(?=[A-Za-z0-9_-]*[0-9])(?=[A-Za-z0-9_-]*[A-Za-z])[A-Za-z0-9_-]{32,}\b/g,
    prefix: 3,
  },
  { what: 'an Anthropic API key', re: /\bsk-ant-[A-Za-z0-9_-]{32,}\b/g, prefix: 7 },
  { what: 'a Stripe secret key', re: /\b[sr]k_live_[A-Za-z0-9]{20,}\b/g, prefix: 8 },
]

const PRIVATE_KEY = /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/g

/** user:password@ in a URL; the password is what is masked. */
const URL_PASSWORD = /\b[a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^\s:/@'"`<>]*:([^\s@/'"`<>]+)@[^\s'"`<>]/g

/**
 * A value assigned to a name that means a secret: `NAME=value`, `NAME: value`, `"name": "value"`,
 * `name = 'value'`. The value: 16 or more characters of a token alphabet.
 */
const SECRET_NAME =
  '[A-Za-z0-9_.-]*(?:secret|token|passw(?:or)?d|passwd|pwd|api[_-]?key|apikey|access[_-]?key|private[_-]?key|client[_-]?secret|auth[_-]?key|credential)[A-Za-z0-9_.-]*'
const ASSIGNED = new RegExp(
  String.raw`(?<![A-Za-z0-9_])["']?(${SECRET_NAME})["']?[ \t]*(?::=|=|:)[ \t]*(?:["'](?<q>[A-Za-z0-9+/=_\-.~]{16,256})["']|(?<b>[A-Za-z0-9+/=_\-.~]{16,256})(?=[\s;,]|$))`,
  'gim',
)

/** Placeholders and references, not secrets. */
const PLACEHOLDER =
  /^(?:x+|\*+|\.+|-+|_+)$|changeme|example|placeholder|dummy|sample|redacted|your[_-]|<|\$|\{|%|^test/i

/** Shannon entropy of a string, in bits a character. */
export function entropy(s: string): number {
  const counts = new Map<string, number>()
  for (const c of s) counts.set(c, (counts.get(c) ?? 0) + 1)
  let h = 0
  for (const n of counts.values()) {
    const p = n / s.length
    h -= p * Math.log2(p)
  }
  return h
}

/** Bits a character a value needs to count as a secret, by length (short values repeat less). */
export const MIN_ENTROPY = 3.5

/** A value as messages show it: the kind's prefix, then its length, never the rest. */
export function mask(value: string, prefix: number): string {
  return `${prefix > 0 ? `${value.slice(0, prefix)}…, ` : ''}${value.length} characters, masked`
}

/** What a file's text holds (byte offsets of `raw`). */
export function scanText(raw: GoString): Omit<SecretHit, 'file' | 'inManifest' | 'line' | 'column'>[] {
  const out: Omit<SecretHit, 'file' | 'inManifest' | 'line' | 'column'>[] = []
  const taken: [number, number][] = []
  const free = (a: number, b: number) => taken.every(([x, y]) => b <= x || a >= y)
  const push = (h: (typeof out)[number], len: number) => {
    if (!free(h.at, h.at + len)) return
    taken.push([h.at, h.at + len])
    out.push(h)
  }
  for (const m of raw.matchAll(PRIVATE_KEY)) {
    // A header alone (a form's placeholder, a doc's `...`) is no key: its body follows it.
    const end = m.index + m[0].length
    if (!/[A-Za-z0-9+/]{20,}/.test(raw.slice(end, end + 300))) continue
    push({ kind: 'private-key', at: m.index, what: 'a private key', shown: m[0] }, m[0].length)
  }
  for (const t of TOKENS) {
    for (const m of raw.matchAll(t.re)) {
      if (PLACEHOLDER.test(m[0].slice(t.prefix)) || /(.)\1{7}/.test(m[0])) continue
      push({ kind: 'token', at: m.index, what: t.what, shown: mask(m[0], t.prefix) }, m[0].length)
    }
  }
  for (const m of raw.matchAll(URL_PASSWORD)) {
    const pw = m[1]
    if (PLACEHOLDER.test(pw) || /^(?:pass(?:word)?|pw|pwd|secret|token)$/i.test(pw)) continue
    const at = m.index + m[0].indexOf(`:${pw}@`) + 1
    push({ kind: 'url-password', at, what: 'a password in a URL', shown: mask(pw, 0) }, pw.length)
  }
  for (const m of raw.matchAll(ASSIGNED)) {
    const value = m.groups?.q ?? m.groups?.b ?? ''
    if (PLACEHOLDER.test(value) || entropy(value) < MIN_ENTROPY) continue
    // A name in code (`cfg.OpenAI.APIKey`, `os.environ.TOKEN`): a reference, not a value.
    if (m.groups?.b !== undefined && /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/.test(value)) continue
    // Unquoted letters alone (`controllerTokenHash`): a name in code, not a value.
    if (m.groups?.b !== undefined && !/[0-9]/.test(value)) continue
    // A value of one case of letters only is a word or an identifier, not a key.
    if (!/[0-9]/.test(value) && !(/[a-z]/.test(value) && /[A-Z]/.test(value))) continue
    const at = m.index + m[0].lastIndexOf(value)
    push(
      {
        kind: 'assigned',
        at,
        what: `a high-entropy value assigned to ${JSON.stringify(toText(m[1]))}`,
        shown: mask(value, 0),
      },
      value.length,
    )
  }
  return out.sort((a, b) => a.at - b.at)
}

/** Whether bytes look binary: a NUL in the first 8000 (as git decides). */
function isBinary(buf: Buffer): boolean {
  return buf.subarray(0, 8000).includes(0)
}

const memo = new WeakMap<ManifestContext, SecretHit[]>()

/** Every secret in a pack: its skill.json, the files under its dir, and its entry when outside it. */
export function packSecrets(ctx: ManifestContext): SecretHit[] {
  // Asked on every call (context.ts, `missed`): without the decode the manifest's bytes are not
  // scanned, without the build an entry outside the pack's dir is not.
  ctx.wants('decode')
  ctx.wants('build')
  let hits = memo.get(ctx)
  if (hits === undefined) {
    hits = scanPack(ctx)
    memo.set(ctx, hits)
  }
  return hits
}

function scanPack(ctx: ManifestContext): SecretHit[] {
  const hits: SecretHit[] = []
  const manifestFile = toText(ctx.path)
  const add = (file: string, raw: GoString, inManifest: boolean, lines: LineIndex) => {
    for (const h of scanText(raw)) hits.push({ ...h, file, inManifest, ...lines.position(h.at) })
  }
  if (ctx.ok) add(manifestFile, ctx.raw, true, ctx.lines)
  const files: GoString[] = []
  // Types from the listing itself (d_type): no Lstat of each file; sizes from the read's fstat.
  const walk = (d: GoString, depth: number) => {
    let entries: import('node:fs').Dirent<Buffer>[]
    try {
      entries = readdirSync(toBuffer(d), { encoding: 'buffer', withFileTypes: true })
    } catch {
      return
    }
    for (const e of entries.sort((a, b) => Buffer.compare(a.name, b.name))) {
      if (files.length >= MAX_SCAN_FILES) return
      const name = fromBuffer(e.name)
      const p = join(d, name)
      if (e.isDirectory()) {
        if (!SKIP_DIRS.has(name) && depth < MAX_SCAN_DEPTH) walk(p, depth + 1)
      } else if (e.isFile() && p !== ctx.path) files.push(p)
    }
  }
  const packDir = dir(ctx.path)
  walk(packDir, 0)
  const entry = ctx.skill?.entry
  if (entry !== undefined && !entry.startsWith(`${packDir}/`) && files.length < MAX_SCAN_FILES)
    files.push(entry)
  for (const p of files) {
    let buf: Buffer
    try {
      buf = readRegularSized(toBuffer(p), MAX_SCAN_FILE_BYTES)
    } catch {
      continue
    }
    if (isBinary(buf)) continue
    const raw = fromBuffer(buf)
    add(toText(p), raw, false, new LineIndex(raw))
  }
  return hits
}

/** A rule reporting one kind of secret, at the value, in whichever file of the pack holds it. */
export function secretRule(
  kind: SecretKind,
  r: Omit<ManifestRule, 'check' | 'kind' | 'category'>,
): ManifestRule {
  return {
    ...r,
    kind: 'manifest',
    category: 'best-practice',
    check(ctx, report) {
      for (const h of packSecrets(ctx)) {
        if (h.kind !== kind) continue
        const message = `${h.what} (${h.shown}) is shipped in the pack: every manager host that loads it, and every marketplace upload of it, gets it`
        const hint =
          'revoke it, and have the skill read it at run time (an environment variable named in env_allow, or a file outside the pack)'
        if (h.inManifest) report({ at: h.at, message, hint })
        else
          report({ at: null, file: h.file, fileKind: 'file', line: h.line, column: h.column, message, hint })
      }
    },
  }
}
