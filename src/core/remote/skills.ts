import { authorize } from '../executor/gate.js'
import { valid } from '../go/encoding/json/scanner.js'
import { fromBuffer, type GoString, toText } from '../go/gostring.js'
import { parseTree } from '../json-tree.js'
import { API, type ManagerClient, refusal, restated } from './client.js'
import type { RemoteSkill } from './diff.js'
import { REMOTE_EXIT, RemoteError, type Reply } from './http.js'

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
      throw restated(
        err,
        `${key} is a SKILL.md skill: the manager lists it but neither shows nor runs SKILL.md skills over the API`,
        REMOTE_EXIT.refused,
      )
    }
    throw restated(
      err,
      `no skill ${JSON.stringify(key)} on ${c.base} (${err.message})`,
      REMOTE_EXIT.refused,
      'list them: ongrid-skill remote ls',
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
  // Not sent: the status, code and text are those the execute handler answers (§5.6).
  return new RemoteError(
    `${key}: the manager refuses ${cls} skills to role ${role} with ${JSON.stringify(gate)} (not called)`,
    REMOTE_EXIT.refused,
    cls === 'dangerous' ? 'no role may run a dangerous skill over the API' : undefined,
    403,
    'forbidden',
    gate,
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
  /**
   * The `result` of a 200 as the manager sent it: the skill's stdout bytes, a json.RawMessage
   * the manager's encoder compacted (remote-contract §10.4); null when there is none. Never
   * parsed here: a number that JavaScript cannot hold keeps its digits.
   */
  result: Buffer | null
  /** The `error` of a 200 (a failed run), or null. */
  error: string | null
  /** From sending the request to the whole answer, in ms. */
  ms: number
}

/** The bytes of the value of `key` in a JSON object's text (the last one, as Go keeps), or null. */
function memberBytes(body: Buffer, key: string): Buffer | null {
  const tree = parseTree(fromBuffer(body))
  if (tree.kind !== 'object') return null
  const m = tree.members.findLast((x) => x.key === key)
  return m === undefined ? null : body.subarray(m.value.start, m.value.end)
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
  let r: Reply
  try {
    r = await c.call('POST', path, { type: 'application/json', data: executeBody(edge, params) })
  } catch (e) {
    if (!(e instanceof RemoteError && e.timedOut)) throw e
    // Giving up cancels the request's context on the manager, which kills the skill (§10.3).
    const cut = new RemoteError(
      `${e.message}: the client gave up, and the manager stops a skill when its caller goes: ${key} was killed there, it did not fail by itself`,
      REMOTE_EXIT.unreachable,
      'a longer --timeout (nginx cuts a request at 300s)',
    )
    cut.timedOut = true
    throw cut
  }
  const ms = Number(process.hrtime.bigint() - started) / 1e6
  if (r.status !== 200) throw refusal(`POST ${path}`, r, c.base)
  if (!valid(fromBuffer(r.body)))
    throw new RemoteError(`POST ${path}: the manager's answer is not JSON`, REMOTE_EXIT.refused)
  const out = JSON.parse(r.body.toString('utf8')) as { error?: unknown } | null
  const error = typeof out?.error === 'string' && out.error !== '' ? out.error : null
  const result = memberBytes(r.body, 'result')
  return { result: result === null || result.toString('latin1') === 'null' ? null : result, error, ms }
}
