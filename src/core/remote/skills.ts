import { authorize } from '../executor/gate.js'
import { type GoString, toText } from '../go/gostring.js'
import { API, type ManagerClient, refusal } from './client.js'
import type { RemoteSkill } from './diff.js'
import { REMOTE_EXIT, RemoteError } from './http.js'

/**
 * The skill routes of the manager's REST API (remote-contract §5.4–5.6): the list, one skill,
 * the class gate as the execute handler applies it, and the execute call itself.
 */

export async function listSkills(c: ManagerClient, category?: string): Promise<RemoteSkill[]> {
  const q = category === undefined ? '' : `?category=${encodeURIComponent(category)}`
  const r = await c.json<{ items: RemoteSkill[] | null }>('GET', `${API.skills}${q}`)
  return r.items ?? []
}

/** GET /v1/skills/KEY; a 404 says whether the key is a SKILL.md skill (listed, never fetched). */
export async function getSkill(c: ManagerClient, key: string): Promise<RemoteSkill> {
  const path = `${API.skills}/${encodeURIComponent(key)}`
  const r = await c.call('GET', path)
  if (r.status === 200) return JSON.parse(r.body.toString('utf8')) as RemoteSkill
  const err = refusal(`GET ${path}`, r, c.base)
  if (r.status === 404 && err.managerText === 'not found') {
    const listed = (await listSkills(c)).find((s) => s.key === key)
    if (listed !== undefined && listed.params === null) {
      throw new RemoteError(
        `${key} is a SKILL.md skill: the manager lists it but neither shows nor runs SKILL.md skills over the API`,
        REMOTE_EXIT.refused,
        undefined,
        404,
      )
    }
    throw new RemoteError(
      `no skill ${JSON.stringify(key)} on ${c.base} (${err.message})`,
      REMOTE_EXIT.refused,
      'list them: ongrid-skill remote ls',
      404,
    )
  }
  throw err
}

export type SkillClass = 'safe' | 'mutating' | 'dangerous'

/** The class the execute handler gates on (`""` and anything unknown are safe). */
export function classOf(s: RemoteSkill): SkillClass {
  return s.class === 'mutating' || s.class === 'dangerous' ? s.class : 'safe'
}

/** The manager's 403 for this class and role, as a refusal made before calling; null: it may run. */
export function gateRefusal(key: string, cls: SkillClass, role: string): RemoteError | null {
  const gate = authorize(cls, role)
  if (gate === null) return null
  return new RemoteError(
    `${key}: the manager refuses ${cls} skills to role ${role} with ${JSON.stringify(gate)} (not called)`,
    REMOTE_EXIT.refused,
    cls === 'dangerous' ? 'no role may run a dangerous skill over the API' : undefined,
    403,
  )
}

/** A JSON schema from the manager's ParamDefs, so that --arg is typed as the skill declares it. */
export function paramsSchema(s: RemoteSkill): unknown {
  const types: Record<string, string> = { int: 'integer', float: 'number', bool: 'boolean', array: 'array' }
  const properties: Record<string, { type: string }> = {}
  for (const p of s.params ?? []) properties[p.name] = { type: types[p.type] ?? 'string' }
  return { type: 'object', properties }
}

/**
 * The execute body: `edge_id` when given, and the params bytes as they are (valid JSON, checked
 * by the caller; `{}` when empty). The manager validates nothing against its ParamDefs.
 */
export function executeBody(edge: number | undefined, params: GoString): Buffer {
  const p = params === '' ? '{}' : toText(params)
  return Buffer.from(`{${edge === undefined ? '' : `"edge_id":${edge},`}"params":${p}}`)
}

export interface Execution {
  /** The `result` of a 200, or null when the manager sent none. */
  result: unknown
  /** The `error` of a 200 (a failed run), or null. */
  error: string | null
  /** From sending the request to the whole answer, in ms. */
  ms: number
}

/** POST /v1/skills/KEY/execute; anything but a 200 is a refusal. */
export async function execute(
  c: ManagerClient,
  key: string,
  edge: number | undefined,
  params: GoString,
): Promise<Execution> {
  const path = `${API.skills}/${encodeURIComponent(key)}/execute`
  const started = process.hrtime.bigint()
  const r = await c.call('POST', path, { type: 'application/json', data: executeBody(edge, params) })
  const ms = Number(process.hrtime.bigint() - started) / 1e6
  if (r.status !== 200) throw refusal(`POST ${path}`, r, c.base)
  let out: { result?: unknown; error?: unknown }
  try {
    out = JSON.parse(r.body.toString('utf8'))
  } catch {
    throw new RemoteError(`POST ${path}: the manager's answer is not JSON`, REMOTE_EXIT.refused)
  }
  const error = typeof out.error === 'string' && out.error !== '' ? out.error : null
  return { result: out.result ?? null, error, ms }
}
