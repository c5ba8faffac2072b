import { randomBytes } from 'node:crypto'
import { UserError } from '../errors.js'
import { API, type ManagerClient, refusal, restated } from './client.js'
import type { InstalledPack } from './diff.js'
import { REMOTE_EXIT } from './http.js'

/**
 * The marketplace routes of the manager's REST API (remote-contract §5.8–5.12): the installed
 * list, uninstall, bindings, registries and the upload (multipart, its 64 MiB limit, its 409).
 */

export async function installedPacks(c: ManagerClient): Promise<InstalledPack[]> {
  const r = await c.json<{ items: InstalledPack[] | null }>('GET', API.installed)
  return r.items ?? []
}

/** DELETE; the manager answers 204 for any id, installed or not: whether it was is asked first. */
export async function uninstallPack(c: ManagerClient, id: string): Promise<{ wasInstalled: boolean }> {
  const was = (await installedPacks(c)).some((p) => p.PackID === id)
  await c.json('DELETE', `${API.installed}/${encodeURIComponent(id)}`)
  return { wasInstalled: was }
}

/** SLOT=CREDENTIAL pairs as the bindings map; a pair without both sides is refused. */
export function bindingsOf(pairs: string[]): Record<string, string> {
  const bindings: Record<string, string> = {}
  for (const p of pairs) {
    const eq = p.indexOf('=')
    if (eq <= 0 || p.slice(eq + 1).trim() === '')
      throw new UserError(`${JSON.stringify(p)}: want SLOT=CREDENTIAL (a vault credential's name)`)
    bindings[p.slice(0, eq).trim()] = p.slice(eq + 1).trim()
  }
  return bindings
}

/** PUT the whole bindings map of an installed pack. */
export async function bindPack(
  c: ManagerClient,
  id: string,
  bindings: Record<string, string>,
): Promise<void> {
  const r = await c.call('PUT', `${API.installed}/${encodeURIComponent(id)}/bindings`, {
    type: 'application/json',
    data: Buffer.from(JSON.stringify({ bindings })),
  })
  if (r.status === 200) return
  const e = refusal(`PUT bindings of ${id}`, r, c.base)
  if (r.status === 404) {
    throw restated(
      e,
      `${id} is not installed on ${c.base} (the manager answered 404)`,
      REMOTE_EXIT.refused,
      'see: ongrid-skill remote installed',
    )
  }
  throw e
}

export interface Registry {
  name: string
  url: string
  allowed: boolean
}

export async function registries(c: ManagerClient): Promise<{ items: Registry[]; devMode: boolean }> {
  const r = await c.json<{ items: Registry[] | null }>('GET', API.registries)
  const items = r.items ?? []
  return { items, devMode: items.some((i) => i.name === '<dev-mode>') }
}

/** The upload's answer (the install result). */
export interface Uploaded {
  pack?: InstalledPack
  capabilities: unknown
  warnings: { path: string; reason: string; code: string }[] | null
}

/**
 * The multipart request of an upload: `archive` as the field `file` named `name`, framed as the
 * endpoint's own size check counts it (core/marketplace/archive/framing.ts), with a random boundary.
 * Refused before sending when the whole request is past the endpoint's 64 MiB.
 */
export async function uploadRequest(name: string, archive: Buffer): Promise<{ type: string; data: Buffer }> {
  const { MAX_UPLOAD, minUploadRequest, uploadFraming } = await import('../marketplace/archive/framing.js')
  const boundary = `ongrid-skill-${randomBytes(12).toString('hex')}`
  if (minUploadRequest(archive.length, name, boundary) > MAX_UPLOAD) {
    throw new UserError(
      `${name}: ${archive.length} bytes; the upload endpoint takes at most 64 MiB per request (not sent)`,
    )
  }
  const { head, tail } = uploadFraming(name, boundary)
  return {
    type: `multipart/form-data; boundary=${boundary}`,
    data: Buffer.concat([Buffer.from(head), archive, Buffer.from(tail)]),
  }
}

/** POST the upload; a pack already installed is the manager's 409, with what to do instead. */
export async function upload(c: ManagerClient, body: { type: string; data: Buffer }): Promise<Uploaded> {
  const r = await c.call('POST', API.upload, body)
  if (r.status === 409) {
    const e = refusal('upload', r, c.base)
    throw restated(
      e,
      e.message,
      REMOTE_EXIT.refused,
      'the manager has no update route: uninstall it (remote uninstall ID; its bindings go too), push again, then bind again',
    )
  }
  if (r.status !== 200) throw refusal('upload', r, c.base)
  return JSON.parse(r.body.toString('utf8')) as Uploaded
}
