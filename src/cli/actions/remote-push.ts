import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { basename, join, resolve } from 'node:path'
import { reasonText } from '../../core/go/os/errors.js'
import { readFileBounded, TooLargeError } from '../../core/read-bounded.js'
import { tempBase } from '../../core/user-dirs.js'
import { EXIT, type InputOf, UserError } from '../errors.js'
import { argBytes, osPath } from '../os-bytes.js'
import type { remotePushSpec as RemotePush } from '../specs/remote-push.js'

/**
 * What `remote push` uploads: a dir goes through `marketplace pack` (which runs the manager's
 * check first and refuses what it would refuse), an archive through `marketplace check`; the
 * verdict's error is the refusal. Both are the existing marketplace actions, unchanged.
 */
export async function pushPrepare(
  path: string,
  flags: InputOf<typeof RemotePush>['flags'],
): Promise<{ code: number; archive: Buffer | null; name: string; cleanup: () => void }> {
  let st: ReturnType<typeof statSync>
  try {
    st = statSync(osPath(path))
  } catch (e) {
    throw new UserError(`${path}: ${reasonText(e)}`)
  }
  if (st.isDirectory()) return packDir(path, flags.json === true)
  if (!st.isFile()) throw new UserError(`${path}: not a pack dir or an archive`)
  const { checkDocument, openTarget } = await import('../../core/marketplace/check.js')
  const t = await openTarget(argBytes(path))
  try {
    const doc = await checkDocument(t, { devMode: true, requireSigned: [], pinnedKey: '', source: 'local' })
    const err = doc.install?.ok === true ? doc.findings.find((f) => f.severity === 'error') : undefined
    if (doc.install?.ok !== true || err !== undefined) {
      throw new UserError(
        `${path}: not sent, the manager would refuse it: ${doc.install?.ok !== true ? (doc.install?.error ?? 'no pack layout') : `${err?.message} (${err?.ruleId})`}`,
        EXIT.findings,
        `the whole verdict: ongrid-skill marketplace check ${path}`,
      )
    }
  } finally {
    t.cleanup()
  }
  let archive: Buffer
  try {
    archive = readFileBounded(osPath(path), 64 << 20, { regularOnly: true })
  } catch (e) {
    if (e instanceof TooLargeError)
      throw new UserError(`${path}: the upload endpoint takes at most 64 MiB per request (not sent)`)
    throw new UserError(`${path}: ${reasonText(e)}`)
  }
  return { code: EXIT.ok, archive, name: basename(path), cleanup: () => {} }
}

/** `marketplace pack DIR -o TMP/…`: its report goes to stderr (stdout is push's). */
async function packDir(path: string, json: boolean) {
  const { marketplacePackForUpload } = await import('./marketplace.js')
  const dir = mkdtempSync(join(tempBase(), 'ongrid-skill-push-'))
  const cleanup = () => rmSync(dir, { recursive: true, force: true })
  const out = join(dir, 'pack.tar.gz')
  const write = process.stdout.write
  const said: string[] = []
  process.stdout.write = ((chunk: string | Uint8Array) => {
    said.push(String(chunk))
    return true
  }) as typeof process.stdout.write
  let code: number
  try {
    code = await marketplacePackForUpload({
      args: { path },
      argv: [path],
      flags: { output: out, format: 'tar.gz', force: true },
    })
  } catch (e) {
    cleanup()
    throw e
  } finally {
    process.stdout.write = write
  }
  if (!json) process.stderr.write(said.join(''))
  if (code !== EXIT.ok) {
    cleanup()
    return { code, archive: null, name: '', cleanup: () => {} }
  }
  const archive = readFileBounded(out, 64 << 20, { regularOnly: true })
  return { code, archive, name: `${basename(resolve(path))}.tar.gz`, cleanup }
}
