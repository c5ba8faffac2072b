import { chmodSync, lstatSync, mkdirSync, type Stats } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { writeFileAtomic } from '../atomic-write.js'
import { UserError } from '../errors.js'
import { reasonText } from '../go/os/errors.js'
import { NotRegularError, readFileBounded, TooLargeError } from '../read-bounded.js'

/**
 * The tokens `remote login` keeps, per manager URL, in
 * `$XDG_CONFIG_HOME/ongrid-skill/credentials.json` (else ~/.config/…): the file 0600, the dirs
 * 0700, written through an exclusive temp file (core/atomic-write.ts). Never the password: the
 * manager has no API tokens, so the refresh token (7–30 days) is what keeps a session.
 */

export interface Session {
  email: string
  role: string
  access_token: string
  refresh_token: string
  /** Unix seconds when the access token expires (from the token's `exp`, else login time + expires_in). */
  access_expires_at: number
  /** Unix seconds when the refresh token expires (its `exp`), or 0 when unknown. */
  refresh_expires_at: number
  /** What GET /api/v1/version last answered (login, whoami, diff): the release deployed there. */
  manager_version?: string
}

interface StoreFile {
  version: 1
  managers: Record<string, Session>
}

const MAX_STORE = 1 << 20

export function credentialsPath(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_CONFIG_HOME
  const base = xdg?.startsWith('/') ? xdg : join(env.HOME || homedir(), '.config')
  return join(base, 'ongrid-skill', 'credentials.json')
}

/** The claims of a JWT, read without checking them (only shown, and used to decide early). */
function claimsOf(token: string): Record<string, unknown> | null {
  const part = token.split('.')[1]
  if (part === undefined) return null
  try {
    const v = JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as unknown
    return v !== null && typeof v === 'object' ? (v as Record<string, unknown>) : null
  } catch {
    return null
  }
}

/** The `exp` claim of a JWT (it is only shown and used to refresh early). */
export function tokenExpiry(token: string): number | null {
  const exp = claimsOf(token)?.exp
  return typeof exp === 'number' && Number.isFinite(exp) ? exp : null
}

/**
 * The role a session's calls carry: the `role` claim of its access token, which every check of
 * the manager reads (remote-contract §10.2), else the role the login answered.
 */
export function tokenRole(s: Session): string {
  const role = claimsOf(s.access_token)?.role
  return typeof role === 'string' ? role : s.role
}

function isSession(v: unknown): v is Session {
  if (v === null || typeof v !== 'object') return false
  const s = v as Record<string, unknown>
  return (
    typeof s.email === 'string' &&
    typeof s.role === 'string' &&
    typeof s.access_token === 'string' &&
    typeof s.refresh_token === 'string' &&
    typeof s.access_expires_at === 'number' &&
    typeof s.refresh_expires_at === 'number' &&
    (s.manager_version === undefined || typeof s.manager_version === 'string')
  )
}

/** The name of a uid, from /etc/passwd (read with a bound), else `uid N`. */
export function ownerName(uid: number): string {
  try {
    const passwd = readFileBounded('/etc/passwd', 4 << 20, { regularOnly: true }).toString('utf8')
    for (const line of passwd.split('\n')) {
      const f = line.split(':')
      if (f.length > 2 && Number(f[2]) === uid && f[0] !== '') return `${f[0]} (uid ${uid})`
    }
  } catch {}
  return `uid ${uid}`
}

/**
 * The Lstat of `path` when it is this user's own `kind` (a real dir, a regular file), undefined
 * when there is nothing there (a file not yet written); anything else is refused in one line.
 */
function ownedOrRefused(path: string, kind: 'dir' | 'file'): Stats | undefined {
  let st: Stats | undefined
  try {
    st = lstatSync(path, { throwIfNoEntry: false })
  } catch (e) {
    throw new UserError(`credentials ${path}: ${reasonText(e)}`)
  }
  if (st === undefined) {
    if (kind === 'dir') throw new UserError(`credentials ${path}: not a directory`)
    return undefined
  }
  const me = process.getuid?.()
  if (me !== undefined && st.uid !== me) {
    throw new UserError(
      `credentials ${path}: owned by ${ownerName(st.uid)}, not by ${ownerName(me)} who runs this: tokens are not written there`,
    )
  }
  if (kind === 'dir' ? !st.isDirectory() : !st.isFile())
    throw new UserError(
      `credentials ${path}: not a ${kind === 'dir' ? 'directory' : 'regular file'} (a link is not followed): tokens are not written there`,
    )
  return st
}

export class CredentialStore {
  constructor(readonly path: string = credentialsPath()) {}

  private read(): StoreFile {
    let raw: Buffer
    try {
      raw = readFileBounded(this.path, MAX_STORE, { regularOnly: true })
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, managers: {} }
      const why = e instanceof TooLargeError || e instanceof NotRegularError ? e.message : reasonText(e)
      throw new UserError(`credentials ${this.path}: ${why}`)
    }
    let doc: unknown
    try {
      doc = JSON.parse(raw.toString('utf8'))
    } catch {
      throw new UserError(`credentials ${this.path}: not JSON`, 2, 'remove it and run remote login again')
    }
    const managers = (doc as { managers?: unknown } | null)?.managers
    const out: StoreFile = { version: 1, managers: {} }
    if (managers !== null && typeof managers === 'object') {
      for (const [url, s] of Object.entries(managers as Record<string, unknown>)) {
        if (isSession(s)) out.managers[url] = s
      }
    }
    return out
  }

  /** The managers with a session, in the order they were first logged in to. */
  managers(): string[] {
    return Object.keys(this.read().managers)
  }

  get(url: string): Session | null {
    return this.read().managers[url] ?? null
  }

  put(url: string, session: Session): void {
    const doc = this.read()
    doc.managers[url] = session
    this.write(doc)
  }

  /** Whether there was a session to forget. */
  delete(url: string): boolean {
    const doc = this.read()
    if (!(url in doc.managers)) return false
    delete doc.managers[url]
    this.write(doc)
    return true
  }

  private write(doc: StoreFile): void {
    const dir = join(this.path, '..')
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 })
    } catch (e) {
      throw new UserError(`credentials ${this.path}: ${reasonText(e)}`)
    }
    // Tokens go only into a dir and a file of this user's (checked without following links):
    // a file another user owns would keep its owner through the write, and be theirs to read.
    const d = ownedOrRefused(dir, 'dir')
    const cur = ownedOrRefused(this.path, 'file')
    try {
      // Our own dir: nobody else lists it, whatever made it before.
      if (d !== undefined && (d.mode & 0o077) !== 0) chmodSync(dir, 0o700)
      // An existing file keeps its mode through the write: make it ours first.
      if (cur !== undefined && (cur.mode & 0o077) !== 0) chmodSync(this.path, 0o600)
    } catch (e) {
      throw new UserError(`credentials ${this.path}: ${reasonText(e)}`)
    }
    writeFileAtomic(this.path, `${JSON.stringify(doc, null, 2)}\n`, { mode: 0o600 })
  }
}
