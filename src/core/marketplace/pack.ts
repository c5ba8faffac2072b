/**
 * `marketplace pack`'s domain, without oclif: what is left out of an archive (the default
 * excludes and --exclude globs), the tree an archive is made of, and the comparison of what the
 * upload endpoint extracted with what was packed.
 */
import * as fsModule from 'node:fs'
import { isTempName } from '../atomic-write.js'
import { EXIT, UserError } from '../errors.js'
import { excludeTest } from '../glob.js'
import { fromText, type GoString, toText } from '../go/gostring.js'
import { reasonText } from '../go/os/errors.js'
import { base } from '../go/path/filepath/path.js'
import { NotRegularError, readRegularSized, sizeText, TooLargeError } from '../read-bounded.js'
import { MAX_EXTRACTED_FILE } from './archive/limits.js'
import type { PackEntry } from './archive-write.js'
import { type CheckDocument, someNames } from './check.js'
import { checkInstall, STRICT_ID, stagingBasename } from './install.js'
import { listPackFiles } from './signature.js'

/** Left out of every archive unless --no-default-excludes: version control data and Finder litter. */
export const DEFAULT_EXCLUDES = ['.git', '.hg', '.svn', '.bzr', '_darcs', 'CVS', '.DS_Store']

/** The pack's tree for an archive, or why it cannot be packed faithfully; `skipped` lists what the excludes left out. */
function collectEntries(
  dir: string,
  exclude: (rel: string, dir: boolean) => boolean,
  skipped: string[],
  maxFile: number,
): PackEntry[] {
  const { readdirSync, lstatSync: lst } = fsModule
  const out: PackEntry[] = []
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
        // Read as the walk saw it: a FIFO put there since is not waited for, growth not read.
        let data: Buffer
        try {
          data = readRegularSized(p, maxFile)
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
function sameTree(root: GoString, entries: PackEntry[]): string | null {
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

/** What `pack` needs of the source's check document: the id, version and signature of a pack the manager accepts. */
type SourceSignature = Pick<NonNullable<CheckDocument['signature']>, 'state' | 'error' | 'hash'>

/**
 * The manager's verdict on the source, as `pack` takes it: what the manager refuses, what we
 * find an error, an id `pack` cannot name an archive after and a signature that no longer
 * verifies are refused (exit 1); else the pack's id, version and signature.
 */
export function packSource(doc: CheckDocument): { id: string; version: string; sig: SourceSignature } {
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
    const c = doc.signature?.changes
    const named = c?.recorded === true ? [...c.changed, ...c.added, ...c.removed] : []
    throw new UserError(
      `signature.json does not verify (${sig.error}); sign again after your last change${named.length > 0 ? ` (${someNames(named)})` : ''}`,
      EXIT.findings,
    )
  }
  return { id, version: doc.pack?.version ?? '', sig }
}

/**
 * The entries of the archive of `dir`, without what the globs match nor a temp file a writer of
 * ours left (after a kill -9); `skipped` lists what was left out. A `signed` pack's *.md / *.json
 * are never left out: that would change what the manager hashes.
 */
export function packEntries(
  dir: string,
  globs: readonly string[],
  signed: boolean,
): { entries: PackEntry[]; skipped: string[] } {
  const tests = globs.map(excludeTest)
  const skipped: string[] = []
  const entries = collectEntries(
    dir,
    (rel, isDir) =>
      tests.some((t) => t(rel, isDir)) || (!isDir && isTempName(rel.slice(rel.lastIndexOf('/') + 1))),
    skipped,
    MAX_EXTRACTED_FILE,
  )
  if (signed) {
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
  return { entries, skipped }
}

/** The archive's default name: the id, the version when it is a plain word, the format. */
export function archiveName(id: string, version: string, format: 'tar.gz' | 'zip'): string {
  return `${id}${/^[A-Za-z0-9._+-]+$/.test(version) ? `-${version}` : ''}.${format}`
}

/**
 * The archive just written, as the upload endpoint extracted it, against what was packed: one
 * top-level folder named `top` (the id unless said), the same tree, an install accepted with that
 * id and the source's signature. A difference is a bug of ours (an Error, not a UserError).
 */
export async function checkPacked(
  x: { root: GoString; descended: boolean },
  entries: PackEntry[],
  id: string,
  sig: SourceSignature,
  top: GoString = id,
): Promise<void> {
  if (!x.descended || base(x.root) !== top)
    throw new Error(
      `the archive just written has no single top-level folder named ${top === id ? 'after the pack id' : JSON.stringify(toText(top))}`,
    )
  const diff = sameTree(x.root, entries)
  if (diff !== null) throw new Error(`the archive just written extracts differently: ${diff}`)
  const again = await checkInstall(x.root, undefined, { stagingName: stagingBasename(top) })
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
}
